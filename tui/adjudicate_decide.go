package tui

import (
	"fmt"
	"strings"
	"verdict/adjudication"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// allowedFor returns the values of the kind's vocabulary the adjudicator
// may choose for d. truthful_unknown is not among them: it may settle a
// field only where a rater chose it (adjudication.CheckResolution), and
// then it is that rating's key.
func allowedFor(d *Dispute) []string {
	if d.Field.Kind == adjudication.KindOracleDefect {
		return []string{adjudication.ValueDefective, adjudication.ValueWithdrawn}
	}
	return adjudication.AllowedValues(d.Field.Kind)
}

// otherValues returns the allowed values of d that neither rating chose:
// what v can add. A two-valued field where the raters disagree has none.
func otherValues(d *Dispute) []string {
	var out []string
	for _, v := range allowedFor(d) {
		if v != d.Values[0] && v != d.Values[1] {
			out = append(out, v)
		}
	}
	return out
}

func showValue(v string, k adjudication.Kind) string {
	if v == "" && k == adjudication.KindOracleDefect {
		return "no flag (not a defect)"
	}
	return strings.ReplaceAll(v, "_", " ")
}

// decide records a decision if Check accepts it; a value that needs a note
// opens the note editor instead.
func (a *adjudicator) decide(final, note string) tea.Cmd {
	d := a.dispute()
	if a.in.Check != nil {
		if err := a.in.Check(*d, final, note); err != nil {
			if note == "" {
				a.setStatus("a note is required for this value", false)
				return a.openNote(final, "")
			}
			a.setStatus(err.Error(), true)
			return nil
		}
	}
	dec := Decision{Field: d.Field, Final: final, Note: note}
	what := fieldLabel(d.Field) + " = " + showValue(final, d.Field.Kind)
	if a.in.Record == nil {
		a.decisions[a.cur] = &dec
		a.setStatus("resolved "+what+" (not saved: no decision log)", false)
		a.nextOpen()
		return nil
	}
	cmd := a.queue.push(pendingDecision{a.cur, dec})
	a.setStatus("saving "+what+" …", false)
	a.nextOpen()
	return cmd
}

func (a *adjudicator) onDecided(m savedMsg[pendingDecision]) tea.Cmd {
	next := a.queue.done(m)
	if m.err != nil {
		a.setStatus(a.signer.saveFailed(m.err), true)
		return nil
	}
	d := m.v.d
	a.decisions[m.v.idx] = &d
	a.setStatus("saved ✓ "+fieldLabel(d.Field)+" = "+showValue(d.Final, d.Field.Kind), false)
	return tea.Batch(next, a.signer.afterSave())
}

func (a *adjudicator) nextOpen() {
	n := len(a.decisions)
	for i := 1; i <= n; i++ {
		j := (a.cur + i) % n
		if !a.decided(j) {
			a.cur = j
			return
		}
	}
}

func (a *adjudicator) openNote(final, text string) tea.Cmd {
	a.noteFinal = final
	a.screen = adjNote
	cmd := a.note.open(openNoteMsg{field: a.dispute().Field, text: text})
	a.note.input.Placeholder = "reason for this final value"
	return cmd
}

// noteContext renders the dispute and the value the note is for.
func (a *adjudicator) noteContext(w int) []string {
	d := a.dispute()
	out := wrapLines(fieldContext(a.c.Styles, a.item(), d.Field), w)
	return append(out, "", a.c.Styles.Header.Render("Note for final value "+showValue(a.noteFinal, d.Field.Kind)+" (required when neither rating chose it)"))
}

// noteDone takes the note editor's result: a saved note decides the
// dispute with the value it was opened for.
func (a *adjudicator) noteDone(m noteDoneMsg) tea.Cmd {
	a.screen = adjMain
	if !m.saved {
		return nil
	}
	d := a.dispute()
	if a.in.Check != nil {
		if err := a.in.Check(*d, a.noteFinal, m.text); err != nil {
			a.setStatus(err.Error(), true)
			a.screen = adjNote
			return nil
		}
	}
	a.note.close()
	return a.decide(a.noteFinal, m.text)
}

// find searches the disputes: their item ID, field, context, values and
// notes.
func (a *adjudicator) find(q string) []searchHit {
	var hits []searchHit
	add := func(h searchHit) bool {
		hits = append(hits, h)
		return len(hits) < maxHits
	}
	// An item's task and answer are searched once, at its first dispute.
	searched := map[string]bool{}
	for i, d := range a.shownD {
		label := fmt.Sprintf("dispute %d", i+1)
		it := a.shownItem(d.Field.Item)
		text := d.Field.Item + " " + fieldLabel(d.Field) + " " + ansi.Strip(strings.Join(fieldContext(a.c.Styles, it, d.Field), " ")) +
			" " + d.Values[0] + " " + d.Notes[0] + " " + d.Values[1] + " " + d.Notes[1]
		if t := matchIn(text, q, a.w-30); t != "" && !add(searchHit{i, -1, label + " " + fieldLabel(d.Field), t}) {
			return hits
		}
		if it == nil || searched[it.ID] {
			continue
		}
		searched[it.ID] = true
		if t := matchIn(it.TaskText, q, a.w-30); t != "" && !add(searchHit{i, -1, label + " task", t}) {
			return hits
		}
		doc := a.answer.cache.doc(it, 200)
		if t := matchIn(ansi.Strip(strings.Join(doc.lines, " ")), q, a.w-30); t != "" && !add(searchHit{i, -1, label + " answer", t}) {
			return hits
		}
	}
	return hits
}

// carryNote keeps a confirmed oracle defect's reason: confirming a rating's
// flag adopts that rating's reason as the decision's note.
func (a *adjudicator) carryNote(final, note string) string {
	if a.dispute().Field.Kind == adjudication.KindOracleDefect && final == adjudication.ValueDefective {
		return note
	}
	return ""
}

func (a *adjudicator) openEvidence() {
	it := a.item()
	if it == nil {
		return
	}
	f := a.dispute().Field
	if f.Kind == adjudication.KindOracleDefect {
		f.Kind = adjudication.KindObligation
	}
	refs := fieldEvidence(it, f)
	if len(refs) == 0 {
		for _, e := range it.Evidence {
			refs = append(refs, evidenceRef{item: &evidenceSource{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt}})
		}
	}
	if len(refs) == 0 {
		a.setStatus("this item has no evidence item", true)
		return
	}
	a.viewer = newEvidenceViewer(a.c, refs, 0)
	a.viewer.SetSize(a.w, a.h)
	a.screen = adjEvidence
}
