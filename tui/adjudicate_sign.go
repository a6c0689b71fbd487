package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// newSignScreen returns the adjudicator's use of the signing screen: the
// decisions being signed, one line each, and y signs once every dispute is
// resolved (pressed while decisions are still being saved, signing
// follows their saving) with every saved decision.
func (a *adjudicator) newSignScreen() *signScreen {
	meaning := a.in.Meaning
	if meaning == "" {
		meaning = "I resolved every disputed field against the frozen obligations."
	}
	rec := signRecord{
		title:   "Sign the adjudication",
		meaning: meaning,
		noun:    "adjudication",
		saves:   "decisions",
		signed:  "Signed",
		summary: a.signSummary,
		refusal: func() string {
			if n := a.open(); n > 0 {
				return fmt.Sprintf("%d disputes are open.", n)
			}
			return ""
		},
		pending: a.queue.len,
		cancel:  func() tea.Cmd { a.screen = adjMain; return nil },
		noSign:  a.in.NoSign,
	}
	if sign := a.in.Sign; sign != nil {
		rec.sign = func() (string, error) {
			var ds []Decision
			for _, d := range a.decisions {
				if d != nil {
					ds = append(ds, *d)
				}
			}
			return sign(ds)
		}
	}
	return newSignScreen(a.c, a.in.Signer, rec)
}

// signSummary is what the adjudicator signs: the counts, then each
// dispute's decision (the final value, which rating chose it, and its
// note) as the screen has it, saved (✓) or still saving (…).
func (a *adjudicator) signSummary(w int) []string {
	st := a.c.Styles
	notes := 0
	var rows []string
	for i := range a.decisions {
		d := a.shownD[i]
		head := fmt.Sprintf("%3d  %s  %s: ", i+1, d.Field.Item, fieldLabel(d.Field))
		dec, saved := a.decision(i)
		if dec == nil {
			rows = append(rows, "  "+head+st.Warn.Render("open"))
			continue
		}
		if dec.Note != "" {
			notes++
		}
		who := "another value"
		switch dec.Final {
		case d.Values[0]:
			who = "first rating"
		case d.Values[1]:
			who = "second rating"
		}
		mark := st.OK.Render("✓ ")
		if !saved {
			mark = st.Warn.Render("… ")
		}
		row := mark + head + st.Value.Render(showValue(dec.Final, d.Field.Kind)) + st.Muted.Render(" ("+who+")")
		rows = append(rows, row)
		if dec.Note != "" {
			rows = append(rows, wrapLines([]string{"       note: " + visibleText(dec.Note)}, w)...)
		}
	}
	out := []string{
		fmt.Sprintf("disputes: %d · decided: %d (saved: %d) · decisions with a note: %d", len(a.decisions), len(a.decisions)-a.open(), a.resolved(), notes),
	}
	out = append(out, a.agreementLines()...)
	return append(append(out, "", st.Header.Render("Decisions being signed:")), rows...)
}

// agreementLines renders the two sheets' agreement over all fields (the
// Agreement verdict agreement prints), or nothing when it is not given.
func (a *adjudicator) agreementLines() []string {
	ag := a.in.Agreement
	if ag == nil {
		return nil
	}
	r := ag.All
	return []string{
		fmt.Sprintf("agreement of the two sheets over all %d fields (as verdict agreement):", r.Fields),
		"  percent agreement  " + r.Percent.String(),
		"  Cohen's kappa      " + r.Kappa.String(),
		"  Krippendorff alpha " + r.Alpha.String(),
	}
}
