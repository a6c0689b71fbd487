package blinding

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"verdict/campaign"
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
	// Design is campaign.DesignSystemComparison for a system comparison's
	// bundle and empty for a fixed-evidence one (whose bytes are those of
	// a bundle without the member). It decides the values its obligation
	// and uncertainty fields allow: truthful_unknown only on a system
	// comparison's (CONTRACT §6; adjudication.FieldValues). It names no
	// system.
	Design campaign.Design `json:"design,omitempty"`
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
	return (s.Role == campaign.RoleReviewA || s.Role == campaign.RoleReviewB) && campaign.Answered(s.Receipt, s.Response)
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
