package blinding

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/campaign"
	"verdict/internal/par"
	"verdict/verr"
)

// Format identifiers written in every file this package produces.
const (
	// BundleFormat is the "format" value of a rater bundle.
	BundleFormat = "verdict-bundle-v1"
	// SealedMapFormat is the "format" value of the sealed unblinding map.
	SealedMapFormat = "verdict-sealed-map-v1"
	// SyntheticNotice is the first field of every file made from a
	// synthetic campaign (DESIGN "Defaults and embedded input").
	SyntheticNotice = "SYNTHETIC: made from an inert synthetic campaign; not a real evaluation"
	// DefaultRaters are the rater names used when none are given.
	DefaultRaters = "rater-1,rater-2"
)

// Reasons for refusals of this package (matched with errors.Is).
const (
	// ReasonBadRater: a rater name is empty, repeated or not [a-z0-9._-]+.
	ReasonBadRater verr.Reason = "bad-rater-name"
	// ReasonBadSeed: the campaign seed is not 64 hex digits.
	ReasonBadSeed verr.Reason = "bad-campaign-seed"
	// ReasonBadKey: the item-ID key is not 32 bytes.
	ReasonBadKey verr.Reason = "bad-item-key"
	// ReasonIDCollision: two sessions got the same opaque item ID.
	ReasonIDCollision verr.Reason = "item-id-collision"
	// ReasonNoItems: the campaign has no answer to bundle.
	ReasonNoItems verr.Reason = "no-bundled-items"
	// ReasonMalformedBundle: a bundle or map file does not decode strictly.
	ReasonMalformedBundle verr.Reason = "malformed-bundle"
	// ReasonNonCanonical: a bundle or map file is not in canonical form,
	// so its digest would not be the digest of its content.
	ReasonNonCanonical verr.Reason = "non-canonical-bytes"
	// ReasonDigestMismatch: a recorded digest does not match the content.
	ReasonDigestMismatch verr.Reason = "digest-mismatch"
	// ReasonGuidelinesMismatch: a bundle carries other rating guidelines
	// than the campaign binds.
	ReasonGuidelinesMismatch verr.Reason = "guidelines-mismatch"
	// ReasonMissingTask: a session names a task that was not loaded.
	ReasonMissingTask verr.Reason = "missing-task"
)

const ruleBlinding = "CONTRACT §5 (blinded quality review)"

// Bundle is bundle-<rater>.json: everything one rater sees. Items are in
// this rater's shuffled order.
type Bundle struct {
	// Notice is SyntheticNotice for a synthetic campaign, else empty.
	Notice string `json:"notice,omitempty"`
	// Format is BundleFormat.
	Format string `json:"format"`
	// Synthetic is the campaign's synthetic flag.
	Synthetic bool `json:"synthetic"`
	// Rater is the rater this bundle was shuffled for.
	Rater string `json:"rater"`
	// ShuffleSeed is the 64-hex-digit seed of this rater's item order:
	// SHA-256("verdict-shuffle-v1" 0x00 campaign-seed 0x00 rater).
	ShuffleSeed string `json:"shuffle_seed"`
	// MapCommitment is the SHA-256 (hex) of the sealed map file bytes.
	MapCommitment string `json:"map_commitment"`
	// ContentDigest is the SHA-256 (hex) of the canonical JSON array of the
	// items sorted by item ID; it is the same in every rater's bundle.
	ContentDigest string `json:"content_digest"`
	// ObligationsDigest is the SHA-256 (hex) of the canonical JSON array of
	// {"item","obligations"} sorted by item ID.
	ObligationsDigest string `json:"obligations_digest"`
	// Guidelines are the campaign's rating guidelines (campaign
	// GuidelinesFile, bound in its manifest), the same in every bundle;
	// empty when the campaign has none (the raters then see the built-in
	// codebook).
	Guidelines string `json:"guidelines,omitempty"`
	// Items are the bundled items in this rater's order.
	Items []Item `json:"items"`

	// parsedDigest is the SHA-256 of the canonical bytes ParseBundle read
	// (it checked they are canonical), so Digest need not encode again.
	parsedDigest string
}

// Item is one anonymised final answer with what a rater needs to grade it.
type Item struct {
	// ID is the opaque item ID "item-" + 16 hex digits (HMAC-SHA256 of the
	// session ID under the map key, truncated to 64 bits).
	ID string `json:"id"`
	// TaskText is the task's text (task.md).
	TaskText string `json:"task_text"`
	// Evidence are the packet's evidence items, in packet order.
	Evidence []Excerpt `json:"evidence"`
	// Obligations are the frozen truth obligations, in truth order.
	Obligations []Obligation `json:"obligations"`
	// Final is the final answer only (never the reconciliation).
	Final campaign.Final `json:"final"`
}

// Excerpt is one packet evidence item as shown to a rater.
type Excerpt struct {
	ID        string `json:"id"`
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Excerpt   string `json:"excerpt"`
}

// Obligation is one frozen truth obligation as shown to a rater: the
// whole truth obligation (campaign.TruthObligation, CONTRACT §3), with the
// same members and the same JSON, so that a bundle carries exactly what
// truth.json froze.
type Obligation = campaign.TruthObligation

// SealedMap is sealed-map.json, for the coordinator only: the secret item-ID
// key and, per item, the session, task, repetition and role it hides.
type SealedMap struct {
	Notice     string `json:"notice,omitempty"`
	Format     string `json:"format"`
	Synthetic  bool   `json:"synthetic"`
	CampaignID string `json:"campaign_id"`
	// ManifestSHA256 is the SHA-256 (64 lowercase hex digits) of the
	// campaign's manifest.json bytes at blinding. The manifest binds every
	// file of the campaign (receipts, responses, ledgers, packets, truth),
	// so the signed records that commit to this map (sheets, adjudication,
	// reveal) freeze the whole campaign before anyone is unblinded.
	ManifestSHA256 string `json:"manifest_sha256"`
	// Seed is the campaign seed the shuffles were derived from.
	Seed string `json:"seed"`
	// Key is the 32-byte HMAC-SHA256 item-ID key, hex.
	Key string `json:"key"`
	// Raters lists every bundle's rater and shuffle seed, sorted by rater.
	Raters []RaterSeed `json:"raters"`
	// Items maps each opaque item ID back, sorted by item ID.
	Items []MapItem `json:"items"`
}

// RaterSeed records one rater's shuffle seed.
type RaterSeed struct {
	Rater       string `json:"rater"`
	ShuffleSeed string `json:"shuffle_seed"`
}

// MapItem unblinds one item.
type MapItem struct {
	Item       string        `json:"item"`
	Task       string        `json:"task"`
	Repetition int           `json:"repetition"`
	Session    string        `json:"session"`
	Role       campaign.Role `json:"role"`
}

// Options configure Build.
type Options struct {
	// Raters are the rater names; empty means DefaultRaters.
	Raters []string
	// Key is the 32-byte item-ID key. It must be secret and random for a
	// real campaign (the CLI draws it from crypto/rand); tests and
	// fixtures pass a fixed key to get reproducible bytes.
	Key []byte
}

// Result is what Build produces: one bundle per rater (in Options.Raters
// order) with its canonical bytes, the sealed map with its bytes, and the
// leak-scan findings over every bundle.
type Result struct {
	Bundles []*Bundle
	// BundleBytes are the canonical bytes of each bundle; Derive leaves
	// them nil.
	BundleBytes [][]byte
	// BundleDigests are the SHA-256 (hex) of each bundle's canonical bytes,
	// in Bundles order; Derive leaves them nil (its bundles are never
	// encoded whole: Forms compares a file with them).
	BundleDigests []string
	// Forms describe each bundle's canonical bytes without holding them,
	// in Bundles order (BundleForm.Match compares a file with them).
	Forms    []*BundleForm
	Map      *SealedMap
	MapBytes []byte
	Findings []Finding
}

var raterRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// ParseRaters splits a comma-separated rater list and checks each name.
func ParseRaters(s string) ([]string, error) {
	var out []string
	for _, r := range strings.Split(s, ",") {
		r = strings.TrimSpace(r)
		if !raterRE.MatchString(r) {
			return nil, &verr.Error{Reason: ReasonBadRater, Rule: ruleBlinding,
				Detail: fmt.Sprintf("rater name %q must match [a-z0-9][a-z0-9._-]*", r)}
		}
		if slices.Contains(out, r) {
			return nil, &verr.Error{Reason: ReasonBadRater, Rule: ruleBlinding,
				Detail: fmt.Sprintf("rater %q listed twice", r)}
		}
		out = append(out, r)
	}
	return out, nil
}

// ItemID returns the opaque item ID of a session under key.
func ItemID(key []byte, session string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(session))
	return "item-" + hex.EncodeToString(m.Sum(nil)[:8])
}

// ShuffleSeed returns the deterministic per-rater shuffle seed.
func ShuffleSeed(campaignSeed, rater string) [32]byte {
	return sha256.Sum256([]byte("verdict-shuffle-v1\x00" + campaignSeed + "\x00" + rater))
}

// Bundled reports whether a session's answer goes into the bundles: a
// review (A or B) with a strictly decoded response. The shared draft D and
// answers scored automatically (Response == nil) are never bundled.
func Bundled(s *campaign.Session) bool {
	return (s.Role == campaign.RoleReviewA || s.Role == campaign.RoleReviewB) && s.Response != nil
}

// Build makes every rater's bundle and the sealed map of c, and scans the
// bundles for leaks with DefaultLeakTokens(c). Errors are *verr.Error
// with one of this package's reasons.
func Build(c *campaign.Campaign, opt Options) (*Result, error) {
	return build(c, opt, true, true)
}

// Derive builds the bundles and the sealed map of c again under the
// sealed map m's own item-ID key, for m's raters, without the leak scan
// (DESIGN Chain of custody: score derives every bundle item again from the
// campaign through the sealed map). A map whose key is not 64 hex digits
// gives ReasonBadKey. The caller compares the result with the map and the
// bundles it was given: any difference means they were not made from this
// campaign by this map. The bundles are never encoded whole (a bundle of
// 10,000 sessions is about 100 MB): Result.BundleBytes and
// Result.BundleDigests are nil, and Result.Forms compares a bundle file
// with each derived bundle (BundleForm.Match).
func Derive(c *campaign.Campaign, m *SealedMap) (*Result, error) {
	key, err := hex.DecodeString(m.Key)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonBadKey, Rule: ruleBlinding, Detail: "the sealed map's key is not hex"}
	}
	raters := make([]string, 0, len(m.Raters))
	for _, r := range m.Raters {
		raters = append(raters, r.Rater)
	}
	return build(c, Options{Key: key, Raters: raters}, false, false)
}

// build makes the bundles and the sealed map of c; scanLeaks adds the
// leak scan, keepBytes keeps each bundle's canonical bytes (else they are
// only hashed, streamed).
func build(c *campaign.Campaign, opt Options, scanLeaks, keepBytes bool) (*Result, error) {
	raters := opt.Raters
	if len(raters) == 0 {
		var err error
		if raters, err = ParseRaters(DefaultRaters); err != nil {
			return nil, err
		}
	} else {
		if _, err := ParseRaters(strings.Join(raters, ",")); err != nil {
			return nil, err
		}
	}
	if len(opt.Key) != 32 {
		return nil, &verr.Error{Reason: ReasonBadKey, Rule: ruleBlinding, Detail: fmt.Sprintf("item-ID key has %d bytes, want 32", len(opt.Key))}
	}
	if !isSHA256Hex(c.ManifestSHA256) {
		return nil, &verr.Error{Reason: campaign.ReasonDigestFormat, File: campaign.ManifestFile, Rule: ruleBlinding, Detail: "the campaign has no manifest.json SHA-256 to bind in the sealed map (load it from its files)"}
	}
	seed := c.Manifest.Seed
	if b, err := hex.DecodeString(seed); err != nil || len(b) != 32 {
		return nil, &verr.Error{Reason: ReasonBadSeed, File: campaign.ManifestFile, Pointer: "/seed", Rule: ruleBlinding, Detail: "campaign seed must be 64 hex digits"}
	}
	tasks := map[string]*campaign.Task{}
	for _, t := range c.Tasks {
		tasks[t.Entry.ID] = t
	}
	var items []Item
	var mapItems []MapItem
	seen := map[string]string{}
	// One task text, evidence list and obligation list per task, shared
	// by its items (never changed once built): a copy per item would hold
	// each of them once per session.
	shared := map[string]Item{}
	for _, s := range c.Sessions {
		if !Bundled(s) {
			continue
		}
		t := tasks[s.Run.Task]
		if t == nil {
			return nil, &verr.Error{Reason: ReasonMissingTask, File: campaign.ManifestFile, Rule: ruleBlinding, Detail: fmt.Sprintf("session %s names task %q that was not loaded", s.ID, s.Run.Task)}
		}
		id := ItemID(opt.Key, s.ID)
		if prev, ok := seen[id]; ok {
			return nil, &verr.Error{Reason: ReasonIDCollision, Rule: ruleBlinding, Detail: fmt.Sprintf("sessions %s and %s share item ID %s", prev, s.ID, id)}
		}
		seen[id] = s.ID
		it, ok := shared[t.Entry.ID]
		if !ok {
			it = taskItem(t)
			shared[t.Entry.ID] = it
		}
		it.ID, it.Final = id, s.Response.Final
		items = append(items, it)
		mapItems = append(mapItems, MapItem{Item: id, Task: t.Entry.ID, Repetition: s.Run.Repetition, Session: s.ID, Role: s.Role})
	}
	if len(items) == 0 {
		return nil, &verr.Error{Reason: ReasonNoItems, Rule: ruleBlinding, Detail: "no review answer with a decoded response"}
	}
	slices.SortFunc(items, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(mapItems, func(a, b MapItem) int { return strings.Compare(a.Item, b.Item) })

	m := &SealedMap{Format: SealedMapFormat, Synthetic: c.Manifest.Synthetic, CampaignID: c.Manifest.CampaignID,
		ManifestSHA256: c.ManifestSHA256, Seed: seed, Key: hex.EncodeToString(opt.Key), Items: mapItems}
	if m.Synthetic {
		m.Notice = SyntheticNotice
	}
	sortedRaters := slices.Clone(raters)
	slices.Sort(sortedRaters)
	for _, r := range sortedRaters {
		s := ShuffleSeed(seed, r)
		m.Raters = append(m.Raters, RaterSeed{Rater: r, ShuffleSeed: hex.EncodeToString(s[:])})
	}
	mapBytes, err := MarshalCanonical(m)
	if err != nil {
		return nil, err
	}
	// Each item is encoded once, for the content digest; the same encoding
	// gives its form inside every rater's bundle.
	forms := make([]itemForm, len(items))
	content, obligations, err := contentDigests(items, forms)
	if err != nil {
		return nil, err
	}
	res := &Result{Map: m, MapBytes: mapBytes}
	var scan *Scanner
	if scanLeaks {
		scan = NewScanner(DefaultLeakTokens(c))
	}
	for _, r := range raters {
		s := ShuffleSeed(seed, r)
		order := slices.Clone(items)
		perm := make([]int, len(items))
		for i := range perm {
			perm[i] = i
		}
		rng := rand.New(rand.NewChaCha8(s))
		rng.Shuffle(len(order), func(i, j int) {
			order[i], order[j] = order[j], order[i]
			perm[i], perm[j] = perm[j], perm[i]
		})
		b := &Bundle{Format: BundleFormat, Synthetic: c.Manifest.Synthetic, Rater: r,
			ShuffleSeed: hex.EncodeToString(s[:]), MapCommitment: Digest(mapBytes),
			ContentDigest: content, ObligationsDigest: obligations, Guidelines: string(c.Guidelines), Items: order}
		if b.Synthetic {
			b.Notice = SyntheticNotice
		}
		form, err := newBundleForm(b, forms, perm)
		if err != nil {
			return nil, err
		}
		res.Bundles = append(res.Bundles, b)
		res.Forms = append(res.Forms, form)
	}
	// Derive keeps the forms only; Build encodes each rater's bundle on
	// its own goroutine.
	if keepBytes {
		res.BundleDigests = make([]string, len(res.Bundles))
		res.BundleBytes = make([][]byte, len(res.Bundles))
		errs := make([]error, len(res.Bundles))
		var wg sync.WaitGroup
		for i, b := range res.Bundles {
			wg.Go(func() {
				res.BundleBytes[i], errs[i] = MarshalCanonical(b)
				res.BundleDigests[i] = Digest(res.BundleBytes[i])
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	if scan != nil {
		for _, found := range scan.ScanBundles(res.Bundles) {
			res.Findings = append(res.Findings, found...)
		}
	}
	return res, nil
}

// taskItem is an item of task t without its ID and final answer: the
// task's text, its packet's evidence items and its frozen obligations.
func taskItem(t *campaign.Task) Item {
	it := Item{TaskText: string(t.Text), Evidence: []Excerpt{}, Obligations: []Obligation{}}
	for _, e := range t.Packet.Items {
		it.Evidence = append(it.Evidence, Excerpt{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt})
	}
	it.Obligations = append(it.Obligations, t.Truth.Obligations...)
	return it
}

// contentDigests returns the content digest and the obligations digest of
// items (any order). When forms is not nil (len(items) long), it also
// fills forms[i] with the bundle form of the i-th item in ID order.
func contentDigests(items []Item, forms []itemForm) (content, obligations string, err error) {
	sorted := slices.Clone(items)
	slices.SortFunc(sorted, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	type itemObligations struct {
		Item        string       `json:"item"`
		Obligations []Obligation `json:"obligations"`
	}
	obs := make([]itemObligations, 0, len(sorted))
	for _, it := range sorted {
		obs = append(obs, itemObligations{it.ID, it.Obligations})
	}
	// Both digests are hashed while encoding, side by side: the canonical
	// bytes of every item of a large bundle are never held.
	var ce, oe error
	var wg sync.WaitGroup
	wg.Go(func() { obligations, oe = canonicalDigest(obs) })
	content, ce = itemsDigest(sorted, forms)
	wg.Wait()
	if ce != nil {
		return "", "", ce
	}
	if oe != nil {
		return "", "", oe
	}
	return content, obligations, nil
}

// itemsDigest is canonicalDigest(items) for a non-empty slice, with the
// items encoded side by side (GOMAXPROCS goroutines, a batch at a time)
// and hashed in order; when forms is not nil, forms[i] becomes the
// bundle form of items[i] (itemForm) from the same encoding. The
// canonical array is "[\n", then each item's
// canonical bytes indented by two spaces (JSON strings hold no raw line
// break), separated by ",\n", then "\n]\n". At most one batch of
// encoded items is held.
func itemsDigest(items []Item, forms []itemForm) (string, error) {
	if len(items) == 0 {
		return canonicalDigest(items)
	}
	const batch = 64
	tasks, err := encodeTaskMembers(items)
	if err != nil {
		return "", err
	}
	bufs := make([]bytes.Buffer, min(batch, len(items)))
	errs := make([]error, len(bufs))
	scratch := make([][]byte, par.Workers())
	h := sha256.New()
	w := bufio.NewWriterSize(h, 1<<16)
	w.WriteString("[\n")
	var line []byte
	for start := 0; start < len(items); start += batch {
		n := min(batch, len(items)-start)
		par.For(n, func(worker, k int) {
			bufs[k].Reset()
			errs[k] = encodeItem(&bufs[k], &items[start+k], tasks[taskKeyOf(&items[start+k])])
			if errs[k] == nil && forms != nil {
				scratch[worker] = bundleElement(scratch[worker][:0], bufs[k].Bytes())
				forms[start+k] = itemForm{n: len(scratch[worker]), sum: sha256.Sum256(scratch[worker])}
			}
		})
		for k := range n {
			if errs[k] != nil {
				return "", errs[k]
			}
			if start+k > 0 {
				w.WriteString(",\n")
			}
			w.WriteString("  ")
			line = indentLines(line[:0], bufs[k].Bytes(), "  ")
			w.Write(line)
		}
	}
	w.WriteString("\n]\n")
	if err := w.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// taskMembers are the members of an item that come from its task, in
// Item's order and with Item's tags: encoded once per task and shared by
// the encodings of its items (encodeItem).
type taskMembers struct {
	TaskText    string       `json:"task_text"`
	Evidence    []Excerpt    `json:"evidence"`
	Obligations []Obligation `json:"obligations"`
}

// taskKey identifies the task members an item shares with the other items
// of its task (the derivation builds one text, evidence list and
// obligation list per task, taskItem): the text, and each list by its
// first element and length (nil and empty lists apart). Items with equal
// keys have equal task members.
type taskKey struct {
	text  string
	ev    *Excerpt
	nEv   int
	evNil bool
	ob    *Obligation
	nOb   int
	obNil bool
}

func taskKeyOf(it *Item) taskKey {
	k := taskKey{text: it.TaskText, nEv: len(it.Evidence), evNil: it.Evidence == nil, nOb: len(it.Obligations), obNil: it.Obligations == nil}
	if len(it.Evidence) > 0 {
		k.ev = &it.Evidence[0]
	}
	if len(it.Obligations) > 0 {
		k.ob = &it.Obligations[0]
	}
	return k
}

// encodeTaskMembers encodes the task members of items once per distinct
// taskKey (side by side): the canonical encoding of taskMembers without
// its braces, the members one level deep as they stand inside an item.
func encodeTaskMembers(items []Item) (map[taskKey][]byte, error) {
	first := map[taskKey]int{}
	var keys []taskKey
	for i := range items {
		k := taskKeyOf(&items[i])
		if _, ok := first[k]; !ok {
			first[k] = i
			keys = append(keys, k)
		}
	}
	enc := make([][]byte, len(keys))
	errs := make([]error, len(keys))
	par.For(len(keys), func(_, j int) {
		it := &items[first[keys[j]]]
		var b bytes.Buffer
		if errs[j] = campaign.EncodeJSON(&b, &taskMembers{TaskText: it.TaskText, Evidence: it.Evidence, Obligations: it.Obligations}); errs[j] != nil {
			return
		}
		m, ok := bytes.CutPrefix(b.Bytes(), []byte("{\n"))
		m, ok2 := bytes.CutSuffix(m, []byte("\n}\n"))
		if !ok || !ok2 {
			errs[j] = errors.New("blinding: an item's task members do not encode as an object")
		}
		enc[j] = m
	})
	out := make(map[taskKey][]byte, len(keys))
	for j, k := range keys {
		if errs[j] != nil {
			return nil, errs[j]
		}
		out[k] = enc[j]
	}
	return out, nil
}

// encodeItem appends the canonical encoding of it (campaign.EncodeJSON's
// bytes) to w, with task, the members it shares with its task
// (encodeTaskMembers), spliced between its ID and its final answer instead
// of being encoded again: the task's text and evidence are over half of a
// bundle's bytes. The ID and the final answer are encoded into w itself
// (a caller reuses w from item to item). TestEncodeItemIsEncodeJSON holds
// it to the whole encoding.
func encodeItem(w *bytes.Buffer, it *Item, task []byte) error {
	w.WriteString("{\n  \"id\": ")
	if err := campaign.EncodeJSON(w, it.ID); err != nil {
		return err
	}
	w.Truncate(w.Len() - 1) // the encoding's final newline
	w.WriteString(",\n")
	w.Write(task)
	w.WriteString(",\n")
	// {"final": …} encoded whole ends as the item does ("\n}\n"); its
	// opening "{\n" is cut.
	at := w.Len()
	if err := campaign.EncodeJSON(w, &struct {
		Final campaign.Final `json:"final"`
	}{it.Final}); err != nil {
		return err
	}
	b := w.Bytes()
	if !bytes.HasPrefix(b[at:], []byte("{\n")) {
		return errors.New("blinding: an item's final answer does not encode as an object member")
	}
	n := copy(b[at:], b[at+2:])
	w.Truncate(at + n)
	return nil
}

// fileContentDigest is the content digest of items (contentDigests)
// computed from the bundle file's own bytes of each item (raw, in items'
// order, as decodeStrictBundle took them) instead of encoding the items
// again. It is only correct for a canonical file: ParseBundle checks that
// beside it and refuses otherwise. In the canonical form an item inside
// the bundle is indented one level deeper than in the canonical array of
// items the content digest covers, so every line of an item's bytes after
// the first loses two spaces (JSON strings hold no raw line break).
func fileContentDigest(items []Item, raw [][]byte) string {
	switch {
	case items == nil:
		return Digest([]byte("null\n"))
	case len(items) == 0:
		return Digest([]byte("[]\n"))
	}
	ids := make([]string, len(items))
	for i := range items {
		ids[i] = items[i].ID
	}
	return rawContentDigest(ids, raw)
}

// obligationsDigest is the obligations digest of items (any order).
func obligationsDigest(items []Item) (string, error) {
	type itemObligations struct {
		Item        string       `json:"item"`
		Obligations []Obligation `json:"obligations"`
	}
	obs := make([]itemObligations, 0, len(items))
	for _, i := range byID(len(items), func(i int) string { return items[i].ID }) {
		obs = append(obs, itemObligations{items[i].ID, items[i].Obligations})
	}
	return canonicalDigest(obs)
}

// byID is the positions 0 … n-1 ordered by the item ID at each (stable).
func byID(n int, id func(i int) string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(id(a), id(b)) })
	return order
}

// rawContentDigest is the content digest of a non-empty list of items
// from each item's bytes as they stand in a canonical bundle file (raw[i],
// from its '{' to its '}', of the item whose ID is ids[i]): the items in
// ID order, each outdented by the two spaces it stands deeper in the
// bundle than in the content array.
func rawContentDigest(ids []string, raw [][]byte) string {
	ch := sha256.New()
	cw := bufio.NewWriterSize(ch, 1<<16)
	cw.WriteString("[\n")
	var out []byte
	for k, i := range byID(len(ids), func(i int) string { return ids[i] }) {
		if k > 0 {
			cw.WriteString(",\n")
		}
		cw.WriteString("  ")
		out = outdented(out[:0], raw[i])
		cw.Write(out)
	}
	cw.WriteString("\n]\n")
	cw.Flush() // a hash takes every write
	return hex.EncodeToString(ch.Sum(nil))
}

// prescanItems finds the items of bundle bytes laid out canonically
// without decoding them: the ID and bytes (from '{' to '}') of each item,
// in file order. In the canonical layout the "items" member is the last,
// each item starts with the line "    {" and its "id" member and ends with
// the line "    }", and no other line is "    }" (a JSON string holds no
// raw line break). ok is false for any other layout (the file is then
// not canonical, which ParseBundle finds by itself).
func prescanItems(data []byte) (ids []string, raw [][]byte, ok bool) {
	open := []byte("\n  \"items\": [\n")
	at := bytes.Index(data, open)
	if at < 0 {
		return nil, nil, false
	}
	at += len(open)
	start := []byte("    {\n      \"id\": \"")
	for {
		if !bytes.HasPrefix(data[at:], start) {
			return nil, nil, false
		}
		idAt := at + len(start)
		n := bytes.IndexByte(data[idAt:], '"')
		end := bytes.Index(data[at:], []byte("\n    }"))
		if n < 0 || end < 0 {
			return nil, nil, false
		}
		end += at + len("\n    }")
		ids = append(ids, string(data[idAt:idAt+n]))
		raw = append(raw, data[at+4:end])
		switch rest := data[end:]; {
		case bytes.HasPrefix(rest, []byte(",\n")):
			at = end + 2
		case bytes.Equal(rest, []byte(itemsClose)):
			return ids, raw, true
		default:
			return nil, nil, false
		}
	}
}

// sameSpans reports whether raw (the decoder's item bytes) are exactly the
// spans of data that prescanItems found, for the same item IDs.
func sameSpans(data []byte, preIDs []string, pre, raw [][]byte, items []Item) bool {
	if len(pre) != len(raw) || len(preIDs) != len(items) || len(raw) != len(items) {
		return false
	}
	for i := range raw {
		if len(pre[i]) != len(raw[i]) || offsetIn(data, pre[i]) != offsetIn(data, raw[i]) || preIDs[i] != items[i].ID {
			return false
		}
	}
	return true
}

// outdented appends to dst raw with two spaces removed after every line
// break.
func outdented(dst, raw []byte) []byte {
	for {
		i := bytes.Index(raw, []byte("\n  "))
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i+1]...)
		raw = raw[i+3:]
	}
}

// plainItem is Item without decodeStrictBundle's unmarshaler (the same
// members and tags).
type plainItem Item

// decodeStrictBundle is DecodeStrict of a bundle file that also returns
// the file's bytes of each item (from its '{' to its '}'), in file order,
// taken as the decoder passes them: one pass gives the decoded bundle and
// the bytes its content digest is computed from. onItem, when not nil, is
// called with each item and its bytes as soon as the item is decoded.
func decodeStrictBundle(file string, data []byte, onItem func(it *Item, raw []byte)) (*Bundle, [][]byte, error) {
	var b Bundle
	var raw [][]byte
	take := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, it *Item) error {
		start := dec.InputOffset()
		if err := jsonv2.UnmarshalDecode(dec, (*plainItem)(it)); err != nil {
			return err
		}
		r := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
		raw = append(raw, r)
		if onItem != nil {
			onItem(it, r)
		}
		return nil
	})
	if err := jsonv2.Unmarshal(data, &b, jsonv2.RejectUnknownMembers(true), jsonv2.WithUnmarshalers(take)); err != nil {
		return nil, nil, &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	if len(raw) != len(b.Items) {
		return nil, nil, verr.Newf(ReasonMalformedBundle, file, "/items", "strict JSON", "%d items decoded from %d item values", len(b.Items), len(raw))
	}
	return &b, raw, nil
}

// canonicalDigest is Digest(MarshalCanonical(v)) computed while encoding.
func canonicalDigest(v any) (string, error) {
	h := sha256.New()
	bw := bufio.NewWriterSize(h, 1<<16)
	if err := streamCanonical(bw, v); err != nil {
		return "", err
	}
	if err := bw.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Digest returns the lowercase hex SHA-256 of b.
func Digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// MarshalCanonical returns the canonical bytes of v: encoding/json with
// struct fields in declaration order, two-space indentation, no HTML
// escaping and one final newline. The same value always gives the same
// bytes; every digest of this package and of adjudication is over them.
func MarshalCanonical(v any) ([]byte, error) { return campaign.MarshalJSON(v) }

// streamCanonical writes the same bytes as encodeCanonical, streamed: the
// encoder flushes to w as it goes instead of building the whole text (and
// its indented copy) in memory. It is encoding/json's semantics as
// go-json-experiment states them (jsonv1.DefaultOptionsV1) with HTML
// escaping off and two-space indentation, and one final newline.
func streamCanonical(w io.Writer, v any) error { return campaign.EncodeJSON(w, v) }

// compareWriter consumes want as bytes are written and records whether
// the written bytes differ from its prefix; after the last write the two
// are equal when differ is false and want is empty.
type compareWriter struct {
	want   []byte
	differ bool
}

func (c *compareWriter) Write(p []byte) (int, error) {
	if !c.differ {
		if len(p) > len(c.want) || !bytes.Equal(p, c.want[:len(p)]) {
			c.differ = true
		} else {
			c.want = c.want[len(p):]
		}
	}
	return len(p), nil
}

// UnmarshalStrict decodes data into v refusing duplicate keys, unknown keys
// and invalid UTF-8, then checks that data is canonical (MarshalCanonical
// of the decoded value gives the same bytes). file names the input in
// errors (ReasonMalformedBundle, ReasonNonCanonical). opts add decoding
// options (such as a caller's reservation of a large slice); they cannot
// loosen the strict decoding.
func UnmarshalStrict(file string, data []byte, v any, opts ...jsonv2.Options) error {
	if err := DecodeStrict(file, data, v, opts...); err != nil {
		return err
	}
	return checkCanonical(file, data, v)
}

// checkCanonical refuses data unless it is the canonical encoding of v
// (ReasonNonCanonical).
func checkCanonical(file string, data []byte, v any) error {
	// Compare while encoding: the canonical bytes are never held whole
	// (a rating sheet of 10,000 sessions is tens of megabytes).
	cmp := &compareWriter{want: data}
	if err := streamCanonical(cmp, v); err != nil {
		return err
	}
	if cmp.differ || len(cmp.want) != 0 {
		return &verr.Error{Reason: ReasonNonCanonical, File: file, Rule: "canonical JSON",
			Detail: "file is not in canonical form (re-encoded bytes differ); it was edited or reformatted"}
	}
	return nil
}

// DecodeStrict decodes JSON data into v refusing duplicate keys, unknown
// keys and invalid UTF-8 (ReasonMalformedBundle naming file); unlike
// UnmarshalStrict it accepts any formatting. opts are as UnmarshalStrict's.
func DecodeStrict(file string, data []byte, v any, opts ...jsonv2.Options) error {
	if err := jsonv2.Unmarshal(data, v, append(opts, jsonv2.RejectUnknownMembers(true))...); err != nil {
		return &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	return nil
}

// ParseBundle strictly decodes canonical bundle bytes and checks the
// recorded content and obligations digests against the items. Beside the
// decode run the file's digest, the content digest over the file's own
// bytes of each item (found by their canonical layout, prescanItems, and
// used only when the decoder passed the same items at the same bytes),
// and the canonical form of each item as soon as it is decoded
// (itemsCanonical); the bytes around the items are compared after
// (checkCanonicalBundle). Refusals, in this order: ReasonMalformedBundle
// (not strict JSON, or another format), ReasonNonCanonical,
// ReasonDigestMismatch.
func ParseBundle(file string, data []byte) (*Bundle, error) {
	var fileDigest string
	var wg sync.WaitGroup
	wg.Go(func() { fileDigest = Digest(data) })
	// Each item is checked against its canonical encoding on another
	// goroutine as soon as the decoder has passed it.
	// The content digest is hashed from the file's bytes of each item,
	// found by their canonical layout, beside the decode.
	var preIDs []string
	var preRaw [][]byte
	var preOK bool
	var preContent string
	wg.Go(func() {
		if preIDs, preRaw, preOK = prescanItems(data); preOK {
			preContent = rawContentDigest(preIDs, preRaw)
		}
	})
	items := make(chan checkedItem, 64)
	var canonItems bool
	wg.Go(func() { canonItems = itemsCanonical(items) })
	b, raw, err := decodeStrictBundle(file, data, func(it *Item, r []byte) { items <- checkedItem{*it, r} })
	close(items)
	if err == nil && b.Format != BundleFormat {
		err = verr.Newf(ReasonMalformedBundle, file, "/format", ruleBlinding, "format %q, want %q", b.Format, BundleFormat)
	}
	var c, o string
	var canonErr, digestErr error
	if err == nil {
		o, digestErr = obligationsDigest(b.Items)
	}
	wg.Wait()
	if err == nil {
		canonErr = checkCanonicalBundle(file, data, b, raw, canonItems)
	}
	if err == nil && canonErr == nil && digestErr == nil {
		// The content digest hashed beside the decode is the items' when
		// the decoder found the same items at the same bytes.
		c = preContent
		if !preOK || !sameSpans(data, preIDs, preRaw, raw, b.Items) {
			c = fileContentDigest(b.Items, raw)
		}
	}
	for _, e := range []error{err, canonErr, digestErr} {
		if e != nil {
			return nil, e
		}
	}
	if c != b.ContentDigest {
		return nil, &verr.Error{Reason: ReasonDigestMismatch, File: file, Pointer: "/content_digest", Rule: ruleBlinding, Detail: "content digest does not match the items"}
	}
	if o != b.ObligationsDigest {
		return nil, &verr.Error{Reason: ReasonDigestMismatch, File: file, Pointer: "/obligations_digest", Rule: ruleBlinding, Detail: "obligations digest does not match the items"}
	}
	b.parsedDigest = fileDigest
	return b, nil
}

// checkedItem is one decoded item of a bundle file with the file's bytes
// of it (from its '{' to its '}').
type checkedItem struct {
	item Item
	raw  []byte
}

// itemsCanonical reports whether every item received is, byte for byte,
// its canonical encoding as it stands in a bundle (bundleElement). It
// encodes until the first item that is not, then only drains items.
func itemsCanonical(items <-chan checkedItem) bool {
	ok := true
	var enc bytes.Buffer
	var elem []byte
	for ci := range items {
		if !ok {
			continue
		}
		enc.Reset()
		if err := campaign.EncodeJSON(&enc, &ci.item); err != nil {
			ok = false
			continue
		}
		elem = bundleElement(elem[:0], enc.Bytes())
		ok = bytes.Equal(elem, ci.raw)
	}
	return ok
}

// checkCanonicalBundle refuses data unless it is the canonical encoding of
// b (ReasonNonCanonical, as checkCanonical). raw are the file's bytes of
// b's items, each already compared with its canonical encoding
// (itemsOK): what is left to compare is the rest of the file, the bytes
// before, between and after the items. A bundle without items is compared
// whole.
func checkCanonicalBundle(file string, data []byte, b *Bundle, raw [][]byte, itemsOK bool) error {
	if len(b.Items) == 0 {
		return checkCanonical(file, data, b)
	}
	refuse := &verr.Error{Reason: ReasonNonCanonical, File: file, Rule: "canonical JSON",
		Detail: "file is not in canonical form (re-encoded bytes differ); it was edited or reformatted"}
	if !itemsOK {
		return refuse
	}
	hdr := *b
	hdr.Items = []Item{}
	head, err := MarshalCanonical(&hdr)
	if err != nil {
		return err
	}
	head, ok := bytes.CutSuffix(head, []byte(itemsEmpty))
	if !ok {
		return checkCanonical(file, data, b)
	}
	// at is the offset in data of the bytes compared next.
	at := 0
	expect := func(want []byte, end int) bool {
		ok := end-at == len(want) && bytes.Equal(data[at:end], want)
		at = end
		return ok
	}
	for i, r := range raw {
		start := offsetIn(data, r)
		sep := []byte(itemsSep)
		if i == 0 {
			sep = append(head, itemsOpen...)
		}
		if start < at || !expect(sep, start) {
			return refuse
		}
		at = start + len(r)
	}
	if !expect([]byte(itemsClose), len(data)) {
		return refuse
	}
	return nil
}

// offsetIn is the offset of sub, a subslice of data (data[a:b] with b >
// a), in data: a, as the capacities tell it.
func offsetIn(data, sub []byte) int {
	return cap(data) - cap(sub)
}

// LoadBundle reads and parses a bundle file; it returns the bundle and its
// digest (SHA-256 of the file bytes).
func LoadBundle(path string) (*Bundle, string, error) {
	data, err := campaign.ReadRegular(path, campaign.FileBundle)
	if err != nil {
		return nil, "", err
	}
	b, err := ParseBundle(path, data)
	if err != nil {
		return nil, "", err
	}
	return b, b.parsedDigest, nil
}

// ParseSealedMap strictly decodes canonical sealed-map bytes: unknown or
// duplicate members and non-canonical bytes are refused
// (ReasonMalformedBundle, ReasonNonCanonical), as are a format other than
// SealedMapFormat and a manifest_sha256 that is not 64 lowercase hex
// digits (campaign.ReasonDigestFormat; a map written before the member
// existed has none).
func ParseSealedMap(file string, data []byte) (*SealedMap, error) {
	var m SealedMap
	if err := DecodeStrict(file, data, &m); err != nil {
		return nil, err
	}
	if m.Format != SealedMapFormat {
		return nil, verr.Newf(ReasonMalformedBundle, file, "/format", ruleBlinding, "format %q, want %q", m.Format, SealedMapFormat)
	}
	if !isSHA256Hex(m.ManifestSHA256) {
		return nil, verr.Newf(campaign.ReasonDigestFormat, file, "/manifest_sha256", ruleBlinding, "manifest_sha256 %q is not 64 lowercase hex digits (a sealed map binds the campaign's manifest.json at blinding; blind the campaign again)", m.ManifestSHA256)
	}
	if err := checkCanonical(file, data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// isSHA256Hex reports whether s is 64 lowercase hex digits.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// Digest returns the bundle digest: SHA-256 of the canonical bundle bytes.
func (b *Bundle) Digest() (string, error) {
	if b.parsedDigest != "" {
		return b.parsedDigest, nil
	}
	data, err := MarshalCanonical(b)
	if err != nil {
		return "", err
	}
	return Digest(data), nil
}

// Item returns the item with the given opaque ID, or nil.
func (b *Bundle) Item(id string) *Item {
	for i := range b.Items {
		if b.Items[i].ID == id {
			return &b.Items[i]
		}
	}
	return nil
}
