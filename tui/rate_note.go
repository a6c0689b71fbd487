package tui

import (
	"verdict/adjudication"

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
