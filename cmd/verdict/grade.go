package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
)

func init() { register(newGradeCmd) }

// gradeInput is one grade of a --from file (adjudication.GradeInput).
type gradeInput = adjudication.GradeInput

// gradeBatch is the number of grades `verdict grade --from` saves per fsync.
const gradeBatch = 4096

func newGradeCmd(a *app) *cobra.Command {
	var journal, from string
	c := &cobra.Command{
		Use:   "grade BUNDLE --journal FILE --from GRADES.json",
		Short: "Record grades from a file into a rater's journal (non-interactive rating)",
		Long: `grade appends every grade of GRADES.json (a JSON array of
{"item","kind","target","value","note","spent_ms"}; spent_ms is a count of
milliseconds, never negative) to the journal, in order,
with the same journal code the rating TUI uses. Grades are written in batches
of up to 4,096 with one fsync per batch (a grade is saved when its batch's fsync
returned); the first refused grade stops the run and every grade before it stays.
A grades file that does not decode strictly, or holds a negative spent_ms, is
refused as a whole (reason malformed-grades, with the file and JSON pointer)
before anything is written.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&journal, "journal", "", "journal file (created if absent)")
	c.Flags().StringVar(&from, "from", "", "JSON file of grades")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if journal == "" || from == "" {
			return usagef("--journal and --from are required")
		}
		b, _, err := blinding.LoadBundle(args[0])
		if err != nil {
			return refusal(a, err)
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		in, err := adjudication.DecodeGradesFile(from, data)
		if err != nil {
			return refusal(a, err)
		}
		j, err := adjudication.Open(journal, b, a.journalOptions()...)
		if err != nil {
			return refusal(a, err)
		}
		defer j.Close()
		// Grades are saved in batches of gradeBatch with one fsync each; a
		// grade is saved once its batch returned.
		saved := 0
		var gradeErr error
		for start := 0; start < len(in) && gradeErr == nil; start += gradeBatch {
			chunk := in[start:min(start+gradeBatch, len(in))]
			gs := make([]adjudication.Grade, len(chunk))
			for i, g := range chunk {
				gs[i] = g.Grade()
			}
			n, err := j.AppendBatch(gs)
			saved += n
			if err != nil {
				gradeErr = fmt.Errorf("grade %d of %s: %w", start+n, from, err)
			}
		}
		st := j.State()
		rep := struct {
			Saved     int                  `json:"saved"`
			Recovered int64                `json:"torn_bytes_recovered"`
			Graded    int                  `json:"graded_fields"`
			Ungraded  []adjudication.Field `json:"ungraded"`
			Error     string               `json:"error,omitempty"`
		}{saved, j.Recovered(), len(st.Grades), st.Ungraded, ""}
		if rep.Ungraded == nil {
			rep.Ungraded = []adjudication.Field{}
		}
		if gradeErr != nil {
			rep.Error = gradeErr.Error()
		}
		if *format == "json" {
			if err := writeJSON(a.stdout, rep); err != nil {
				return err
			}
		} else {
			if b.Synthetic {
				fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
			}
			fmt.Fprintf(a.stdout, "saved %d grade(s) to %s; %d field(s) graded, %d ungraded\n", saved, journal, rep.Graded, len(rep.Ungraded))
			if rep.Recovered > 0 {
				fmt.Fprintf(a.stdout, "recovered: cut %d torn byte(s) from the end of the journal\n", rep.Recovered)
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
