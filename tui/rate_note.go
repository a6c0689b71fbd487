package tui

import (
	"slices"
	"strings"
	"verdict/adjudication"
	"verdict/internal/plural"

	tea "charm.land/bubbletea/v2"
)

// saveNote records the note the editor returned: an oracle-defect flag
// with its reason (or its withdrawal), or a graded field's note.
func (r *rater) saveNote(m noteDoneMsg) tea.Cmd {
	f := m.field
	var g adjudication.Grade
	if m.oracle {
		_, _, flagged := r.value(f)
		switch {
		case m.text != "":
			g = adjudication.Grade{Field: f, Value: adjudication.ValueDefective, Note: m.text}
		case flagged:
			g = adjudication.Grade{Field: f, Value: adjudication.ValueWithdrawn}
		default:
			r.setStatus("an oracle-defect flag needs a reason (EVALUATOR-CONTROLS C22)", true)
			r.screen = screenNote
			return nil
		}
	} else {
		old, _, ok := r.value(f)
		r.note.close()
		if !ok {
			// A note before the grade: kept until the field is graded.
			if m.text == "" {
				delete(r.drafts, f)
				r.setStatus("draft note removed", false)
			} else {
				r.drafts[f] = m.text
				r.setStatus("note kept: it is saved with the grade of "+fieldLabel(f), false)
			}
			return nil
		}
		g = adjudication.Grade{Field: f, Value: old.Value, Note: m.text}
	}
	r.note.close()
	g.Spent = r.spent()
	cmd, _ := r.record(g)
	return cmd
}

// noteContext renders the field whose note is edited; an oracle-defect
// reason shows its obligation.
func (r *rater) noteContext(w int) []string {
	f := r.note.field
	if r.note.oracle {
		f.Kind = adjudication.KindObligation
		for _, o := range r.curItem().Obligations {
			if o.ID == f.Target && !o.Answerable {
				f.Kind = adjudication.KindUncertainty
			}
		}
	}
	return wrapLines(r.grade.fieldDetail(f), w)
}

// unsaved implements quitGuard: the draft notes (notes written on fields
// not yet graded) live only on screen until their field is graded, so
// leaving would lose them.
func (r *rater) unsaved() string {
	if len(r.drafts) == 0 {
		return ""
	}
	var fs []string
	for f := range r.drafts {
		fs = append(fs, fieldLabel(f)+" of "+f.Item)
	}
	slices.Sort(fs)
	return plural.Count(len(fs), "draft note is", "draft notes are") + " not saved (a note is saved with its grade: grade " + strings.Join(fs, ", ") + ")"
}
