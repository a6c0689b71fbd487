package blinding

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Leak finding kinds found in context rather than by exact token (issue
// "the leak scan is easy to evade"). Each finding says which rule matched
// (Finding.Rule), so a false positive is visible and explainable.
const (
	// FindingArmVocabulary: words that name an arm in context ("review B",
	// "reviewer B", "the B arm", "arm-B", "control arm", "treatment").
	FindingArmVocabulary FindingKind = "arm-vocabulary"
	// FindingMoney: a money amount ("$0.04", "3 cents", "four cents").
	FindingMoney FindingKind = "money-amount"
	// FindingTokenCount: a count of model tokens ("12,431 tokens",
	// "twelve thousand tokens").
	FindingTokenCount FindingKind = "token-count"
	// FindingControl: a control character (ESC, NUL, …) or a bidirectional
	// override in text, which can hide part of an answer on a terminal.
	FindingControl FindingKind = "control-character"
)

// confusables folds the Cyrillic and Greek letters that look like Latin
// letters (the common cases of Unicode's confusables list) to those Latin
// letters, before lower-casing.
var confusables = map[rune]rune{
	// Cyrillic capitals and small letters.
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'Х': 'X', 'У': 'Y', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's',
	'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ү': 'y', 'ɡ': 'g',
	// Greek capitals and small letters.
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'ο': 'o', 'α': 'a', 'ι': 'i', 'ν': 'v', 'ρ': 'p',
	// Latin look-alikes NFKD leaves alone.
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɩ': 'i', 'ʏ': 'y',
	// Dashes and minus signs.
	'‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '―': '-', '−': '-', '﹘': '-', '﹣': '-', '－': '-',
}

// Normalize returns the form of text the leak scan matches: compatibility
// decomposition (NFKD: fullwidth and other compatibility forms become
// their plain letters, a no-break space a space), with combining marks,
// format characters (zero-width space and joiners, soft hyphen, word
// joiner, bidirectional marks) and variation selectors removed, the
// confusables folded to Latin letters and every dash to "-", every run of
// white space made one space, and the result recomposed (NFC). Letter case
// is kept (the arm letters "A" and "B" are matched in capitals only where
// the small letter is an English word).
func Normalize(text string) string {
	ascii := true
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= utf8.RuneSelf || c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
			ascii = false
			break
		}
	}
	if ascii && !strings.Contains(text, "  ") && !strings.ContainsAny(text, "\n\t") {
		return text
	}
	if ascii {
		// Printable ASCII, line feeds and tabs: decomposition, the removed
		// categories and the folds leave it as it is, so only the white
		// space is made one space (and dropped at both ends), as below.
		var b strings.Builder
		b.Grow(len(text))
		space := false
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c == ' ' || c == '\n' || c == '\t' {
				space = true
				continue
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteByte(c)
		}
		return b.String()
	}
	d := norm.NFKD.String(text)
	var b strings.Builder
	b.Grow(len(d))
	space := false
	for _, r := range d {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r):
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if f, ok := confusables[r]; ok {
			r = f
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// contextRule is one rule matched in context on normalised text.
type contextRule struct {
	kind FindingKind
	// why says what the rule finds, for the report.
	why string
	// hints are lower-case substrings one of which the text must contain
	// for the rule to be tried (a cheap filter; none always tries it).
	hints []string
	// spaced, when set, is a word of lower-case ASCII letters the
	// lower-cased text must contain with at most one separator (a sep
	// character) between two letters for the rule to be tried: every match
	// of re holds it (a cheap filter for the rules without hints).
	spaced string
	re     *regexp.Regexp
	// topic, when set, matches shared inputs (lower-cased) whose subject
	// is what the rule looks for: a task about splitting money in cents,
	// or about a tokenizer. In an item whose inputs match it, the rule's
	// findings are exempt, as a token found in the inputs is.
	topic *regexp.Regexp
	// topicHints are lower-case substrings one of which every match of
	// topic holds (a cheap filter).
	topicHints []string
}

const numberWords = `(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|a few|several|dozens? of|hundreds of|thousands of)`

// sep is what may stand between two letters of a spelled-out word in
// armStem: nothing, or one space, dot, hyphen or underscore.
const sep = `[\s.\-_]?`

// armStem is a regular expression matching word letter by letter with
// sep between the letters ("r e c o n c", "re-conc"), so that B's ledger
// vocabulary is found however it is split.
func armStem(word string) string {
	var b strings.Builder
	for i, r := range word {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}

// contextRules are the arm-vocabulary, money and token-count rules. The
// arm letter after "review", "reviewer", "arm", "condition" or "variant"
// must be a capital, or "b", or joined by "-" or "_": "review a file" is
// ordinary English.
var contextRules = []contextRule{
	{FindingArmVocabulary, "an arm named by its letter (review/reviewer/arm/condition/variant A or B)",
		[]string{"review", "arm", "condition", "variant", "cohort"}, "",
		regexp.MustCompile(`(?i:\b(?:reviews?|reviewers?|arms?|conditions?|variants?|cohorts?))(?:\s*[-_]\s*[abAB]|\s+(?:[AB]|b))\b`), nil, nil},
	{FindingArmVocabulary, "an arm named by its letter before the word (the B arm, the A review)",
		[]string{"arm", "review", "condition", "variant"}, "",
		regexp.MustCompile(`\b(?i:the)\s+[AB]\s*-?\s*(?i:arms?|reviews?|reviewers?|conditions?|variants?)\b`), nil, nil},
	{FindingArmVocabulary, "an arm named by its letter joined to the word (armB, reviewerA)",
		[]string{"review", "arm", "condition", "variant", "cohort"}, "",
		regexp.MustCompile(`(?i:\b(?:reviews?|reviewers?|arms?|conditions?|variants?|cohorts?))[ABb]\b`), nil, nil},
	{FindingArmVocabulary, "an arm named by its number (review #2, review no. 1, reviewer two, arm 2)",
		[]string{"review", "arm", "cohort", "condition", "variant", "side"}, "",
		regexp.MustCompile(`(?i)\b(?:(?:reviews?|reviewers?|arms?|conditions?|variants?|cohorts?|sides?)\s*(?:#|no\.|nr\.|number)\s*(?:[12]|one|two)|(?:reviewers?|arms?|cohorts?)\s*[-_]?\s*(?:[12]|one|two))\b`), nil, nil},
	{FindingArmVocabulary, "an arm named as a side (the B-side review, side A)",
		[]string{"side"}, "",
		regexp.MustCompile(`\b[AB]-(?i:sided?)\b|\b[AB]\s+(?i:side)\s+(?i:reviews?|reviewers?|arms?|answers?)\b|\b(?i:side)\s*[-_]?\s*[AB]\b`), nil, nil},
	{FindingArmVocabulary, "an arm named by a label (the arm labelled B, the review called \"A\")",
		[]string{"review", "arm", "condition", "variant", "cohort", "group", "side", "version"}, "",
		regexp.MustCompile(`(?i:\b(?:reviews?|reviewers?|arms?|conditions?|variants?|cohorts?|groups?|sides?|versions?)\s+(?:labell?ed|marked|named|called|designated|tagged|known\s+as)(?:\s+as)?)\s*["'“‘(]?\s*(?:[AB]|b)\b`), nil, nil},
	{FindingArmVocabulary, "an arm or reviewer named by its rank (the second reviewer, the alternate arm, the other arm)",
		[]string{"arm", "reviewer"}, "",
		regexp.MustCompile(`(?i)\b(?:(?:first|second|1st|2nd|alternate|alternative|experimental|augmented|primary|secondary)\s*-?\s*(?:arms?|reviewers?)|other\s+arms?)\b`), nil, nil},
	{FindingArmVocabulary, "the answer names itself as a ranked review (I am the second review, this is the primary review)",
		[]string{"review", "pass"}, "",
		regexp.MustCompile(`(?i)\b(?:i\s+am|i'm|i’m|this\s+is|as|here\s+is)\s+(?:the\s+|an?\s+)?(?:first|second|1st|2nd|alternate|alternative|other|primary|secondary|latter|former)\s+(?:reviews?|pass(?:es)?)\b`), nil, nil},
	{FindingArmVocabulary, "an arm named by its experimental role (control/treatment/baseline arm, group, condition)",
		[]string{"control", "treatment", "baseline", "experimental", "intervention"}, "",
		regexp.MustCompile(`(?i)\b(?:control|treatment|baseline|experimental|intervention)\s*[-_]?\s*(?:arms?|groups?|conditions?|reviews?|reviewers?)\b`), nil, nil},
	{FindingArmVocabulary, `"treatment": the contract's name for arm B`,
		[]string{"treatment"}, "",
		regexp.MustCompile(`(?i)\btreatment\b`), nil, nil},
	{FindingArmVocabulary, `"ordinary review": the contract's name for arm A`,
		[]string{"ordinary"}, "",
		regexp.MustCompile(`(?i)\bordinary\s+review\b`), nil, nil},
	{FindingArmVocabulary, "B's ledger vocabulary in any inflection or look-alike spelling: reconcile(d/s), reconciling, reconciliation(s) (Latin I, 1 or | for l, letters split by spaces, dots or hyphens)",
		nil, "reconc",
		regexp.MustCompile(`(?i)\b` + armStem("reconc") + sep + `[il1|]` + sep + `[il1|][\w|]*`),
		regexp.MustCompile(`\breconcil\w*`), []string{"reconcil"}},
	{FindingArmVocabulary, "B's ledger vocabulary in any inflection or look-alike spelling: ledger(s) (Latin I or 1 for l, letters split by spaces, dots or hyphens)",
		nil, "edger",
		regexp.MustCompile(`(?i)\b[il1]` + sep + armStem("edger") + `\w*`),
		regexp.MustCompile(`\bledgers?\b`), []string{"ledger"}},
	{FindingMoney, "a money amount (currency sign or unit with a number)",
		[]string{"$", "usd", "dollar", "cent", "€", "£", "¢", "eur", "gbp"}, "",
		regexp.MustCompile(`(?i)(?:[$€£]\s?\d|\b(?:usd|eur|gbp)\s?\d|\d(?:[\d,.]*\d)?\s?(?:usd|eur|gbp|dollars?|cents?|¢)(?:\b|$)|\b` + numberWords + `(?:[\s-]+` + numberWords + `)*\s+(?:dollars?|cents?)\b)`),
		regexp.MustCompile(`\b(?:cents?|dollars?|usd|eur|gbp|currency|prices?)\b|[$€£¢]`),
		[]string{"cent", "dollar", "usd", "eur", "gbp", "currency", "price", "$", "€", "£", "¢"}},
	{FindingTokenCount, "a count of model tokens",
		[]string{"token"}, "",
		regexp.MustCompile(`(?i)(?:\b\d(?:[\d,._]*\d)?\s?(?:k|m|thousand|million)?\s+(?:(?:input|output|cached|reasoning|prompt|completion)\s+)?tokens?\b|\b` + numberWords + `(?:[\s-]+` + numberWords + `)*\s+(?:(?:input|output|cached|reasoning|prompt|completion)\s+)?tokens?\b|\btokens?\s*[:=]\s*\d)`),
		regexp.MustCompile(`\btokens?\b`), []string{"token"}},
}

// topicKey is the exemption-set key of a rule whose topic the shared
// inputs match (Scanner.collect).
func topicKey(why string) string { return "\x00" + why }

// topicsOf adds to set the topicKey of every rule whose topic lower (the
// lower-cased normalised text of a shared input) matches.
func topicsOf(lower string, set map[string]bool) {
	for _, r := range contextRules {
		if r.topic != nil && !set[topicKey(r.why)] && containsAny(lower, r.topicHints) && r.topic.MatchString(lower) {
			set[topicKey(r.why)] = true
		}
	}
}

// contextFinding is one match of a context rule or a control character.
type contextFinding struct {
	kind  FindingKind
	token string // the matched text, lower-cased
	why   string
}

// contextMatches returns the context-rule matches in the normalised text
// norm (lower-case holds its lower-cased form) and the control characters
// in the raw text, in rule order then text order.
func contextMatches(raw, normalized, lower string) []contextFinding {
	var out []contextFinding
	for _, r := range contextRules {
		if len(r.hints) > 0 && !containsAny(lower, r.hints) || r.spaced != "" && !containsSpaced(lower, r.spaced) {
			continue
		}
		for _, m := range r.re.FindAllString(normalized, -1) {
			out = append(out, contextFinding{r.kind, strings.ToLower(m), r.why})
		}
	}
	for _, c := range raw {
		if isHidingControl(c) {
			out = append(out, contextFinding{FindingControl, fmt.Sprintf("U+%04X", c), "a control character or bidirectional override can hide text on a terminal"})
		}
	}
	return out
}

// isHidingControl reports whether c is a control character other than tab
// and line feed (and carriage return), or a bidirectional embedding,
// override or isolate.
func isHidingControl(c rune) bool {
	switch {
	case c == '\t' || c == '\n' || c == '\r':
		return false
	case c < 0x20 || c >= 0x7f && c < 0xa0:
		return true
	case c >= 0x202a && c <= 0x202e, c >= 0x2066 && c <= 0x2069:
		return true
	}
	return false
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// isSep reports whether c is a character of sep (white space as \s
// matches it, '.', '-' or '_').
func isSep(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\f', '\r', '.', '-', '_':
		return true
	}
	return false
}

// containsSpaced reports whether lower holds the letters of word in order
// with at most one separator (isSep) between two letters: what armStem
// matches, as a cheap filter before the regular expression.
func containsSpaced(lower, word string) bool {
	for from := 0; ; {
		i := strings.IndexByte(lower[from:], word[0])
		if i < 0 {
			return false
		}
		i += from
		j, k := i+1, 1
		for ; k < len(word); k++ {
			switch {
			case j < len(lower) && lower[j] == word[k]:
				j++
			case j+1 < len(lower) && isSep(lower[j]) && lower[j+1] == word[k]:
				j += 2
			default:
				j = -1
			}
			if j < 0 {
				break
			}
		}
		if k == len(word) {
			return true
		}
		from = i + 1
	}
}
