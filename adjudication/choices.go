package adjudication

import (
	"errors"
	"fmt"

	"verdict/campaign"
	"verdict/verr"
)

// Choice is an adjudicator's decision for one field (input to
// NewAdjudication): one entry of the choices file `verdict resolve --from`
// reads, {"item","kind","target","final","note"}; note may be "" or
// absent. Ratings and Allowed are what `verdict resolve --template` shows
// beside the field, read only: never recorded in the adjudication, and
// when present checked against the sheets (CheckChoiceShown).
type Choice struct {
	Field
	// Ratings are the two raters' values and notes of the field, in the
	// order the sheets were given ("first rating", "second rating"; never
	// the raters' names: adjudication is blind to who rated what).
	Ratings *[2]ChoiceRating `json:"ratings,omitempty"`
	// Allowed are the field's allowed values with their codebook
	// definitions (AllowedDefinitions).
	Allowed []ValueDefinition `json:"allowed,omitempty"`
	Final   string            `json:"final"`
	Note    string            `json:"note"`
}

// ChoiceRating is one rater's side of a disputed field as a choices
// template shows it: the rating's label by sheet order, the value, the
// note as written and the leak scan's findings in it (Disagreement).
type ChoiceRating struct {
	Rating       string        `json:"rating"`
	Value        string        `json:"value"`
	Note         string        `json:"note"`
	NoteFindings []NoteFinding `json:"note_findings,omitempty"`
}

// ChoiceRatingLabels label the two ratings of a choices template by the
// order the sheets were given, as `verdict disagreements` does.
var ChoiceRatingLabels = [2]string{"first rating", "second rating"}

// ChoiceTemplate is the choices file for the disputes ds (of the sheets in
// the order given) to be filled in: one Choice per disputed field, in the
// order of ds, with both ratings and the allowed values shown and final
// and note empty. Unfilled, NewAdjudication refuses it (ReasonBadValue).
func ChoiceTemplate(ds []Disagreement) []Choice {
	out := make([]Choice, 0, len(ds))
	for _, d := range ds {
		out = append(out, Choice{Field: d.Field, Ratings: choiceRatings(d), Allowed: disputeAllowed(d)})
	}
	return out
}

// disputeAllowed is the allowed values a choices template shows for the
// dispute d, with their definitions: the field's values on a fixed-evidence
// bundle, and truthful_unknown as well when a rater chose it (an
// adjudication may settle on it only then: CheckResolution).
func disputeAllowed(d Disagreement) []ValueDefinition {
	design := campaign.DesignFixedEvidence
	if d.Values[0] == ValueTruthfulUnknown || d.Values[1] == ValueTruthfulUnknown {
		design = campaign.DesignSystemComparison
	}
	return AllowedDefinitions(design, d.Field.Kind)
}

// choiceRatings is the Ratings a choices template shows for d.
func choiceRatings(d Disagreement) *[2]ChoiceRating {
	var r [2]ChoiceRating
	for i := range r {
		r[i] = ChoiceRating{Rating: ChoiceRatingLabels[i], Value: d.Values[i], Note: d.Notes[i], NoteFindings: d.NoteFindings[i]}
	}
	return &r
}

// CheckChoiceShown refuses (ReasonTemplateMismatch) a choice whose shown
// Ratings or Allowed, when present, are not what the template of
// disputes ds (the sheets in the order given) shows for its field: the
// file was made from other sheets, or from these in the other order, or
// was edited where it is read only. Its pointer is "/i/ratings" or
// "/i/allowed" of choice i.
func CheckChoiceShown(choices []Choice, ds []Disagreement) error {
	byField := map[Field]Disagreement{}
	for _, d := range ds {
		byField[d.Field] = d
	}
	for i, c := range choices {
		d, ok := byField[c.Field]
		if !ok {
			continue // refused by NewAdjudication (ReasonNotDisputed)
		}
		if c.Ratings != nil && !sameJSON(*c.Ratings, *choiceRatings(d)) {
			return &verr.Error{Reason: ReasonTemplateMismatch, Pointer: fmt.Sprintf("/%d/ratings", i), Rule: ruleRecords,
				Detail: fmt.Sprintf("%s: the ratings shown are not the sheets' (%s %q, %s %q); make the template again from these sheets in this order (verdict resolve SHEET SHEET --template)", c.Field, ChoiceRatingLabels[0], d.Values[0], ChoiceRatingLabels[1], d.Values[1])}
		}
		if c.Allowed != nil && !sameJSON(c.Allowed, disputeAllowed(d)) {
			return &verr.Error{Reason: ReasonTemplateMismatch, Pointer: fmt.Sprintf("/%d/allowed", i), Rule: ruleRecords,
				Detail: fmt.Sprintf("%s: the allowed values shown are not this field's; make the template again (verdict resolve SHEET SHEET --template)", c.Field)}
		}
	}
	return nil
}

// atChoice points a CheckResolution refusal into the choices file: at
// "/i/final" for a value refused (ReasonBadValue,
// ReasonTruthfulUnknownOutsideObligations), at "/i/note" for a note refused or
// missing, i the choice's 0-based index (RFC 6901). The caller names the
// file. An error that is not a *verr.Error is returned as it is.
func atChoice(err error, i int) error {
	var e *verr.Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	member := "note"
	if c.Reason == ReasonBadValue || c.Reason == ReasonTruthfulUnknownOutsideObligations {
		member = "final"
	}
	c.Pointer = fmt.Sprintf("/%d/%s", i, member)
	return &c
}
