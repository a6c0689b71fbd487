package campaign

// Loaded is a strictly loaded campaign of either design, as the scorer's
// Design interface receives it: the fixed-evidence *Campaign (CONTRACT
// §1–§5) or the system comparison's loaded campaign (CONTRACT §6). A
// design's implementation asserts its own concrete type.
type Loaded interface {
	// Design is the campaign's design (its manifest's design member;
	// DesignFixedEvidence for a manifest without it).
	Design() Design
	// Synthetic is the manifest's synthetic flag: inert fixture data, not
	// an experiment (CONTRACT §7).
	Synthetic() bool
}

// Design is DesignFixedEvidence: the first experiment's manifest has no
// design member (its schema, manifest.json, is unchanged since 741-v1.0).
func (c *Campaign) Design() Design { return DesignFixedEvidence }

// Synthetic is the manifest's synthetic flag.
func (c *Campaign) Synthetic() bool { return c.Manifest.Synthetic }

// PacketKindExcerpt is the fixed-evidence packet's kind: 6–12
// authenticated source excerpts with commit, path, lines and file hash
// (CONTRACT §3; tasks/<id>/packet.json), as distinguished from
// PacketKindRawObservation (PROMPTS.md "Raw-observation packets are
// distinguished from the authenticated excerpt packets of the first
// experiment").
const PacketKindExcerpt = "authenticated-excerpt"

// Design is DesignSystemComparison (CONTRACT §6): the manifest names it.
func (c *SystemCampaign) Design() Design { return DesignSystemComparison }

// Synthetic is the manifest's synthetic flag.
func (c *SystemCampaign) Synthetic() bool { return c.Manifest.Synthetic }

// TruthObligations is the system truth's obligations as the first
// experiment's truth obligations, repository-answerable ones (the R_sys
// denominator, Answerable true) first, then the separately frozen U set
// (Answerable false), each in truth order (CONTRACT §6). Source
// coordinates stay in the system truth: EvidenceIDs is empty (there is no
// excerpt packet).
func (t *SystemTruth) TruthObligations() []TruthObligation {
	out := make([]TruthObligation, 0, len(t.RepositoryAnswerable)+len(t.Unanswerable))
	for i, set := range [][]SystemObligation{t.RepositoryAnswerable, t.Unanswerable} {
		for _, o := range set {
			out = append(out, TruthObligation{ID: o.ID, Text: o.Text, Critical: o.Critical, Answerable: i == 0, EvidenceIDs: []string{},
				AcceptedAlternatives: o.AcceptedAlternatives, RequiredVerification: o.RequiredVerification,
				JustifiedExclusions: o.JustifiedExclusions, SourceJustification: o.SourceJustification})
		}
	}
	return out
}
