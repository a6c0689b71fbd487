package pipeline

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// Reason codes of the chain-of-custody checks of Score (DESIGN "Chain of
// custody").
const (
	// ReasonMapMismatch: the sealed map does not bind the items the
	// campaign derives under the map's own key (an item bound to another
	// session, role, task or repetition, an item added or missing).
	ReasonMapMismatch verr.Reason = "map-mismatch"
	// ReasonCampaignChanged: the campaign's manifest.json is not the one
	// the sealed map bound at blinding (blinding.SealedMap.ManifestSHA256),
	// so the campaign, or a file its manifest binds (a receipt, response,
	// ledger, packet or truth), changed after blinding.
	ReasonCampaignChanged verr.Reason = "campaign-changed-after-blinding"
	// ReasonMapOtherCampaign: the sealed map names another campaign_id
	// than the campaign's manifest.json: it was made from another campaign.
	ReasonMapOtherCampaign verr.Reason = "map-other-campaign"
	// ReasonBundleItemMismatch: a bundle is not, byte for byte, the bundle
	// the campaign derives through the sealed map for its rater (an item's
	// task text, evidence, obligations or final answer differs, or the
	// rater's order).
	ReasonBundleItemMismatch verr.Reason = "bundle-item-mismatch"
	// ReasonBundleMissing: a rater of the sealed map has no bundle in the
	// ratings directory; score needs every bundle (the sheet binding and
	// the leak scan are checked on them).
	ReasonBundleMissing verr.Reason = "bundle-missing"
	// ReasonBundleUnknown: a bundle in the ratings directory is for a rater
	// the sealed map does not name.
	ReasonBundleUnknown verr.Reason = "bundle-unknown"
)

const ruleCustody = "DESIGN Chain of custody: score derives every bundle item again from the campaign through the sealed map"

// derivation is what Score keeps of the blinding derived again from the
// campaign: for each rater the form of the derived bundle's bytes
// (blinding.BundleForm), its header members (Items nil) and its leak
// findings, and each bundle's item IDs in order, to name the first
// differing item of a bundle that is not the derived one.
type derivation struct {
	forms    []*blinding.BundleForm        // one per rater, in rater order
	header   map[string]*blinding.Bundle   // rater -> derived bundle without its items
	findings map[string][]blinding.Finding // rater -> leak findings of the derived bundle
	order    map[string][]string           // rater -> item IDs in the rater's order
	// fields are the gradable fields of each bundle file read that is a
	// derived bundle, by its SHA-256 (adjudication.FieldSet: a sheet is
	// checked against them); every derived bundle shares allFields.
	fields    map[string]*adjudication.FieldSet
	allFields *adjudication.FieldSet
	// load loads the campaign's blinding source again, for refuseBundle
	// to derive the items once more and name the first differing one (the
	// accepted path never needs them item by item).
	load   func() (*blinding.Source, error)
	sealed *blinding.SealedMap
	// lastEnd is the latest receipt end of the sessions the sealed map's
	// items bind (the rated sessions): every sheet is dated after it.
	lastEnd adjudication.SessionEnd
}

// deriveCustody derives the blinding of src (the campaign's blinding
// source, of either design: scorer.Design.Blinding) again under the
// sealed map in mapBytes (blinding.DeriveSource) and refuses a map that
// differs from the derived one: ReasonCampaignChanged when the campaign's
// manifest.json is not the one the map bound at blinding, else
// ReasonMapMismatch naming the first differing item. The
// derived bundles are scanned for leaks with scan (blinding.ScanBundles,
// on their typed items, each item once): a bundle file accepted later is
// byte for byte a derived bundle, so these are its findings.
// load makes the source again (from the same files) when a bundle is
// refused. The rated sessions' last end is RatedEnd(src), from the ends
// src's answers carry (blinding.Answer.EndedUTC), which a source detached
// from its campaign keeps.
func deriveCustody(src *blinding.Source, load func() (*blinding.Source, error), mapPath string, mapBytes []byte, scan *blinding.Scanner) (*derivation, error) {
	sealed, err := blinding.ParseSealedMap(mapPath, mapBytes)
	if err != nil {
		return nil, err
	}
	if err := CampaignUnchanged(src, mapPath, sealed); err != nil {
		return nil, err
	}
	res, err := blinding.DeriveSource(src, sealed)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(res.MapBytes, mapBytes) {
		return nil, mapDifference(mapPath, sealed, res.Map)
	}
	d := &derivation{forms: res.Forms, header: map[string]*blinding.Bundle{},
		findings: map[string][]blinding.Finding{}, order: map[string][]string{}, fields: map[string]*adjudication.FieldSet{}, load: load, sealed: sealed}
	d.lastEnd = RatedEnd(src)
	// Every derived bundle holds the same items (in its rater's order), so
	// they share one field set, made while the bundles are scanned.
	var wg sync.WaitGroup
	if len(res.Bundles) > 0 {
		wg.Go(func() { d.allFields = adjudication.NewFieldSet(res.Bundles[0]) })
	}
	found := scan.ScanBundles(res.Bundles)
	wg.Wait()
	for i, b := range res.Bundles {
		d.findings[b.Rater] = found[i]
		hdr := *b
		hdr.Items = nil
		d.header[b.Rater] = &hdr
		for _, it := range b.Items {
			d.order[b.Rater] = append(d.order[b.Rater], it.ID)
		}
	}
	return d, nil
}

// CampaignUnchanged refuses a campaign, given by its blinding source src
// (either design), that is not the one the sealed map m (read from
// mapFile) was made from: another campaign_id (ReasonMapOtherCampaign),
// or manifest.json bytes other than the ones m bound at blinding
// (ReasonCampaignChanged). The manifest binds every campaign file, so a
// receipt, response, ledger, packet or system map edited and re-bound
// after blinding changes it.
func CampaignUnchanged(src *blinding.Source, mapFile string, m *blinding.SealedMap) error {
	return mapBindsManifest(mapFile, m, src.CampaignID, src.ManifestSHA256)
}

// MapOfCampaign is CampaignUnchanged for the campaign in fsys as its
// manifest.json is now, without loading the campaign: it reads and hashes
// manifest.json and reads its campaign_id. An unreadable manifest is
// campaign.ReasonFileMissing.
func MapOfCampaign(fsys fs.FS, mapFile string, m *blinding.SealedMap) error {
	raw, err := fs.ReadFile(fsys, campaign.ManifestFile)
	if err != nil {
		return &verr.Error{Reason: campaign.ReasonFileMissing, File: campaign.ManifestFile, Rule: ruleCustody, Detail: "cannot read the manifest: " + err.Error(), Err: err}
	}
	var id struct {
		CampaignID string `json:"campaign_id"`
	}
	// A manifest that does not decode keeps an empty campaign_id: the
	// digest comparison still decides.
	_ = json.Unmarshal(raw, &id)
	sum := sha256.Sum256(raw)
	return mapBindsManifest(mapFile, m, id.CampaignID, hex.EncodeToString(sum[:]))
}

// mapBindsManifest compares the sealed map m (from mapFile) with a
// campaign's campaign_id and manifest.json SHA-256.
func mapBindsManifest(mapFile string, m *blinding.SealedMap, campaignID, manifestSHA256 string) error {
	if m.CampaignID != campaignID {
		return verr.Newf(ReasonMapOtherCampaign, mapFile, "/campaign_id", ruleCustody,
			"the sealed map was made from campaign %q, not from this campaign (%s names %q)", m.CampaignID, campaign.ManifestFile, campaignID)
	}
	if m.ManifestSHA256 == manifestSHA256 {
		return nil
	}
	return verr.Newf(ReasonCampaignChanged, campaign.ManifestFile, "", ruleCustody,
		"the campaign changed after blinding: its %s hashes to %s, but the sealed map %s (which the signed sheets, adjudication and reveal commit to) bound %s at blinding; a receipt, response, ledger, packet or other file the manifest binds was edited and re-bound, or the manifest itself was edited",
		campaign.ManifestFile, manifestSHA256, mapFile, m.ManifestSHA256)
}

// itemDigests derives the blinding again from the campaign loaded anew
// and returns each derived item's canonical digest by item ID.
func (d *derivation) itemDigests() (map[string]string, error) {
	src, err := d.load()
	if err != nil {
		return nil, err
	}
	res, err := blinding.DeriveSource(src, d.sealed)
	if err != nil {
		return nil, err
	}
	items := map[string]string{}
	for _, b := range res.Bundles {
		for i := range b.Items {
			if _, ok := items[b.Items[i].ID]; !ok {
				h, err := blinding.ItemDigest(&b.Items[i])
				if err != nil {
					return nil, err
				}
				items[b.Items[i].ID] = h
			}
		}
	}
	return items, nil
}

// mapDifference names the first difference between the sealed map given
// and the one derived from the campaign.
func mapDifference(file string, given, derived *blinding.SealedMap) error {
	n := max(len(given.Items), len(derived.Items))
	for i := range n {
		switch {
		case i >= len(given.Items):
			return verr.Newf(ReasonMapMismatch, file, "/items", ruleCustody, "the campaign derives item %s (session %s), which the map does not bind", derived.Items[i].Item, derived.Items[i].Session)
		case i >= len(derived.Items):
			return verr.Newf(ReasonMapMismatch, file, fmt.Sprintf("/items/%d", i), ruleCustody, "item %s is not derived from the campaign under the map's key", given.Items[i].Item)
		case given.Items[i] != derived.Items[i]:
			g, d := given.Items[i], derived.Items[i]
			return verr.Newf(ReasonMapMismatch, file, fmt.Sprintf("/items/%d", i), ruleCustody, "item %s: the map binds %s %s %s r%d; the campaign derives %s %s %s r%d under the map's key",
				g.Item, g.Session, g.Role, g.Task, g.Repetition, d.Session, d.Role, d.Task, d.Repetition)
		}
	}
	return &verr.Error{Reason: ReasonMapMismatch, File: file, Rule: ruleCustody,
		Detail: "the map's items are the derived ones but its other members (campaign, seed, raters, notice) differ from the map derived from the campaign"}
}

// bundleMatch is what matchBundle finds of one bundle file: the derived
// bundle's header (its items nil) and the file's SHA-256 when the file is
// that bundle byte for byte, header nil when it is no derived bundle, or
// the error that kept it from being read.
type bundleMatch struct {
	header *blinding.Bundle
	digest string
	err    error
}

// matchBundle compares the bundle file at path with each derived bundle
// (blinding.BundleForm.Match, one streamed pass; a file for another rater
// differs within its first bytes). A file that matches is the derived
// bundle: its items are the derived items, already scanned for leaks. It
// changes nothing in d (several files are matched at once).
func (d *derivation) matchBundle(path string) bundleMatch {
	for _, form := range d.forms {
		f, err := campaign.OpenRegular(path, campaign.FileBundle)
		if err != nil {
			return bundleMatch{err: err}
		}
		digest, same, err := form.Match(f)
		f.Close()
		if err != nil {
			return bundleMatch{err: err}
		}
		if same {
			return bundleMatch{header: d.header[form.Rater], digest: digest}
		}
	}
	return bundleMatch{}
}

// Item verdicts of refuseBundle, in the order they are reported.
const (
	itemDerived      = iota // the derived item, in canonical form
	itemUndecodable         // not a bundle item (blinding.DecodeStrict)
	itemDiffers             // another value than the derived item of its ID, or an ID not derived
	itemNonCanonical        // the derived item's value in other bytes
)

// seenItem is what refuseBundle keeps of one item of a refused bundle.
type seenItem struct {
	id      string
	verdict int
}

// refuseBundle reads the bundle file at path, which is not a derived
// bundle, as a stream (blinding.ReadBundleItems), comparing each item with
// the derived one as it is read, so that a forged bundle is refused in
// memory bounded by its largest item (and a few bytes per item). The
// refusal is, in this order: a malformed bundle, other guidelines than the
// campaign's (blinding.ReasonGuidelinesMismatch), a rater the sealed map
// does not name (ReasonBundleUnknown), or ReasonBundleItemMismatch naming
// the first item that differs from the derived one, is out of the rater's
// derived order or is missing, else the first other member that differs.
func (d *derivation) refuseBundle(path, guidelines string) error {
	derived, err := d.itemDigests()
	if err != nil {
		return err
	}
	f, err := campaign.OpenRegular(path, campaign.FileBundle)
	if err != nil {
		return err
	}
	defer f.Close()
	var seen []seenItem
	var undecodable string // the first undecodable item's error
	hdr, err := blinding.ReadBundleItems(path, bufio.NewReaderSize(f, 1<<16), func(i int, raw []byte) {
		var it blinding.Item
		if err := blinding.DecodeStrict(path, raw, &it); err != nil {
			if undecodable == "" {
				undecodable = err.Error()
				if e := (*verr.Error)(nil); errors.As(err, &e) {
					undecodable = e.Detail
				}
			}
			seen = append(seen, seenItem{verdict: itemUndecodable})
			return
		}
		digest, canonical, err := blinding.ItemInBundle(&it, raw)
		switch want, ok := derived[it.ID]; {
		case err != nil || !ok || digest != want:
			seen = append(seen, seenItem{it.ID, itemDiffers})
		case !canonical:
			seen = append(seen, seenItem{it.ID, itemNonCanonical})
		default:
			seen = append(seen, seenItem{it.ID, itemDerived})
		}
	})
	if err != nil {
		return err
	}
	if hdr.Guidelines != guidelines {
		return &verr.Error{Reason: blinding.ReasonGuidelinesMismatch, File: path, Pointer: "/guidelines", Rule: ruleScore,
			Detail: "the bundle carries other rating guidelines than the campaign's " + campaign.GuidelinesFile}
	}
	rater := hdr.Rater
	if _, ok := d.header[rater]; !ok {
		return verr.Newf(ReasonBundleUnknown, path, "/rater", ruleCustody, "a bundle for rater %q, whom the sealed map does not name (its raters: %s)", rater, strings.Join(d.raters(), ", "))
	}
	mismatch := func(pointer, format string, args ...any) error {
		return verr.Newf(ReasonBundleItemMismatch, path, pointer, ruleCustody, format, args...)
	}
	order := d.order[rater]
	for i, e := range seen {
		ptr := fmt.Sprintf("/items/%d", i)
		switch {
		case e.verdict == itemUndecodable:
			return mismatch(ptr, "the item at %s is not a bundle item: %s", ptr, undecodable)
		case i >= len(order):
			return mismatch(ptr, "item %s is not derived from the campaign", e.id)
		case e.verdict == itemDiffers:
			return mismatch(ptr, "item %s differs from the item the campaign derives through the sealed map (task text, evidence, obligations or final answer)", e.id)
		case order[i] != e.id:
			return mismatch(ptr, "item %s is out of rater %s's derived order (want %s here)", e.id, rater, order[i])
		case e.verdict == itemNonCanonical:
			return mismatch(ptr, "item %s has the derived value but not its canonical bytes (white space, member order or escapes differ)", e.id)
		}
	}
	if len(seen) < len(order) {
		return mismatch("/items", "item %s derived from the campaign is missing", order[len(seen)])
	}
	if m := firstMemberDifference(hdr, d.header[rater]); m != "" {
		return mismatch("/"+m, "the bundle's items are the derived ones but its member %q differs from the bundle derived from the campaign", m)
	}
	return mismatch("", "the bundle's items and members are the derived ones but its bytes are not the derived bundle's (white space, member order or escapes differ)")
}

// firstMemberDifference names the first top-level member (in name order)
// whose canonical JSON differs between the bundle headers got and want
// (both without items), or "" when none does.
func firstMemberDifference(got, want *blinding.Bundle) string {
	members := func(b *blinding.Bundle) map[string]json.RawMessage {
		data, err := blinding.MarshalCanonical(b)
		m := map[string]json.RawMessage{}
		if err == nil {
			_ = json.Unmarshal(data, &m)
		}
		return m
	}
	g, w := members(got), members(want)
	keys := slices.Sorted(maps.Keys(g))
	for k := range w {
		if _, ok := g[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !bytes.Equal(g[k], w[k]) {
			return k
		}
	}
	return ""
}

// missingBundles refuses every rater of the sealed map without a bundle
// among seen (ReasonBundleMissing), in rater order.
func (d *derivation) missingBundles(dir string, seen map[string]bool) error {
	for _, r := range d.raters() {
		if !seen[r] {
			return &verr.Error{Reason: ReasonBundleMissing, File: filepath.Join(dir, "bundle-"+r+".json"), Rule: ruleCustody,
				Detail: fmt.Sprintf("no bundle for rater %s; score needs every bundle to check the sheets' bundles and to scan them for leaks", r)}
		}
	}
	return nil
}

// raters are the sealed map's raters, sorted.
func (d *derivation) raters() []string {
	return slices.Sorted(maps.Keys(d.header))
}

// RatedEnd is the latest receipt end (ended_utc) of the rated sessions
// of a campaign, given by its blinding source src (the sessions whose
// answers are bundled, in either design: blinding.FixedSource,
// blinding.SystemSource): every signed record is dated after it
// (adjudication.VerifyOptions.RatedEnd). A receipt without a parsable end
// adds nothing (admission refuses it on its own).
func RatedEnd(src *blinding.Source) adjudication.SessionEnd {
	var ends []adjudication.SessionEnd
	for _, a := range src.Answers {
		if a.EndedUTC == "" {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, a.EndedUTC); err == nil {
			ends = append(ends, adjudication.SessionEnd{Session: a.Session, Ended: t})
		}
	}
	return adjudication.LatestEnd(ends)
}
