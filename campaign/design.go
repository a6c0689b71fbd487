package campaign

import (
	"bytes"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"verdict/verr"
)

// Design names a campaign's experiment: the manifest's optional top-level
// member "design". The contract fixes two (CONTRACT §1–§5 and §6); what
// differs between them is the scorer's Design interface (scorer.DesignOf),
// everything else is shared.
type Design string

// The contract's two designs.
const (
	// DesignFixedEvidence is the first experiment (CONTRACT §1–§5): shared
	// draft D, reviews A and B, authenticated excerpt packets, recall R. A
	// manifest without a design member has this design, and only such a
	// manifest: its schema (manifest.json, unchanged since 741-v1.0) has
	// no design member, so every existing manifest keeps its bytes and
	// digest.
	DesignFixedEvidence Design = "fixed-evidence"
	// DesignSystemComparison is the conditional system comparison
	// (CONTRACT §6; PROMPTS.md "Conditional system comparison"): Native,
	// Madar and Serena, one investigation and one review session per
	// workflow, raw observation packets, recall R_sys.
	DesignSystemComparison Design = "system-comparison"
)

// RuleDesign is the rule cited by a refusal of the manifest's design member.
const RuleDesign = "CONTRACT §1–§5 and §6 campaign designs; docs/campaign-format.md design"

// Reason codes of the manifest's design member.
const (
	// ReasonDesignUnknown: the manifest names a design this build does not
	// load (not one of the contract's designs, or one whose manifest
	// schema and scorer this build do not hold); also the scorer's lookup
	// of a design with no registered implementation.
	ReasonDesignUnknown verr.Reason = "design-unknown"
	// ReasonDesignImplicit: the manifest spells out "design":
	// "fixed-evidence". That design is written by leaving the member out,
	// so that each design has one manifest form and one digest.
	ReasonDesignImplicit verr.Reason = "design-implicit"
)

// designManifestSchemas maps each design this build loads to the embedded
// schema its manifest is validated against. A second design registers here
// (its manifest schema) and in the scorer's design registry.
var designManifestSchemas = map[Design]string{
	DesignFixedEvidence: SchemaManifest,
}

// LoadedDesigns lists every design whose manifests this build loads, in
// name order.
func LoadedDesigns() []Design {
	out := make([]Design, 0, len(designManifestSchemas))
	for d := range designManifestSchemas {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// DesignName is the manifest's design: DesignFixedEvidence when the member
// is absent.
func (m *Manifest) DesignName() Design {
	if m.Design == "" {
		return DesignFixedEvidence
	}
	return m.Design
}

// manifestSchema returns the schema a manifest's bytes are validated
// against, chosen by its top-level design member (designOfManifest), or
// the refusal of that member.
func manifestSchema(data []byte, file string) (string, *verr.Error) {
	d, ok := designOfManifest(data)
	switch {
	case !ok:
		return SchemaManifest, nil
	case d == DesignFixedEvidence:
		return "", &verr.Error{Reason: ReasonDesignImplicit, File: file, Pointer: "/design", Rule: RuleDesign,
			Detail: `"fixed-evidence" is the design of a manifest without a design member; remove the member`}
	}
	if s, ok := designManifestSchemas[d]; ok {
		return s, nil
	}
	return "", &verr.Error{Reason: ReasonDesignUnknown, File: file, Pointer: "/design", Rule: RuleDesign,
		Detail: "design " + quoteDesign(d) + " is not a design this build loads (" + designList() + ")"}
}

// designOfManifest reads the top-level "design" member of a manifest
// without deciding anything else: ok is false when the member is absent
// or not a string, or the bytes are not a JSON object (the strict pass and
// the manifest schema then refuse what is wrong). The member name written
// with escapes is found too.
func designOfManifest(data []byte) (Design, bool) {
	if !bytes.Contains(data, []byte("design")) && !bytes.Contains(data, []byte(`\u`)) {
		return "", false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "", false
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return "", false
		}
		if name.String() != "design" {
			if dec.SkipValue() != nil {
				return "", false
			}
			continue
		}
		v, err := dec.ReadToken()
		if err != nil {
			return "", false
		}
		if v.Kind() != '"' {
			return "", false
		}
		return Design(v.String()), true
	}
	return "", false
}

func quoteDesign(d Design) string {
	b, _ := jsontext.AppendQuote(nil, string(d))
	return string(b)
}

func designList() string {
	var b bytes.Buffer
	b.WriteString("fixed-evidence, written without the member")
	for _, d := range LoadedDesigns() {
		if d != DesignFixedEvidence {
			b.WriteString(", " + quoteDesign(d))
		}
	}
	return b.String()
}

// PacketKind is the kind of evidence packet a design's reviews receive
// (PROMPTS.md: raw-observation packets "are distinguished from the
// authenticated excerpt packets of the first experiment").
type PacketKind string

// The two packet kinds of the contract.
const (
	// PacketExcerpt is the fixed-evidence packet: 6–12 authenticated source
	// excerpts E1..En with commit, path, lines and file hash (CONTRACT §3;
	// tasks/<id>/packet.json).
	PacketExcerpt PacketKind = "authenticated-excerpt"
	// PacketRawObservation is the system-comparison packet: every tool
	// observation delivered to the investigator, E1..EN in completion
	// order, unfiltered (PROMPTS.md "Conditional system comparison").
	PacketRawObservation PacketKind = "raw-observation"
)
