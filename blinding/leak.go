package blinding

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"verdict/campaign"
)

// FindingKind says whether a leak finding is a forbidden JSON member name
// (a structural leak: a bug in bundling) or a revealing token inside text
// (residual leakage to disclose, CONTRACT §5 "disclose that limit").
type FindingKind string

// Leak finding kinds.
const (
	FindingField FindingKind = "forbidden-field"
	FindingToken FindingKind = "revealing-token"
)

// Finding is one leak-scan result: the bundle's rater, the item, the RFC
// 6901 JSON pointer inside the bundle file, the kind and the matched token.
//
// Token is the matched text as the scan saw it: normalised (Normalize)
// and lower-cased, or "U+XXXX" for a control character. Rule, for the
// findings made in context (arm vocabulary, money, token counts, control
// characters), says which rule matched, so that a false positive can be
// recognised and explained.
type Finding struct {
	Rater   string      `json:"rater"`
	Item    string      `json:"item"`
	Pointer string      `json:"pointer"`
	Kind    FindingKind `json:"kind"`
	Token   string      `json:"token"`
	Rule    string      `json:"rule,omitempty"`
}

// String formats a finding as one report line.
func (f Finding) String() string {
	if f.Rule != "" {
		return fmt.Sprintf("%s %s#%s: %s %q (%s)", f.Rater, f.Item, f.Pointer, f.Kind, f.Token, f.Rule)
	}
	return fmt.Sprintf("%s %s#%s: %s %q", f.Rater, f.Item, f.Pointer, f.Kind, f.Token)
}

// ForbiddenFields are JSON member names that must never occur in a bundle
// (arm, reconciliation, receipt, cost, tokens, timing, model and session
// identity, repetition, order, draft). Matching is exact and case-insensitive.
var ForbiddenFields = []string{
	"arm", "role", "reconciliation", "evidence_dispositions", "dispositions", "disposition",
	"ledger", "obligations_ledger", "receipt", "receipts", "session", "session_id", "sessions",
	"request_id", "model", "model_snapshot", "consumer_version", "repetition", "order", "draft",
	"review_a", "review_b", "cost", "cost_micro_usd", "price_card", "price_card_id",
	"actual_charge_micro_usd", "input_tokens", "cached_input_tokens", "output_tokens",
	"reasoning_tokens", "meter", "tokens", "duration", "duration_ns", "started_utc", "ended_utc",
	"start_monotonic_ns", "end_monotonic_ns", "validation_ns", "assembly_ns", "score", "scores",
}

// BaseLeakTokens are the revealing tokens every scan looks for in text
// values, case-insensitively and on word boundaries (a token never matches
// inside a longer word: "arm" does not match "harm"), after the text is
// normalised (Normalize: NFKD, format characters and combining marks
// removed, confusables folded), so "recon\u200bciliation", fullwidth or
// Cyrillic look-alike spellings match too. The context rules of
// leak_context.go (arm vocabulary, money amounts, token counts, control
// characters) run on the same normalised text.
var BaseLeakTokens = []string{
	"review-a", "review-b", "review_a", "review_b", "arm a", "arm b", "treatment arm",
	"reconciliation", "ledger", "disposition", "dispositions", "evidence_dispositions",
	"shared draft", "input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens",
	"micro_usd", "price card", "receipt",
}

// DefaultLeakTokens returns BaseLeakTokens plus the campaign's own
// revealing values: every session ID and the manifest's model, model
// snapshot, consumer version and price-card identities.
func DefaultLeakTokens(c *campaign.Campaign) []string {
	out := slices.Clone(BaseLeakTokens)
	for _, s := range c.Sessions {
		out = append(out, s.ID)
	}
	return append(out, executionTokens(c.Manifest.Execution)...)
}

// executionTokens are a manifest's revealing execution identities: model,
// model snapshot, consumer version and price-card ID, when set.
func executionTokens(ex campaign.Execution) []string {
	var out []string
	for _, p := range []*string{ex.Model, ex.ModelSnapshot, ex.ConsumerVersion} {
		if p != nil && strings.TrimSpace(*p) != "" {
			out = append(out, strings.TrimSpace(*p))
		}
	}
	if ex.PriceCard != nil && ex.PriceCard.ID != "" {
		out = append(out, ex.PriceCard.ID)
	}
	return out
}

// Scanner scans bundles for forbidden member names and revealing tokens.
type Scanner struct {
	fields map[string]bool
	tokens []string
	// Tokens whose first and last runes are word runes (every session ID
	// and base token) can only match from a word start to a word end, so
	// they are looked up by the text's word spans: linear in the text, not
	// in text × tokens. Other tokens are searched one by one.
	words    map[string]bool
	maxWords int // longest word-edged token in bytes
	// wordLens has bit n set when a word-edged token is n bytes long
	// (n < 64; longer ones set bit 63), so most word spans are skipped
	// without a map lookup.
	wordLens uint64
	others   []string
}

// NewScanner returns a scanner for ForbiddenFields and the given tokens
// (configurable; duplicates and empty tokens are dropped).
func NewScanner(tokens []string) *Scanner {
	s := &Scanner{fields: map[string]bool{}}
	for _, f := range ForbiddenFields {
		s.fields[f] = true
	}
	seen := map[string]bool{}
	for _, t := range tokens {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		s.tokens = append(s.tokens, t)
	}
	slices.Sort(s.tokens)
	s.words = map[string]bool{}
	for _, t := range s.tokens {
		first, _ := utf8.DecodeRuneInString(t)
		last, _ := utf8.DecodeLastRuneInString(t)
		if isWordRune(first) && isWordRune(last) {
			s.words[t] = true
			s.maxWords = max(s.maxWords, len(t))
			s.wordLens |= 1 << min(len(t), 63)
		} else {
			s.others = append(s.others, t)
		}
	}
	return s
}

// matches returns the tokens that occur in low (already lower-cased) on
// word boundaries, in sorted order: exactly the tokens t with
// containsWord(low, t).
func (s *Scanner) matches(low string) []string {
	var found []string
	if len(s.words) > 0 {
		// Word starts (a word rune not preceded by one) and word ends (the
		// byte after a word rune not followed by one), both increasing. The
		// lists start in stack arrays: this runs on every string of a
		// bundle holding every final answer of a campaign.
		var startBuf, endBuf [128]int
		starts, ends := startBuf[:0], endBuf[:0]
		prevWord := false
		for i, r := range low {
			w := isWordRune(r)
			if w && !prevWord {
				starts = append(starts, i)
			}
			if !w && prevWord {
				ends = append(ends, i)
			}
			prevWord = w
		}
		if prevWord {
			ends = append(ends, len(low))
		}
		e := 0
		for _, i := range starts {
			for e < len(ends) && ends[e] <= i {
				e++
			}
			for k := e; k < len(ends) && ends[k]-i <= s.maxWords; k++ {
				if n := ends[k] - i; s.wordLens&(1<<min(n, 63)) == 0 {
					continue
				}
				if t := low[i:ends[k]]; s.words[t] {
					found = append(found, t)
				}
			}
		}
	}
	for _, t := range s.others {
		if containsWord(low, t) {
			found = append(found, t)
		}
	}
	slices.Sort(found)
	return slices.Compact(found)
}

// ScanJSON scans any bundle-shaped JSON document: every member name
// against ForbiddenFields, and every string value outside an item's shared
// inputs against the tokens (see inputKeys). rater labels the findings.
func (s *Scanner) ScanJSON(rater string, data []byte) []Finding {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return []Finding{{Rater: rater, Kind: FindingField, Token: "undecodable bundle: " + err.Error()}}
	}
	var out []Finding
	s.walk(rater, "", "", v, &out)
	return out
}

// inputKeys are the members of an item that hold the shared inputs (task
// text, packet excerpts, frozen obligations): identical for both arms, so
// a token there cannot reveal an arm. They are not scanned for tokens, and
// a token they contain is exempt in that item's final answer (a task about
// a "ledger" module may say "ledger"). Member names are checked everywhere.
var inputKeys = map[string]bool{"task_text": true, "evidence": true, "obligations": true}

func (s *Scanner) walk(rater, item, ptr string, v any, out *[]Finding) {
	s.walkText(rater, item, ptr, v, true, nil, out)
}

func (s *Scanner) walkText(rater, item, ptr string, v any, scan bool, exempt map[string]bool, out *[]Finding) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if id, ok := x["id"].(string); ok && strings.HasPrefix(id, "item-") {
			item = id
			exempt = map[string]bool{}
			for k := range inputKeys {
				s.collect(x[k], exempt)
			}
		}
		for _, k := range keys {
			p := ptr + "/" + escapePointer(k)
			if s.fields[strings.ToLower(k)] {
				*out = append(*out, Finding{Rater: rater, Item: item, Pointer: p, Kind: FindingField, Token: k})
			}
			s.walkText(rater, item, p, x[k], scan && !(item != "" && inputKeys[k]), exempt, out)
		}
	case []any:
		for i, e := range x {
			s.walkText(rater, item, ptr+"/"+strconv.Itoa(i), e, scan, exempt, out)
		}
	case string:
		if scan {
			s.scanText(nil, rater, item, ptr, x, exempt, out)
		}
	}
}

// textMatches is what the scan finds in one text value before
// exemptions: its tokens (Scanner.matches of the lower-cased normalised
// text) and its context matches (contextMatches).
type textMatches struct {
	tokens  []string
	context []contextFinding
}

// textMemo keeps the textMatches of each text value seen by one scan, so
// that a text repeated across items (an ID, a status, an answer given
// again) is matched once. nil keeps nothing.
type textMemo map[string]*textMatches

// find returns the matches of text, from m when it holds them.
func (s *Scanner) find(m textMemo, text string) *textMatches {
	if t, ok := m[text]; ok {
		return t
	}
	normalized := Normalize(text)
	low := strings.ToLower(normalized)
	t := &textMatches{tokens: s.matches(low), context: contextMatches(text, normalized, low)}
	if m != nil {
		m[text] = t
	}
	return t
}

// ScanText scans one free text outside a bundle (a rater's note) with the
// same token and context rules as a bundle's text values, without the
// exemptions of an item's shared inputs: every finding names item and
// ptr, the place of the text, and rater is left empty.
func (s *Scanner) ScanText(item, ptr, text string) []Finding {
	var out []Finding
	s.scanText(nil, "", item, ptr, text, nil, &out)
	return out
}

// scanText appends the findings of one text value at ptr: every token
// not in exempt, then every context match (arm vocabulary, money, token
// counts) neither exempt, nor exempt by its topic, nor already found as a
// token, then every control character.
func (s *Scanner) scanText(m textMemo, rater, item, ptr, text string, exempt map[string]bool, out *[]Finding) {
	t := s.find(m, text)
	for _, tok := range t.tokens {
		if !exempt[tok] {
			*out = append(*out, Finding{Rater: rater, Item: item, Pointer: ptr, Kind: FindingToken, Token: tok})
		}
	}
	for _, c := range t.context {
		if c.kind != FindingControl && (exempt[c.token] || exempt[topicKey(c.why)] || slices.Contains(t.tokens, c.token)) {
			continue
		}
		*out = append(*out, Finding{Rater: rater, Item: item, Pointer: ptr, Kind: c.kind, Token: c.token, Rule: c.why})
	}
}

// collect adds to set every token and every context match (not control
// characters) found in the strings of v, and the topic of every context
// rule they match (topicsOf).
func (s *Scanner) collect(v any, set map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			s.collect(e, set)
		}
	case []any:
		for _, e := range x {
			s.collect(e, set)
		}
	case string:
		s.collectText(nil, x, set)
	}
}

// exemptMemo keeps, for each text value seen by one scan, the exemption
// keys collectText adds for it. nil keeps nothing.
type exemptMemo map[string][]string

// collectText adds to set what collect adds for one text value.
func (s *Scanner) collectText(m exemptMemo, text string, set map[string]bool) {
	if keys, ok := m[text]; ok {
		for _, k := range keys {
			set[k] = true
		}
		return
	}
	normalized := Normalize(text)
	low := strings.ToLower(normalized)
	own := map[string]bool{}
	for _, t := range s.matches(low) {
		own[t] = true
	}
	for _, c := range contextMatches(text, normalized, low) {
		if c.kind != FindingControl {
			own[c.token] = true
		}
	}
	topicsOf(low, own)
	keys := make([]string, 0, len(own))
	for k := range own {
		set[k] = true
		keys = append(keys, k)
	}
	if m != nil {
		m[text] = keys
	}
}

// containsWord reports whether tok occurs in s not adjacent to a letter or
// digit on either side.
func containsWord(s, tok string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], tok)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(tok)
		if !wordRuneBefore(s, i) && !wordRuneAt(s, j) {
			return true
		}
		from = i + 1
	}
}

func wordRuneBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	c, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(c)
}

func wordRuneAt(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	c, _ := utf8.DecodeRuneInString(s[j:])
	return isWordRune(c)
}

// isWordRune reports whether c is a letter, a digit or '_' (a rune a token
// must not touch on either side).
func isWordRune(c rune) bool {
	if c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
	}
	return unicode.IsLetter(c) || unicode.IsDigit(c)
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
