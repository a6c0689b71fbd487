package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/campaign"
)

// Finding is one automatic structural finding as the ledger shows it: the
// scorer's reason code, response file, JSON pointer, scope ("final" or
// "protocol"), contract rule and sentence. The caller converts the
// scorer's findings; the ledger only places them beside the rows they
// concern (by file and JSON pointer prefix).
type Finding struct {
	Code, File, Pointer, Scope, Rule, Message string
}

// LedgerInput is what the protocol checker's screen shows: a loaded
// campaign and the automatic structural findings about it. No semantic
// grade is part of it. Campaign is a fixed-evidence campaign (its review-b
// sessions over their task's excerpt packet); System, when Campaign is
// nil, a system comparison whose selected review is B (each workflow's
// review over its raw-observation packet, CONTRACT §6).
type LedgerInput struct {
	Campaign *campaign.Campaign
	System   *campaign.SystemCampaign
	Findings []Finding
}

// Ledger runs the protocol checker's read-only screen until the user
// leaves. It writes nothing. The error is the terminal's or ctx's.
func Ledger(ctx context.Context, in LedgerInput, o Options) error {
	m := NewLedgerModel(in, o)
	_, err := run(ctx, m, o)
	return err
}

// NewLedgerModel returns the ledger program's root model (exported for
// tests and benchmarks that drive it without a terminal).
func NewLedgerModel(in LedgerInput, o Options) tea.Model {
	// The ledger draws a copy whose texts show their control characters
	// visibly (visibleText).
	in.Campaign, in.System, in.Findings = shownCopy(in.Campaign), shownCopy(in.System), shownCopy(in.Findings)
	return newProgram(o, func(c *Common) program { return newLedger(c, in) })
}

type rowKind int

const (
	rowSession rowKind = iota
	rowObligation
	rowDisposition
)

// ledgerRow is one line of the ledger list.
type ledgerRow struct {
	kind     rowKind
	e        *ledgerEntry
	index    int // obligation or disposition index
	findings []Finding
}

// refused returns why a session row's answer or ledger was refused at
// admission ("" when it was not, or for other rows): a refusal is a
// structural problem the checker must reach like a finding.
func (r *ledgerRow) refused() string {
	if r.kind != rowSession {
		return ""
	}
	switch e := r.e; {
	case e.ledgerFailure != nil:
		return "ledger refused: " + string(e.ledgerFailure.Reason)
	case e.resp == nil && e.failure != nil:
		return "answer refused: " + string(e.failure.Reason)
	}
	return ""
}

// marked reports whether n, N and f stop at the row: it has a finding or
// its answer or ledger was refused.
func (r *ledgerRow) marked() bool { return len(r.findings) > 0 || r.refused() != "" }

type ledger struct {
	pane
	c       *Common
	keys    LedgerKeyMap
	in      LedgerInput
	rows    []ledgerRow
	visible []int // indexes into rows
	cursor  int   // index into visible
	offset  int   // first visible list line
	filter  bool
	detailY int
	viewer  *evidenceViewer
	// search finds text in the rows (/); searching while it is shown.
	search    *searchScreen
	searching bool
	nReviewB  int
	nFind     int
}

func newLedger(c *Common, in LedgerInput) *ledger {
	l := &ledger{c: c, keys: DefaultLedgerKeyMap(), in: in}
	l.search = newSearchScreen(c, "every row's evidence item, disposition, finding and detail", l.find, func(h searchHit) tea.Cmd {
		l.searching, l.cursor, l.detailY = false, h.index, 0
		l.setEnabled()
		return nil
	}, func() tea.Cmd { l.searching = false; return nil })
	l.build()
	l.refilter()
	return l
}

// build makes the rows: for each review-B session a session row, one row
// per ledger obligation and one per evidence disposition; each finding
// goes to the row whose JSON pointer prefix it carries, else to the
// session row.
func (l *ledger) build() {
	var entries []*ledgerEntry
	switch {
	case l.in.Campaign != nil:
		entries = fixedEntries(l.in.Campaign)
	case l.in.System != nil:
		entries = systemEntries(l.in.System)
	default:
		return
	}
	byFile := map[string][]Finding{}
	for _, f := range l.in.Findings {
		byFile[f.File] = append(byFile[f.File], f)
	}
	for _, e := range entries {
		l.nReviewB++
		head := len(l.rows)
		l.rows = append(l.rows, ledgerRow{kind: rowSession, e: e})
		var nObl, nDisp int
		if e.resp != nil && e.resp.Reconciliation != nil {
			nObl = len(e.resp.Reconciliation.Obligations)
			nDisp = len(e.resp.Reconciliation.EvidenceDispositions)
		}
		for i := range nObl {
			l.rows = append(l.rows, ledgerRow{kind: rowObligation, e: e, index: i})
		}
		for i := range nDisp {
			l.rows = append(l.rows, ledgerRow{kind: rowDisposition, e: e, index: i})
		}
		for _, f := range byFile[campaign.ResponsePath(e.id)] {
			l.nFind++
			at := head
			if i, ok := pointerIndex(f.Pointer, "/reconciliation/obligations/"); ok && i < nObl {
				at = head + 1 + i
			} else if i, ok := pointerIndex(f.Pointer, "/reconciliation/evidence_dispositions/"); ok && i < nDisp {
				at = head + 1 + nObl + i
			}
			l.rows[at].findings = append(l.rows[at].findings, f)
		}
	}
}

// pointerIndex returns n when p is prefix+n or prefix+n+"/...".
func pointerIndex(p, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(p, prefix)
	if !ok {
		return 0, false
	}
	seg, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(seg)
	return n, err == nil && n >= 0
}

func (l *ledger) refilter() {
	l.search.forget()
	var keep int
	if len(l.visible) > 0 && l.cursor < len(l.visible) {
		keep = l.visible[l.cursor]
	}
	l.visible = l.visible[:0]
	for i, r := range l.rows {
		if !l.filter || r.marked() {
			l.visible = append(l.visible, i)
		}
	}
	l.cursor = 0
	for i, ri := range l.visible {
		if ri >= keep {
			l.cursor = i
			break
		}
	}
	l.detailY = 0
	l.setEnabled()
}

func (l *ledger) current() *ledgerRow {
	if l.cursor < 0 || l.cursor >= len(l.visible) {
		return nil
	}
	return &l.rows[l.visible[l.cursor]]
}

// evidenceIDs returns the E IDs the current row names.
func (l *ledger) evidenceIDs(r *ledgerRow) []string {
	if r == nil || r.e.resp == nil || r.e.resp.Reconciliation == nil {
		return nil
	}
	rec := r.e.resp.Reconciliation
	switch r.kind {
	case rowObligation:
		return rec.Obligations[r.index].EvidenceIDs
	case rowDisposition:
		return []string{rec.EvidenceDispositions[r.index].EvidenceID}
	}
	return nil
}

func (l *ledger) setEnabled() {
	r := l.current()
	l.keys.Evidence.SetEnabled(len(l.evidenceIDs(r)) > 0)
	hasFindings := false
	for _, r := range l.rows {
		if r.marked() {
			hasFindings = true
			break
		}
	}
	l.keys.NextFinding.SetEnabled(hasFindings)
	l.keys.PrevFinding.SetEnabled(hasFindings)
	l.keys.Filter.SetEnabled(hasFindings || l.filter)
	if l.filter {
		l.keys.Filter.SetHelp("f", "all rows")
	} else {
		l.keys.Filter.SetHelp("f", "only findings")
	}
	n := len(l.visible)
	l.keys.Up.SetEnabled(n > 1)
	l.keys.Down.SetEnabled(n > 1)
}

// SetSize implements Component.
func (l *ledger) SetSize(w, h int) {
	l.w, l.h = w, h
	l.search.SetSize(w, h)
	if l.viewer != nil {
		l.viewer.SetSize(w, h)
	}
}

func (l *ledger) listHeight() int { return max((l.h-1)/2, 1) }

// Update implements tea.Model.
func (l *ledger) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(closeEvidenceMsg); ok {
		l.viewer = nil
		return l, nil
	}
	if _, ok := msg.(restyleMsg); ok {
		if l.viewer != nil {
			l.viewer.render()
		}
		return l, nil
	}
	if l.viewer != nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && l.viewer.closes(k) {
			l.viewer = nil
			return l, nil
		}
		_, cmd := l.viewer.Update(msg)
		return l, cmd
	}
	if l.searching {
		_, cmd := l.search.Update(msg)
		return l, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	n := len(l.visible)
	switch {
	case key.Matches(k, l.keys.Up):
		l.move(-1)
	case key.Matches(k, l.keys.Down):
		l.move(1)
	case key.Matches(k, l.keys.PageUp):
		l.move(-l.listHeight())
	case key.Matches(k, l.keys.PageDown):
		l.move(l.listHeight())
	case key.Matches(k, l.keys.Top):
		l.move(-n)
	case key.Matches(k, l.keys.Bottom):
		l.move(n)
	case key.Matches(k, l.keys.NextFinding):
		l.jumpFinding(1)
	case key.Matches(k, l.keys.PrevFinding):
		l.jumpFinding(-1)
	case key.Matches(k, l.keys.Filter):
		l.filter = !l.filter
		l.refilter()
	case key.Matches(k, l.keys.Evidence):
		l.openEvidence()
	case key.Matches(k, l.keys.DetailDown):
		l.detailY++
	case key.Matches(k, l.keys.DetailUp):
		l.detailY = max(l.detailY-1, 0)
	case key.Matches(k, l.keys.Search):
		l.searching = true
		return l, l.search.open()
	}
	return l, nil
}

// Capturing reports whether the search query has the keyboard.
func (l *ledger) Capturing() bool { return l.searching && l.search.Capturing() }

// find searches the visible rows: their line and their detail.
func (l *ledger) find(q string) []searchHit {
	var hits []searchHit
	for i, ri := range l.visible {
		r := &l.rows[ri]
		text := ansi.Strip(l.rowLine(r) + " " + strings.Join(l.detail(r), " "))
		if t := matchIn(text, q, l.w-20); t != "" {
			hits = append(hits, searchHit{i, -1, fmt.Sprintf("row %d", i+1), t})
			if len(hits) == maxHits {
				break
			}
		}
	}
	return hits
}

func (l *ledger) move(d int) {
	if len(l.visible) == 0 {
		return
	}
	l.cursor = min(max(l.cursor+d, 0), len(l.visible)-1)
	l.detailY = 0
	l.setEnabled()
}

func (l *ledger) jumpFinding(d int) {
	n := len(l.visible)
	for i := 1; i <= n; i++ {
		j := ((l.cursor+d*i)%n + n) % n
		if l.rows[l.visible[j]].marked() {
			l.cursor = j
			l.detailY = 0
			l.setEnabled()
			return
		}
	}
}

// openEvidence opens the viewer on the row's evidence items; the cited
// lines are the lines of the answer's final citations to each item.
func (l *ledger) openEvidence() {
	r := l.current()
	ids := l.evidenceIDs(r)
	if len(ids) == 0 {
		return
	}
	refs := make([]evidenceRef, 0, len(ids))
	for _, id := range ids {
		refs = append(refs, r.e.ref(id, nil))
	}
	l.openEvidenceRefs(refs)
}

func (l *ledger) openEvidenceRefs(refs []evidenceRef) {
	l.viewer = newEvidenceViewer(l.c, refs, 0)
	l.viewer.SetSize(l.w, l.h)
}

func (l *ledger) title() string {
	s := "verdict ledger · protocol checker"
	id, synthetic := "", false
	switch {
	case l.in.Campaign != nil:
		id, synthetic = l.in.Campaign.Manifest.CampaignID, l.in.Campaign.Manifest.Synthetic
	case l.in.System != nil:
		id, synthetic = l.in.System.Manifest.CampaignID+" (system comparison)", l.in.System.Manifest.Synthetic
	default:
		return s
	}
	s += " · " + id
	if synthetic {
		s = "SYNTHETIC · " + s
	}
	return s
}

func (l *ledger) statusLine() string {
	rows, refused := 0, 0
	for _, r := range l.rows {
		if len(r.findings) > 0 {
			rows++
		}
		if r.refused() != "" {
			refused++
		}
	}
	f := ""
	if refused > 0 {
		f = fmt.Sprintf(" · %d refused", refused)
	}
	if l.filter {
		f += " · filter: rows with findings or refusals"
	}
	pos := 0
	if len(l.visible) > 0 {
		pos = l.cursor + 1
	}
	return fmt.Sprintf(" row %d/%d · %d review-B answers · %d findings on %d rows%s · read-only",
		pos, len(l.visible), l.nReviewB, l.nFind, rows, f)
}

// finalText is adjudication.FinalText: the text of a final element with
// its kind.
func finalText(f *campaign.Final, id string) (string, bool) { return adjudication.FinalText(f, id) }

// supportingCitations returns the 1-based K indexes of the final citations
// to evidence id that support one of finalIDs.
func supportingCitations(f *campaign.Final, id string, finalIDs []string) []int {
	var ks []int
	for i, c := range f.Citations {
		if c.EvidenceID != id {
			continue
		}
		for _, s := range c.Supports {
			if slices.Contains(finalIDs, s) {
				ks = append(ks, i+1)
				break
			}
		}
	}
	return ks
}

func kList(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = "K" + strconv.Itoa(k)
	}
	return strings.Join(s, ",")
}

func orDash(ids []string) string {
	if len(ids) == 0 {
		return "—"
	}
	return strings.Join(ids, ",")
}

// rowLine renders one list row (without selection styling).
func (l *ledger) rowLine(r *ledgerRow) string {
	st := l.c.Styles
	mark := "  "
	if n := len(r.findings); n > 0 {
		mark = st.Finding.Render(fmt.Sprintf("!%d", n))
		if n > 9 {
			mark = st.Finding.Render("!+")
		}
	} else if r.refused() != "" {
		mark = st.Finding.Render("!r")
	}
	e := r.e
	if l.filter && r.kind != rowSession {
		// Filtered rows lose their session heading: name the session.
		mark += " " + e.id
	}
	switch r.kind {
	case rowSession:
		state := "no reconciliation record"
		if e.resp != nil && e.resp.Reconciliation != nil {
			rec := e.resp.Reconciliation
			state = fmt.Sprintf("%d obligations, %d dispositions", len(rec.Obligations), len(rec.EvidenceDispositions))
		} else if e.ledgerFailure != nil {
			state = "ledger refused: " + string(e.ledgerFailure.Reason) + " (final answer valid)"
		} else if e.failure != nil {
			state = "answer refused: " + string(e.failure.Reason)
		}
		return fmt.Sprintf("%s %s %s · %s", mark, st.Header.Render(e.id), e.label(), state)
	case rowObligation:
		o := e.resp.Reconciliation.Obligations[r.index]
		return fmt.Sprintf("%s   %-4s %-10s %-14s → %s", mark, o.ID, o.Status, o.Basis, orDash(o.FinalIDs))
	default:
		f := &e.resp.Final
		d := e.resp.Reconciliation.EvidenceDispositions[r.index]
		cite := "citation: no"
		if ks := supportingCitations(f, d.EvidenceID, d.FinalIDs); len(ks) > 0 {
			cite = "citation: " + kList(ks)
		}
		return fmt.Sprintf("%s   %-4s %-10s → %-14s %s", mark, d.EvidenceID, d.Status, orDash(d.FinalIDs), cite)
	}
}

// detail renders the current row's full record: its heading, then its
// findings (first, so that no finding sits below the fold), then the rest.
func (l *ledger) detail(r *ledgerRow) []string {
	st := l.c.Styles
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	e := r.e
	// links adds the heading, then each final ID with its text (one not
	// in the final answer marked as a finding), or a dash for none.
	links := func(heading string, ids []string) {
		add(heading)
		for _, id := range ids {
			t, ok := finalText(&e.resp.Final, id)
			if !ok {
				t = st.Finding.Render(t)
			}
			add("  " + id + "  " + t)
		}
		if len(ids) == 0 {
			add("  —")
		}
	}
	switch r.kind {
	case rowSession:
		add(st.Header.Render(e.heading()))
		add(l.findingLines(r)...)
		if c := e.context(); c != "" {
			add(c)
		}
		if e.ledgerFailure != nil {
			add("ledger refused, final answer valid and graded (protocol gate fails, CONTRACT §4): " + e.ledgerFailure.Error())
		}
		if e.resp == nil {
			if e.failure != nil {
				add("no answer: " + e.failure.Error())
			} else {
				add("no answer (not dispatched or no response file)")
			}
		}
	case rowObligation:
		rec := e.resp.Reconciliation
		o := rec.Obligations[r.index]
		add(st.Header.Render(fmt.Sprintf("%s ledger obligation %s", e.id, o.ID)) + fmt.Sprintf("  status %s · basis %s", o.Status, o.Basis))
		add(l.findingLines(r)...)
		add(o.Text)
		add("evidence: " + orDash(o.EvidenceIDs))
		links("links:", o.FinalIDs)
	case rowDisposition:
		rec := e.resp.Reconciliation
		d := rec.EvidenceDispositions[r.index]
		add(st.Header.Render(fmt.Sprintf("%s disposition of %s", e.id, d.EvidenceID)) + "  status " + d.Status)
		add(l.findingLines(r)...)
		if line, ok := e.itemLine(d.EvidenceID); ok {
			add(line)
		} else {
			add(st.Finding.Render(d.EvidenceID + " is not in the packet"))
		}
		links("final links:", d.FinalIDs)
		ks := supportingCitations(&e.resp.Final, d.EvidenceID, d.FinalIDs)
		if len(ks) == 0 {
			add("supporting citation: none")
		} else {
			for _, k := range ks {
				c := e.resp.Final.Citations[k-1]
				add(fmt.Sprintf("supporting citation K%d: %s:%d-%d supports %s", k, c.Path, c.StartLine, c.EndLine, strings.Join(c.Supports, ",")))
			}
		}
	}
	return out
}

// findingLines are a row's structural findings, or the line that says it
// has none.
func (l *ledger) findingLines(r *ledgerRow) []string {
	st := l.c.Styles
	if len(r.findings) == 0 {
		return []string{st.OK.Render("no structural finding")}
	}
	out := []string{st.Finding.Render(fmt.Sprintf("%d structural finding(s):", len(r.findings)))}
	for _, f := range r.findings {
		out = append(out, st.Finding.Render("! "+f.Code)+" "+f.Pointer+" ["+f.Rule+"]", "  "+f.Message)
	}
	return out
}

// View implements tea.Model: the list, a rule, the detail pane.
func (l *ledger) View() tea.View {
	if l.viewer != nil {
		return l.viewer.View()
	}
	if l.searching {
		return l.search.View()
	}
	st := l.c.Styles
	if len(l.visible) == 0 {
		msg := "no review-B answer in this campaign"
		if l.filter {
			msg = "no row has a structural finding (press f to show all rows)"
		}
		return tea.NewView(st.Muted.Render(msg))
	}
	lh := l.listHeight()
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+lh {
		l.offset = l.cursor - lh + 1
	}
	var b strings.Builder
	for i := l.offset; i < min(l.offset+lh, len(l.visible)); i++ {
		line := " " + l.rowLine(&l.rows[l.visible[i]])
		if i == l.cursor {
			line = selectedRow(st, line, l.w)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	for i := len(l.visible) - l.offset; i < lh; i++ {
		b.WriteByte('\n')
	}
	b.WriteString(st.Muted.Render(strings.Repeat("─", max(l.w, 1))))
	b.WriteByte('\n')
	det := l.detail(l.current())
	wrapped := wrapLines(det, l.w)
	dh := l.h - lh - 1
	// What does not fit scrolls (J, ctrl+d) with a mark, never cut.
	b.WriteString(strings.Join(scrollWindow(st, wrapped, &l.detailY, dh), "\n"))
	return tea.NewView(b.String())
}

// ShortHelp implements help.KeyMap.
func (l *ledger) ShortHelp() []key.Binding {
	if l.viewer != nil {
		return l.viewer.ShortHelp()
	}
	if l.searching {
		return l.search.ShortHelp()
	}
	return []key.Binding{l.keys.Down, l.keys.Up, l.keys.NextFinding, l.keys.Filter, l.keys.Evidence, l.keys.Search}
}

// FullHelp implements help.KeyMap.
func (l *ledger) FullHelp() [][]key.Binding {
	if l.viewer != nil {
		return l.viewer.FullHelp()
	}
	if l.searching {
		return l.search.FullHelp()
	}
	return [][]key.Binding{
		{l.keys.Up, l.keys.Down, l.keys.PageUp, l.keys.PageDown, l.keys.Top, l.keys.Bottom},
		{l.keys.NextFinding, l.keys.PrevFinding, l.keys.Filter, l.keys.Evidence, l.keys.DetailDown, l.keys.DetailUp, l.keys.Search},
	}
}
