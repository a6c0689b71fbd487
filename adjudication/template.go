package adjudication

import (
	"fmt"
	"strconv"
	"strings"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// ReasonTemplateMismatch: a grades file carries the text a field is judged
// on ("judge", written by `verdict grade --template`) and that text is not
// the bundle's for that field: the file was made from another bundle.
const ReasonTemplateMismatch verr.Reason = "template-mismatch"

// FieldContext is what a rater judges for one field, as `verdict grade
// --template` writes it beside the value to fill in (the rating screen
// shows the same): the codebook question, and per kind the truth
// obligation (its text, criticality, accepted alternatives, required
// verification), the claim, the citation with the lines it cites and the
// statements it supports, or the exclusion with its reason; for
// completeness the size of the whole answer.
type FieldContext struct {
	Question   string                    `json:"question"`
	Obligation *campaign.TruthObligation `json:"obligation,omitempty"`
	Claim      *campaign.Claim           `json:"claim,omitempty"`
	Citation   *CitationContext          `json:"citation,omitempty"`
	Exclusion  *campaign.Exclusion       `json:"exclusion,omitempty"`
	// Answer counts the elements of the final answer (completeness).
	Answer string `json:"answer,omitempty"`
}

// CitationContext is a citation as a rater judges it: the citation, the
// cited lines with their line numbers taken from its evidence item's
// excerpt (a line outside the excerpt is named, never invented: C09), and
// each final statement it supports with its text.
type CitationContext struct {
	campaign.Citation
	Lines     []string `json:"lines"`
	Supported []string `json:"supported"`
}

// ValueDefinition is one allowed value of a field with its codebook
// definition (Codebook).
type ValueDefinition struct {
	Value      string `json:"value"`
	Definition string `json:"definition"`
}

// FinalText returns the text of final element id (a claim, action,
// verification, uncertainty or exclusion) prefixed with its kind
// ("claim: …"), and false when the final answer has no such element.
func FinalText(f *campaign.Final, id string) (string, bool) {
	for _, c := range f.Claims {
		if c.ID == id {
			return "claim: " + c.Text, true
		}
	}
	for _, a := range f.ImplementationPlan {
		if a.ID == id {
			return "action: " + a.Action, true
		}
	}
	for _, v := range f.VerificationPlan {
		if v.ID == id {
			return "verification: " + v.ExpectedBehavior, true
		}
	}
	for _, u := range f.Uncertainties {
		if u.ID == id {
			return "uncertainty: " + u.MissingInformation, true
		}
	}
	for _, x := range f.Exclusions {
		if x.ID == id {
			return "exclusion: " + x.ScopeItem + " — " + x.Reason, true
		}
	}
	return "not in the final answer", false
}

// ContextOf returns what a rater judges for field f of item it.
func ContextOf(it *blinding.Item, f Field) FieldContext {
	out := FieldContext{Question: Codebook[f.Kind].Question}
	switch f.Kind {
	case KindObligation, KindUncertainty, KindOracleDefect:
		for i := range it.Obligations {
			if it.Obligations[i].ID == f.Target {
				o := it.Obligations[i]
				out.Obligation = &o
			}
		}
	case KindClaim, KindClaimCritical:
		for i := range it.Final.Claims {
			if it.Final.Claims[i].ID == f.Target {
				c := it.Final.Claims[i]
				out.Claim = &c
			}
		}
	case KindCitation:
		i, _ := strconv.Atoi(strings.TrimPrefix(f.Target, "K"))
		if i >= 1 && i <= len(it.Final.Citations) {
			c := it.Final.Citations[i-1]
			cc := &CitationContext{Citation: c, Lines: citedLines(it, c), Supported: []string{}}
			for _, s := range c.Supports {
				t, _ := FinalText(&it.Final, s)
				cc.Supported = append(cc.Supported, s+" "+t)
			}
			out.Citation = cc
		}
	case KindExclusion:
		for i := range it.Final.Exclusions {
			if it.Final.Exclusions[i].ID == f.Target {
				x := it.Final.Exclusions[i]
				out.Exclusion = &x
			}
		}
	case KindCompleteness:
		fin := &it.Final
		out.Answer = fmt.Sprintf("%d claims, %d actions, %d verifications, %d uncertainties, %d exclusions, %d citations",
			len(fin.Claims), len(fin.ImplementationPlan), len(fin.VerificationPlan), len(fin.Uncertainties), len(fin.Exclusions), len(fin.Citations))
	}
	return out
}

// citedLines returns the lines citation c cites, "N: text", from its
// evidence item's excerpt; a line outside the excerpt is named as such.
func citedLines(it *blinding.Item, c campaign.Citation) []string {
	for _, e := range it.Evidence {
		if e.ID != c.EvidenceID {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(e.Excerpt, "\r\n", "\n"), "\n"), "\n")
		var out []string
		for n := c.StartLine; n <= c.EndLine; n++ {
			if i := n - e.StartLine; i >= 0 && i < len(lines) {
				out = append(out, fmt.Sprintf("%d: %s", n, lines[i]))
			} else {
				out = append(out, fmt.Sprintf("%d: (not in %s, which has lines %d-%d)", n, e.ID, e.StartLine, e.StartLine+len(lines)-1))
			}
		}
		return out
	}
	return []string{c.EvidenceID + " is not an evidence item of this packet"}
}

// AllowedDefinitions returns the allowed values of kind k on a bundle of
// design d (FieldValues) with their codebook definitions, in that order.
func AllowedDefinitions(d campaign.Design, k Kind) []ValueDefinition {
	vals := FieldValues(d, k)
	out := make([]ValueDefinition, len(vals))
	for i, v := range vals {
		_, full := Definition(k, v)
		out[i] = ValueDefinition{Value: v, Definition: full}
	}
	return out
}

// CheckJudged refuses (ReasonTemplateMismatch) a grades file whose
// entries carry a judge (a filled `grade --template`) that is not what
// bundle b shows for that field, naming the grade; a grade without judge
// is not checked here. Unknown items and fields are left to CheckGrade.
func CheckJudged(file string, b *blinding.Bundle, in []GradeInput) error {
	for i, g := range in {
		if g.Judge == nil {
			continue
		}
		it := b.Item(g.Item)
		if it == nil {
			continue
		}
		if want := ContextOf(it, Field{g.Item, g.Kind, g.Target}); !sameJSON(want, *g.Judge) {
			return verr.Newf(ReasonTemplateMismatch, file, "/"+strconv.Itoa(i)+"/judge", ruleGradesFile,
				"grade %d (%s %s %s): the text judged in this file is not this bundle's; make the template again from this bundle (verdict grade BUNDLE --template)", i+1, g.Item, g.Kind, g.Target)
		}
	}
	return nil
}

// sameJSON reports whether a and b have the same canonical JSON.
func sameJSON(a, b any) bool {
	x, errX := campaign.MarshalJSON(a)
	y, errY := campaign.MarshalJSON(b)
	return errX == nil && errY == nil && string(x) == string(y)
}
