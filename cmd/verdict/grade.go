package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
)

func init() { register(newGradeCmd) }

// gradeInput is one grade of a --from file: the field, value, optional
// note and optional milliseconds spent on the item.
type gradeInput struct {
	Item    string            `json:"item"`
	Kind    adjudication.Kind `json:"kind"`
	Target  string            `json:"target"`
	Value   string            `json:"value"`
	Note    string            `json:"note,omitempty"`
	SpentMS int64             `json:"spent_ms,omitempty"`
}

func newGradeCmd(a *app) *cobra.Command {
	var journal, from string
	c := &cobra.Command{
		Use:   "grade BUNDLE --journal FILE --from GRADES.json",
		Short: "Record grades from a file into a rater's journal (non-interactive rating)",
		Long: `grade appends every grade of GRADES.json (a JSON array of
{"item","kind","target","value","note","spent_ms"}) to the journal, in order,
with the same journal code the rating TUI uses. Each grade is saved (fsync'd)
before the next; the first refused grade stops the run and earlier grades stay.`,
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
		var in []gradeInput
		if err := blinding.DecodeStrict(from, data, &in); err != nil {
			return refusal(a, err)
		}
		j, err := adjudication.Open(journal, b)
		if err != nil {
			return refusal(a, err)
		}
		defer j.Close()
		saved := 0
		var gradeErr error
		for i, g := range in {
			err := j.Append(adjudication.Grade{Field: adjudication.Field{Item: g.Item, Kind: g.Kind, Target: g.Target}, Value: g.Value, Note: g.Note,
				Spent: time.Duration(g.SpentMS) * time.Millisecond})
			if err != nil {
				gradeErr = fmt.Errorf("grade %d of %s: %w", i, from, err)
				break
			}
			saved++
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
