// Package adjudication owns the human half of the verdict: the grade model,
// the rater's journal, rating sheets and their signing and verification,
// freezing, the disagreement set of two frozen sheets, the adjudication and
// reveal records, and the agreement statistics between raters (percent
// agreement, Cohen's kappa, Krippendorff's alpha). It knows nothing about
// arms.
package adjudication
