package blinding

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"verdict/campaign"
	"verdict/verr"
)

// Build makes every rater's bundle and the sealed map of c, and scans the
// bundles for leaks with DefaultLeakTokens(c). Errors are *verr.Error
// with one of this package's reasons.
func Build(c *campaign.Campaign, opt Options) (*Result, error) {
	return build(FixedSource(c), opt, true, true)
}

// BuildSource is Build of a blinding source of either design (FixedSource,
// SystemSource), its leak scan with the source's tokens.
func BuildSource(src *Source, opt Options) (*Result, error) { return build(src, opt, true, true) }

// DeriveSource is Derive of a blinding source of either design.
func DeriveSource(src *Source, m *SealedMap) (*Result, error) {
	key, err := hex.DecodeString(m.Key)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonBadKey, Rule: ruleBlinding, Detail: "the sealed map's key is not hex"}
	}
	raters := make([]string, 0, len(m.Raters))
	for _, r := range m.Raters {
		raters = append(raters, r.Rater)
	}
	return build(src, Options{Key: key, Raters: raters}, false, false)
}

// Source is the campaign side of a blinding, the same for both designs:
// the manifest's identity, seed and guidelines, the bundled answers in
// session order, one item template per task (task text, evidence shown,
// obligations; no ID, no final) and the leak tokens.
type Source struct {
	Synthetic      bool
	CampaignID     string
	ManifestSHA256 string
	// Seed is the manifest's 64-hex-digit campaign seed.
	Seed string
	// Guidelines are the campaign's rating guidelines ("" for none).
	Guidelines string
	// Tasks maps a task ID to its item template.
	Tasks map[string]Item
	// Answers are the bundled answers in session order.
	Answers []Answer
	// LeakTokens gives the leak scan's tokens (called only by a scan).
	LeakTokens func() []string
	// Design is written in every bundle of a system comparison
	// (Bundle.Design); empty for a fixed-evidence campaign.
	Design campaign.Design
}

// Answer is one bundled final answer of a Source.
type Answer struct {
	Session    string
	Task       string
	Repetition int
	Role       campaign.Role
	// Final is a copy of the answer's final part (its own value, so a
	// Source holds no session's response, receipt or ledger).
	Final *campaign.Final
	// EndedUTC is the session receipt's ended_utc (RFC 3339), "" when the
	// receipt records none: every signed record over the answer is dated
	// after the latest (DESIGN Chain of custody).
	EndedUTC string
}

// answerOf is the Answer of one bundled session: its final part copied
// and its receipt's ended_utc, if any.
func answerOf(session, task string, rep int, role campaign.Role, resp *campaign.Response, rc *campaign.Receipt) Answer {
	final := resp.Final
	a := Answer{Session: session, Task: task, Repetition: rep, Role: role, Final: &final}
	if rc != nil && rc.EndedUTC != nil {
		a.EndedUTC = *rc.EndedUTC
	}
	return a
}

// FixedSource is the blinding source of a fixed-evidence campaign
// (CONTRACT §5): every review answer with a decoded response (Bundled),
// each task's text, packet evidence and obligations, DefaultLeakTokens.
func FixedSource(c *campaign.Campaign) *Source {
	src := &Source{Synthetic: c.Manifest.Synthetic, CampaignID: c.Manifest.CampaignID, ManifestSHA256: c.ManifestSHA256,
		Seed: c.Manifest.Seed, Guidelines: string(c.Guidelines), Tasks: map[string]Item{},
		LeakTokens: func() []string { return DefaultLeakTokens(c) }}
	for _, t := range c.Tasks {
		src.Tasks[t.Entry.ID] = taskItem(t)
	}
	for _, s := range c.Sessions {
		if Bundled(s) {
			src.Answers = append(src.Answers, answerOf(s.ID, s.Run.Task, s.Run.Repetition, s.Role, s.Response, s.Receipt))
		}
	}
	return src
}

// SystemSource is the blinding source of a system comparison (CONTRACT
// §6): every review with a decoded answer, each item the task's text and
// its obligations (the repository-answerable ones and the U set,
// SystemTruth.TruthObligations) and no evidence at all, since a
// raw-observation packet would name the system's tools and packet kind;
// the leak scan's tokens are SystemLeakTokens (the provider vocabulary).
// A system comparison has no rating guidelines file: the raters use the
// built-in codebook.
func SystemSource(c *campaign.SystemCampaign) *Source {
	src := &Source{Synthetic: c.Manifest.Synthetic, CampaignID: c.Manifest.CampaignID, ManifestSHA256: c.ManifestSHA256,
		Seed: c.Manifest.Seed, Tasks: map[string]Item{}, LeakTokens: func() []string { return SystemLeakTokens(&c.Manifest) },
		Design: campaign.DesignSystemComparison}
	for _, t := range c.Tasks {
		src.Tasks[t.Entry.ID] = Item{TaskText: string(t.Text), Evidence: []Excerpt{}, Obligations: t.Truth.TruthObligations()}
	}
	for _, w := range c.Workflows {
		if r := w.Review.Response; campaign.Answered(w.Review.Receipt.Inner(), r) {
			var rc *campaign.Receipt
			if w.Review.Receipt != nil {
				rc = &w.Review.Receipt.Receipt
			}
			src.Answers = append(src.Answers, answerOf(w.Review.ID, w.Workflow.Task, w.Workflow.Repetition, campaign.RoleReview, r, rc))
		}
	}
	return src
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
	return DeriveSource(FixedSource(c), m)
}

// build makes the bundles and the sealed map of c; scanLeaks adds the
// leak scan, keepBytes keeps each bundle's canonical bytes (else they are
// only hashed, streamed).
func build(c *Source, opt Options, scanLeaks, keepBytes bool) (*Result, error) {
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
	seed := c.Seed
	if b, err := hex.DecodeString(seed); err != nil || len(b) != 32 {
		return nil, &verr.Error{Reason: ReasonBadSeed, File: campaign.ManifestFile, Pointer: "/seed", Rule: ruleBlinding, Detail: "campaign seed must be 64 hex digits"}
	}
	var items []Item
	var mapItems []MapItem
	seen := map[string]string{}
	// One task text, evidence list and obligation list per task (the
	// source's template), shared by its items (never changed once built):
	// a copy per item would hold each of them once per session.
	for _, s := range c.Answers {
		it, ok := c.Tasks[s.Task]
		if !ok {
			return nil, &verr.Error{Reason: ReasonMissingTask, File: campaign.ManifestFile, Rule: ruleBlinding, Detail: fmt.Sprintf("session %s names task %q that was not loaded", s.Session, s.Task)}
		}
		id := ItemID(opt.Key, s.Session)
		if prev, ok := seen[id]; ok {
			return nil, &verr.Error{Reason: ReasonIDCollision, Rule: ruleBlinding, Detail: fmt.Sprintf("sessions %s and %s share item ID %s", prev, s.Session, id)}
		}
		seen[id] = s.Session
		it.ID, it.Final = id, *s.Final
		items = append(items, it)
		mapItems = append(mapItems, MapItem{Item: id, Task: s.Task, Repetition: s.Repetition, Session: s.Session, Role: s.Role})
	}
	if len(items) == 0 {
		return nil, &verr.Error{Reason: ReasonNoItems, Rule: ruleBlinding, Detail: "no review answer with a decoded response"}
	}
	slices.SortFunc(items, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(mapItems, func(a, b MapItem) int { return strings.Compare(a.Item, b.Item) })

	m := &SealedMap{Format: SealedMapFormat, Synthetic: c.Synthetic, CampaignID: c.CampaignID,
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
		scan = NewScanner(c.LeakTokens())
	}
	for _, r := range raters {
		s := ShuffleSeed(seed, r)
		perm := make([]int, len(items))
		for i := range perm {
			perm[i] = i
		}
		// The shuffle permutes indices; the items are copied once into
		// the order it gives.
		rng := rand.New(rand.NewChaCha8(s))
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		order := make([]Item, len(items))
		for k, i := range perm {
			order[k] = items[i]
		}
		b := &Bundle{Format: BundleFormat, Design: c.Design, Synthetic: c.Synthetic, Rater: r,
			ShuffleSeed: hex.EncodeToString(s[:]), MapCommitment: Digest(mapBytes),
			ContentDigest: content, ObligationsDigest: obligations, Guidelines: c.Guidelines, Items: order}
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
