// Package tui owns verdict's terminal user interface: three Bubble Tea
// programs, one per mode, each a function that returns a value and leaves
// every decision to its caller.
//
//   - Ledger (verdict ledger CAMPAIGN): the protocol checker's read-only
//     view of every review-B reconciliation record, the automatic structural
//     findings beside the rows they concern, and the evidence excerpts with
//     their real line numbers; in a system comparison whose selected review
//     is B, every workflow's review over its raw-observation packet, with
//     the returned observation bytes. It never shows semantic grades.
//   - Rate (verdict rate BUNDLE): one rater grades the anonymised final
//     answers of a bundle; every grade goes through the adjudication
//     journal, and the screen says "saved" only after the journal returned.
//   - Adjudicate (verdict adjudicate BUNDLE SHEET SHEET): the disputed
//     fields of two frozen sheets, side by side without rater names; every
//     decision goes through the adjudication decision log
//     (AdjudicateInput.UseDecisionLog), the screen says "saved" only after
//     it returned, and a restart resumes at the first undecided dispute.
//
// The package never grades or scores by itself: grades are recorded by the
// adjudication package and findings come from the scorer.
//
// The rater's program is a container (rate.go: screens and routing) over
// one shared state (rate_state.go: fields, grades saved or in the save
// queue, flags, progress) and one component per screen: the grading pane
// (grade.go), the item list (list.go), the final answer laid out per
// element and following the graded field (answer.go), the note editor
// (note.go; the rater's use of it in rate_note.go), the freeze (freeze.go,
// the rater's record for the one signing component of sign.go), the
// reading panel for the task and the codebook (panel.go, codebook.go),
// search (search.go; what the rater searches in rate_search.go) and the
// evidence viewer; each has its key map in its own *_keys.go. The
// adjudicator's program has the same shape: adjudicate.go (container and
// routing), the dispute page (adjudicate_dispute.go), its decisions
// (adjudicate_decide.go), its keys and help (adjudicate_input.go), the
// dispute list (adjudicate_list.go) and its record for the signing
// component (adjudicate_sign.go: the decisions being signed and the two
// sheets' agreement). The bindings the grading pane and the adjudicator
// share (values, note, evidence, answer, task, codebook, search, detail)
// and the signing screen's live in keys.go (ItemKeyMap, SignKeyMap),
// embedded in GradeKeyMap and AdjudicateKeyMap. The adjudicator and the
// ledger reuse the answer, note, panel, search and evidence components.
// The signing component (signScreen) owns the signing itself: y while
// saves are in flight signs once they returned, one signing at a time,
// the signed record's description kept. Grades, item flags and decisions
// wait in the one save queue type (savequeue.go) until their durable save
// returned.
//
// Every text that comes from a bundle, a campaign or a sheet is drawn from
// a copy whose control and format characters are shown as ⟨U+XXXX⟩
// (visible.go): no answer can move the cursor, change colours or hide
// part of itself on a rater's terminal.
//
// Structure: every screen is a Component (tea.Model + help.KeyMap +
// SetSize). A Common value carries the terminal size and the styles (the
// only place colours come from is the styles sub-package; NO_COLOR is
// respected). The root model handles the global keys (? for full help,
// q and ctrl+c to leave), then application messages, then forwards to the
// active screen only. Each screen has its own key map with DefaultKeyMap,
// key.WithHelp, and bindings enabled by state so that the help is true.
package tui
