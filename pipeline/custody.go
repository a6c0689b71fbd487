package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

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
// campaign: the digest of each rater's bundle bytes and each bundle's
// item IDs in order with each item's canonical digest, to name the first
// differing item.
type derivation struct {
	bundleDigest map[string]string   // rater -> SHA-256 of the derived bundle bytes
	order        map[string][]string // rater -> item IDs in the rater's order
	items        map[string]string   // item ID -> SHA-256 of its canonical JSON
}

// deriveCustody derives the blinding of c again under the sealed map in
// mapBytes (blinding.Derive) and refuses a map that differs from the
// derived one (ReasonMapMismatch, naming the first differing item).
func deriveCustody(c *campaign.Campaign, mapPath string, mapBytes []byte) (*derivation, error) {
	sealed, err := blinding.ParseSealedMap(mapPath, mapBytes)
	if err != nil {
		return nil, err
	}
	res, err := blinding.Derive(c, sealed)
	if err != nil {
		return nil, err
	}
	if blinding.Digest(res.MapBytes) != blinding.Digest(mapBytes) {
		return nil, mapDifference(mapPath, sealed, res.Map)
	}
	d := &derivation{bundleDigest: map[string]string{}, order: map[string][]string{}, items: map[string]string{}}
	for i, b := range res.Bundles {
		d.bundleDigest[b.Rater] = res.BundleDigests[i]
		for _, it := range b.Items {
			d.order[b.Rater] = append(d.order[b.Rater], it.ID)
			if _, ok := d.items[it.ID]; !ok {
				// Hashed while encoded, as the bundle was.
				h := sha256.New()
				if err := campaign.EncodeJSON(h, it); err != nil {
					return nil, err
				}
				d.items[it.ID] = hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	return d, nil
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

// checkBundle compares the bundle file at path (its rater and the SHA-256
// of its bytes) with the derived bundle of that rater.
func (d *derivation) checkBundle(path, rater, digest string) error {
	want, ok := d.bundleDigest[rater]
	if !ok {
		return verr.Newf(ReasonBundleUnknown, path, "/rater", ruleCustody, "a bundle for rater %q, whom the sealed map does not name (its raters: %s)", rater, strings.Join(slices.Sorted(mapKeys(d.bundleDigest)), ", "))
	}
	if want == digest {
		return nil
	}
	return d.bundleDifference(path, rater)
}

// bundleDifference names the first item of the bundle at path that is not
// the derived one (or the first place its order differs).
func (d *derivation) bundleDifference(path, rater string) error {
	b, _, err := blinding.LoadBundle(path)
	if err != nil {
		return &verr.Error{Reason: ReasonBundleItemMismatch, File: path, Rule: ruleCustody,
			Detail: "the bundle's bytes are not those the campaign derives through the sealed map, and it is not a canonical bundle: " + err.Error(), Err: err}
	}
	order := d.order[rater]
	for i, it := range b.Items {
		if i >= len(order) {
			return verr.Newf(ReasonBundleItemMismatch, path, fmt.Sprintf("/items/%d", i), ruleCustody, "item %s is not derived from the campaign", it.ID)
		}
		want, ok := d.items[it.ID]
		cb, err := blinding.MarshalCanonical(it)
		if err != nil {
			return err
		}
		if !ok || blinding.Digest(cb) != want {
			return verr.Newf(ReasonBundleItemMismatch, path, fmt.Sprintf("/items/%d", i), ruleCustody, "item %s differs from the item the campaign derives through the sealed map (task text, evidence, obligations or final answer)", it.ID)
		}
		if order[i] != it.ID {
			return verr.Newf(ReasonBundleItemMismatch, path, fmt.Sprintf("/items/%d", i), ruleCustody, "item %s is out of rater %s's derived order (want %s here)", it.ID, rater, order[i])
		}
	}
	if len(b.Items) < len(order) {
		return verr.Newf(ReasonBundleItemMismatch, path, "/items", ruleCustody, "item %s derived from the campaign is missing", order[len(b.Items)])
	}
	return &verr.Error{Reason: ReasonBundleItemMismatch, File: path, Rule: ruleCustody,
		Detail: "the bundle's items are the derived ones but its other members differ from the bundle derived from the campaign"}
}

// missingBundles refuses every rater of the sealed map without a bundle
// among seen (ReasonBundleMissing), in rater order.
func (d *derivation) missingBundles(dir string, seen map[string]bool) error {
	for _, r := range slices.Sorted(mapKeys(d.bundleDigest)) {
		if !seen[r] {
			return &verr.Error{Reason: ReasonBundleMissing, File: filepath.Join(dir, "bundle-"+r+".json"), Rule: ruleCustody,
				Detail: fmt.Sprintf("no bundle for rater %s; score needs every bundle to check the sheets' bundles and to scan them for leaks", r)}
		}
	}
	return nil
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
