// Package scorer owns the automatic half of the verdict: the structural
// validator of responses (PROMPTS.md "Additional constraints",
// EVALUATOR-CONTROLS C09, C12, C13), receipts accounting and admission
// (CONTRACT §4–§5), consensus of the signed human grades, per-run, per-task
// and per-repository scoring, the gates, the decision (CONTRACT §4) and
// report rendering. A verified sheet's grades are Consensus input as they
// are (SheetGrade); AdjudicatedGrades turns an adjudication's resolutions
// into it. It does no I/O
// beyond reading what it is handed and writing a report to the writer it
// is handed (Report.WriteJSON streams report.json).
//
// What differs between the contract's two experiments (fixed evidence,
// CONTRACT §1–§5; the system comparison, §6) is the Design interface
// (design.go): run shape, packet kind, prompt roles, recall quantity,
// ceilings, manifest admission, validity, accounting, dispatch replay,
// gates and decision. LookupDesign and DesignOf find a campaign's design;
// fixedEvidence (design_fixed.go) is the first experiment's.
//
// Memory: the score input is built in two steps so that a caller can drop
// a loaded campaign of 10,000 sessions before it reads the rating records:
// PrepareScoreInput takes everything it needs from the campaign, and
// PreparedInput.Join adds the settled grades (BuildScoreInput does both).
// Consensus joins the two sheets and the adjudication by sorted indices,
// not per-field maps.
package scorer
