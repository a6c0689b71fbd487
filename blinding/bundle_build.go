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
