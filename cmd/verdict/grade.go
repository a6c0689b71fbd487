package main

import (
	"fmt"
	"io"
	"strings"
	"verdict/campaign"
	"verdict/internal/plural"
	"verdict/verr"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui"
)

// gradeInput is one grade of a --from file (adjudication.GradeInput).
type gradeInput = adjudication.GradeInput

// gradeBatch is the number of grades `verdict grade --from` saves per fsync.
const gradeBatch = 4096

func newGradeCmd(a *app) *cobra.Command {
	var journal, from string
	var template, replace, answers bool
	c := &cobra.Command{
		Use:   "grade BUNDLE (--journal FILE --from GRADES.json [--replace] | --template | --answers)",
		Short: "Record grades from a file into a rater's journal (non-interactive rating)",
		Long: `grade appends every grade of GRADES.json (a JSON array of
{"item","kind","target","value","note","spent_ms"}; spent_ms is a count of
milliseconds, never negative) to the journal, in order,
with the same journal code the rating TUI uses. Grades are written in batches
of up to 4,096 with one fsync per batch (a grade is saved when its batch's fsync
returned); the first refused grade stops the run and every grade before it stays.
A grades file that does not decode strictly, names an unknown kind, or holds a
negative spent_ms, is refused as a whole (reason malformed-grades, with the file
and JSON pointer) before anything is written. Messages name a grade by its
1-based position ("grade 1 of FILE"); JSON pointers keep the 0-based array
index (RFC 6901: "#/0/kind" is grade 1).

Fields. "item" is an item ID of the bundle. One item's required fields are:

  kind            target                                      values
  obligation      O<n>, each answerable truth obligation      addressed, not_addressed
  uncertainty     O<n>, each unanswerable truth obligation    credited, not_credited, falsely_resolved
  claim           C<n>, each final claim                      supported, unsupported, wrong
  claim_critical  C<n>, each final claim                      critical, not_critical
  citation        K<i>, i = 1-based index in final.citations  supports, does_not_support
  exclusion       X<n>, each final exclusion                  justified, wrongly_excludes
  completeness    final                                       no_false_claim, false_claim

Optional, not required: oracle_defect on a truth obligation O<n>, value
defective, with a required non-empty "note" giving the reason. Any grade may
carry a "note" (trimmed, at most 2,048 characters).

Example GRADES.json:

  [{"item":"I01","kind":"claim","target":"C1","value":"supported","spent_ms":4200},
   {"item":"I01","kind":"completeness","target":"final","value":"no_false_claim"}]

A grades file never silently replaces what the journal holds (grades entered
in the rating screen or by an earlier --from): a grade for a field already
graded with the same value is left as it is and its spent_ms is not added
again (an item's time is counted once); a grade without a note keeps the
note the journal has; a different value or note is refused (grade-conflict,
naming the grade, the field and both values) and nothing is written, unless
--replace is given: then those fields are graded again (without adding
time) and the output says how many were replaced.

--answers prints every item of BUNDLE, in bundle order, as plain text of at
most 100 columns: the task, the final answer as the rating screen lays it out
(claims, implementation plan, verification plan, uncertainties, exclusions and
citations, each with the ID the template's fields name) and every evidence
item with its path and numbered lines. It is what a rater grading from a file,
or an adjudicator filling a resolve template, reads beside the template. It
needs neither --journal nor --from and writes nothing.

--template prints every required field of BUNDLE, in bundle order, as such an
array with empty values and "spent_ms": 0 (fill in the milliseconds spent on
the item, on one of its fields or spread over them; 0 adds no time), and
beside each value what the rater judges
("judge": the codebook question, and the truth obligation with its accepted
alternatives and required verification, the claim, the citation with its
cited lines and the statements it supports, or the exclusion and its
reason) and the allowed values with their codebook definitions
("allowed"). No notice line is printed, so the filled file can be passed to
--from as it is: "allowed" is not read, and "judge" must still be this
bundle's (template-mismatch otherwise). It needs neither --journal nor
--from and writes nothing.

On a system comparison's bundle (CONTRACT §6) the obligations of its task
also take truthful_unknown, after their own values: an uncertainty field
(the separately frozen U set, key 4) earns U credit; an obligation field
(repository-answerable, key 3) is counted apart as a truthful unknown,
never addressed: it never raises R_sys and fails a critical obligation.
Anywhere else it is refused (truthful-unknown-outside-obligations): on a
fixed-evidence bundle and on a claim, citation, exclusion or completeness
field.

` + "Codebook (the definitions the rating screen shows; value keys in order):\n\n  " + strings.Join(adjudication.CodebookTextFor(campaign.DesignSystemComparison), "\n  "),
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&journal, "journal", "", "journal file (created if absent)")
	c.Flags().StringVar(&from, "from", "", "JSON file of grades")
	c.Flags().BoolVar(&template, "template", false, "print every required field of BUNDLE as a JSON grades array with empty values, what each field judges and its allowed values with their definitions")
	c.Flags().BoolVar(&answers, "answers", false, "print every item of BUNDLE (task, final answer, evidence) as plain text to read while filling a template")
	c.Flags().BoolVar(&replace, "replace", false, "grade again fields the journal already holds with another value or note (refused without it: grade-conflict)")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		if template && answers {
			return usagef("--template and --answers print different things: give one")
		}
		if template || answers {
			if journal != "" || from != "" || replace {
				return usagef("--template and --answers take neither --journal, --from nor --replace")
			}
		} else if journal == "" || from == "" {
			return usagef("--journal and --from are required (or --template, or --answers)")
		}
		b, _, err := blinding.LoadBundle(args[0])
		if err != nil {
			return refusal(a, err)
		}
		if template {
			return writeJSON(a.stdout, adjudication.Template(b))
		}
		if answers {
			if n := syntheticNotice(b.Synthetic); n != "" {
				fmt.Fprintf(a.stdout, "%s\n\n", n)
			}
			for i := range b.Items {
				if i > 0 {
					fmt.Fprintf(a.stdout, "\n%s\n\n", strings.Repeat("=", 100))
				}
				if _, err := io.WriteString(a.stdout, tui.ItemText(&b.Items[i], 100)); err != nil {
					return err
				}
			}
			return nil
		}
		data, err := campaign.ReadRegular(from, campaign.FileGrades)
		if err != nil {
			return refusal(a, err)
		}
		in, err := adjudication.DecodeGradesFile(from, data)
		if err != nil {
			return refusal(a, err)
		}
		if err := adjudication.CheckJudged(from, b, in); err != nil {
			return refusal(a, err)
		}
		j, err := adjudication.Open(journal, b, a.journalOptions()...)
		if err != nil {
			return refusal(a, err)
		}
		defer closeInto(&err, j)
		// What the file does to the journal is decided before anything is
		// written: a conflict with a grade already saved refuses the file.
		current, _ := j.Saved()
		plan, err := adjudication.PlanGrades(from, current, in, replace)
		if err != nil {
			return refusal(a, err)
		}
		// Grades are saved in batches of gradeBatch with one fsync each; a
		// grade is saved once its batch returned.
		saved := 0
		var gradeErr error
		for start := 0; start < len(plan.Append) && gradeErr == nil; start += gradeBatch {
			n, err := j.AppendBatch(plan.Append[start:min(start+gradeBatch, len(plan.Append))])
			saved += n
			if err != nil {
				// The refused grade is named in the user's grades file: its
				// 1-based position in the text, its JSON pointer in the refusal.
				at := plan.Index[start+n]
				p := refusalProblem(err)
				gradeErr = &verr.Error{Reason: p.Reason, File: from, Pointer: fmt.Sprintf("/%d", at), Rule: p.Rule,
					Detail: fmt.Sprintf("grade %d of %s: %s", at+1, from, p.Message), Err: err}
			}
		}
		st := j.State()
		rep := struct {
			Notice string `json:"notice,omitempty"`
			Saved  int    `json:"saved"`
			// Replaced of the saved grades graded again a field the journal
			// held (--replace); Unchanged grades repeated a saved value and
			// were not written; NotesKept carried the journal's note into a
			// grade without one; TimeNotCounted had spent_ms on a field
			// already graded, not added again.
			Replaced       int                  `json:"replaced"`
			Unchanged      int                  `json:"unchanged"`
			NotesKept      int                  `json:"notes_kept"`
			TimeNotCounted int                  `json:"time_not_counted"`
			Recovered      int64                `json:"torn_bytes_recovered"`
			Graded         int                  `json:"graded_fields"`
			Ungraded       []adjudication.Field `json:"ungraded"`
			// Refusal is the refused grade, in the one problem form of a
			// refusal (omitted when every grade was saved).
			Refusal *verr.Problem `json:"refusal,omitempty"`
		}{Notice: syntheticNotice(b.Synthetic), Saved: saved, Replaced: min(plan.Replaced, saved), Unchanged: plan.Unchanged, NotesKept: plan.NotesKept,
			TimeNotCounted: plan.TimeNotCounted, Recovered: j.Recovered(), Graded: len(st.Grades), Ungraded: st.Ungraded}
		if rep.Ungraded == nil {
			rep.Ungraded = []adjudication.Field{}
		}
		if gradeErr != nil {
			p := refusalProblem(gradeErr)
			rep.Refusal = &p
		}
		if *format == "json" {
			if err := writeJSON(a.stdout, rep); err != nil {
				return err
			}
		} else {
			if rep.Notice != "" {
				fmt.Fprintln(a.stdout, rep.Notice)
			}
			fmt.Fprintf(a.stdout, "saved %s to %s; %s graded, %d ungraded\n", plural.Count(saved, "grade", "grades"), journal, plural.Count(rep.Graded, "field", "fields"), len(rep.Ungraded))
			if rep.Replaced > 0 {
				fmt.Fprintf(a.stdout, "replaced %s the journal already held (--replace)\n", plural.Count(rep.Replaced, "grade", "grades"))
			}
			if rep.Unchanged > 0 {
				fmt.Fprintf(a.stdout, "%s already in the journal with the same value, not written again\n", plural.Count(rep.Unchanged, "grade", "grades"))
			}
			if rep.NotesKept > 0 {
				fmt.Fprintf(a.stdout, "kept the journal's note on %s given without one\n", plural.Count(rep.NotesKept, "field", "fields"))
			}
			if rep.TimeNotCounted > 0 {
				fmt.Fprintf(a.stdout, "time not counted again for %s already graded\n", plural.Count(rep.TimeNotCounted, "field", "fields"))
			}
			if rep.Recovered > 0 {
				fmt.Fprintf(a.stdout, "recovered: cut %s from the end of the journal\n", plural.Count(int(rep.Recovered), "torn byte", "torn bytes"))
			}
			if gradeErr != nil {
				fmt.Fprintln(a.stdout, "REFUSED:", gradeErr)
			}
		}
		if gradeErr != nil {
			return failed("a grade was refused")
		}
		return nil
	}
	return c
}

// journalOptions are the adjudication.Open options of every command that
// appends to a journal: the app's clock when one is set.
func (a *app) journalOptions() []adjudication.Option {
	if a.clock == nil {
		return nil
	}
	return []adjudication.Option{adjudication.WithClock(a.clock)}
}
