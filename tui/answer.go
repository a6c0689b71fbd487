package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui/styles"
)

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// answerDoc is one item's task and final answer laid out for one width:
// its lines, and the lines of each element (claim, action, verification,
// uncertainty, exclusion, citation, section) so that a pane can scroll to
// the element being graded and mark it. Every text is wrapped, never cut.
type answerDoc struct {
	lines []string
	// spans maps an element ID ("C3", "K108") or a section name to its
	// first line and the line after its last.
	spans map[string][2]int
}

// Section names used as span keys.
const (
	spanTask          = "§task"
	spanClaims        = "§claims"
	spanUncertainties = "§uncertainties"
)

// layoutAnswer lays out the task and the final answer of it (a shown copy)
// in w cells, in PROMPTS.md order: claims, implementation plan,
// verification plan, uncertainties, exclusions, citations.
func layoutAnswer(st *styles.Styles, it *blinding.Item, w int) *answerDoc {
	d := &answerDoc{spans: map[string][2]int{}}
	f := &it.Final
	section := func(key, title string, n int) {
		if len(d.lines) > 0 {
			d.lines = append(d.lines, "")
		}
		start := len(d.lines)
		d.lines = append(d.lines, st.Header.Render(title)+st.Muted.Render(fmt.Sprintf("  %d", n)))
		if key != "" {
			d.spans[key] = [2]int{start, start + 1}
		}
		if n == 0 {
			d.lines = append(d.lines, st.Muted.Render("  none"))
		}
	}
	elem := func(id string, first string, rest ...string) {
		start := len(d.lines)
		rows := []string{"  " + id + "  " + first}
		for _, r := range rest {
			rows = append(rows, strings.Repeat(" ", len(id)+4)+r)
		}
		d.lines = append(d.lines, wrapLines(rows, w)...)
		d.spans[id] = [2]int{start, len(d.lines)}
	}
	start := len(d.lines)
	d.lines = append(d.lines, st.Header.Render("Task"))
	d.lines = append(d.lines, wrapLines(taskLines(it), w)...)
	d.spans[spanTask] = [2]int{start, len(d.lines)}

	section(spanClaims, "Claims", len(f.Claims))
	for _, c := range f.Claims {
		meta := string(c.Status) + " · evidence " + idList(c.EvidenceIDs)
		if c.UncertaintyID != nil {
			meta += " · uncertainty " + *c.UncertaintyID
		}
		elem(c.ID, c.Text, st.Muted.Render(meta))
	}
	section("", "Implementation plan", len(f.ImplementationPlan))
	for _, a := range f.ImplementationPlan {
		rest := []string{"rationale: " + a.Rationale,
			st.Muted.Render("basis " + string(a.SupportBasis) + " · evidence " + idList(a.EvidenceIDs) + " · verification " + idList(a.VerificationIDs))}
		if a.VerificationLimitation != nil {
			rest = append(rest, "verification limitation: "+*a.VerificationLimitation)
		}
		elem(a.ID, a.Action, rest...)
	}
	section("", "Verification plan", len(f.VerificationPlan))
	for _, v := range f.VerificationPlan {
		meta := "basis " + string(v.SupportBasis) + " · evidence " + idList(v.EvidenceIDs)
		if v.UncertaintyID != nil {
			meta += " · uncertainty " + *v.UncertaintyID
		}
		elem(v.ID, v.ExpectedBehavior, "method: "+v.Method, st.Muted.Render(meta))
	}
	section(spanUncertainties, "Uncertainties", len(f.Uncertainties))
	for _, u := range f.Uncertainties {
		elem(u.ID, "missing: "+u.MissingInformation, "consequence: "+u.Consequence, "verification step: "+u.VerificationStep)
	}
	section("", "Exclusions", len(f.Exclusions))
	for _, x := range f.Exclusions {
		elem(x.ID, x.ScopeItem+" — "+x.Reason, st.Muted.Render("evidence "+idList(x.EvidenceIDs)))
	}
	section("", "Citations", len(f.Citations))
	for i, c := range f.Citations {
		elem(fmt.Sprintf("K%d", i+1), fmt.Sprintf("%s %s:%d-%d · supports %s", c.EvidenceID, c.Path, c.StartLine, c.EndLine, idList(c.Supports)))
	}
	return d
}

// answerRest lists the IDs of the answer's elements that are not graded
// fields of their own (actions, verifications, uncertainties).
func answerRest(it *blinding.Item) []string {
	var ids []string
	for _, a := range it.Final.ImplementationPlan {
		ids = append(ids, a.ID)
	}
	for _, v := range it.Final.VerificationPlan {
		ids = append(ids, v.ID)
	}
	for _, u := range it.Final.Uncertainties {
		ids = append(ids, u.ID)
	}
	return ids
}

// answerMarks returns the elements of the answer that field f concerns
// (span keys of answerDoc, in answer order) and, when there is none to
// mark, a line saying so. A claim, citation or exclusion field is its own
// element. An obligation links the elements whose evidence includes one of
// its evidence items (claims, actions, verifications, exclusions, and the
// citations of those items); an uncertainty field also links every
// uncertainty of the answer and the elements that name one. Completeness
// concerns the whole answer: nothing is marked.
func answerMarks(it *blinding.Item, f adjudication.Field) (ids []string, none string) {
	switch f.Kind {
	case adjudication.KindClaim, adjudication.KindClaimCritical, adjudication.KindCitation, adjudication.KindExclusion:
		return []string{f.Target}, ""
	case adjudication.KindObligation, adjudication.KindUncertainty:
	default:
		return nil, ""
	}
	var ev []string
	for _, o := range it.Obligations {
		if o.ID == f.Target {
			ev = o.EvidenceIDs
		}
	}
	uncertain := f.Kind == adjudication.KindUncertainty
	cites := func(evidence []string) bool {
		return slices.ContainsFunc(evidence, func(e string) bool { return slices.Contains(ev, e) })
	}
	fin := &it.Final
	for _, c := range fin.Claims {
		if cites(c.EvidenceIDs) || uncertain && c.UncertaintyID != nil {
			ids = append(ids, c.ID)
		}
	}
	for _, a := range fin.ImplementationPlan {
		if cites(a.EvidenceIDs) {
			ids = append(ids, a.ID)
		}
	}
	for _, v := range fin.VerificationPlan {
		if cites(v.EvidenceIDs) || uncertain && v.UncertaintyID != nil {
			ids = append(ids, v.ID)
		}
	}
	if uncertain {
		for _, u := range fin.Uncertainties {
			ids = append(ids, u.ID)
		}
	}
	for _, x := range fin.Exclusions {
		if cites(x.EvidenceIDs) {
			ids = append(ids, x.ID)
		}
	}
	for i, c := range fin.Citations {
		if slices.Contains(ev, c.EvidenceID) {
			ids = append(ids, fmt.Sprintf("K%d", i+1))
		}
	}
	if len(ids) == 0 {
		what := "cites " + f.Target + "'s evidence (" + idList(ev) + ")"
		if uncertain {
			what += " and the answer states no uncertainty"
		}
		return nil, "nothing to mark: no element of the answer " + what + "; judge the whole answer"
	}
	return ids, ""
}

// answerCache lays out each item's answer once per (item, width).
type answerCache struct {
	st       *styles.Styles
	rendered map[answerKey]*answerDoc
	// Renders counts layouts (tests assert caching).
	Renders int
}

type answerKey struct {
	item  string
	width int
}

func newAnswerCache(st *styles.Styles) *answerCache {
	return &answerCache{st: st, rendered: map[answerKey]*answerDoc{}}
}

// doc returns the laid-out answer of it at width.
func (a *answerCache) doc(it *blinding.Item, width int) *answerDoc {
	width = max(width, 20)
	k := answerKey{it.ID, width}
	if d, ok := a.rendered[k]; ok {
		return d
	}
	d := layoutAnswer(a.st, it, width)
	a.Renders++
	a.rendered[k] = d
	return d
}

// answerPane shows an item's task and final answer: beside the grading
// pane on wide terminals, full screen on narrow ones. It follows the
// field being graded: when the field changes, the answer scrolls to the
// field's element and marks it ("▶"); J/K scroll from there.
type answerPane struct {
	pane
	c     *Common
	keys  AnswerKeyMap
	cache *answerCache
	// field returns the item (a shown copy) and the field to follow.
	field func() (*blinding.Item, adjudication.Field)
	// back leaves the full-screen answer.
	back func() tea.Cmd
	// head renders the lines above the full-screen answer (the field and
	// its choices), so that value keys can be used while reading.
	head func(w int) []string
	// following is the (item, anchor) the offset was set for.
	following [2]string
	y         int
}

func newAnswerPane(c *Common, field func() (*blinding.Item, adjudication.Field), back func() tea.Cmd) *answerPane {
	return &answerPane{c: c, keys: DefaultAnswerKeyMap(), cache: newAnswerCache(c.Styles), field: field, back: back}
}

// passes reports whether k, typed on the full-screen answer, is one of the
// owner's bindings bs (enabled or not) and not one of the answer's own
// (scroll, close): the owner goes back to its screen and applies k, as
// the task panel passes keys (panel.passes).
func (p *answerPane) passes(k tea.KeyPressMsg, bs ...key.Binding) bool {
	return !pressedAny(k, p.keys.Up, p.keys.Down, p.keys.Close) && pressedAny(k, bs...)
}

// restyle drops the answers laid out with the previous styles.
func (p *answerPane) restyle() { p.cache.rendered = map[answerKey]*answerDoc{} }

// scroll moves the answer by n lines (negative: up); lines clamps it.
func (p *answerPane) scroll(n int) { p.y = max(p.y+n, 0) }

// lines returns the w×h window of the answer, scrolled to the first
// element the current field concerns when the field changed, with every
// such element marked ("▶"); when there is none to mark, the first line
// says so.
func (p *answerPane) lines(w, h int) []string {
	it, f := p.field()
	d := p.cache.doc(it, w)
	ids, none := answerMarks(it, f)
	marked := map[int]bool{}
	first := -1
	for _, id := range ids {
		if sp, ok := d.spans[id]; ok {
			for i := sp[0]; i < sp[1]; i++ {
				marked[i] = true
			}
			if first < 0 || sp[0] < first {
				first = sp[0]
			}
		}
	}
	out := make([]string, 0, h)
	if none != "" {
		out = append(out, wrapLines([]string{p.c.Styles.Muted.Render(none)}, w)...)
		h = max(h-len(out), 1)
	}
	if cur := [2]string{it.ID, string(f.Kind) + " " + f.Target}; cur != p.following {
		p.following, p.y = cur, 0
		if first >= 0 {
			p.y = max(first-1, 0)
		}
	}
	p.y = min(p.y, max(len(d.lines)-h, 0))
	for i := p.y; i < min(p.y+h, len(d.lines)); i++ {
		l := d.lines[i]
		if marked[i] {
			l = p.c.Styles.Cited.Render("▶") + strings.TrimPrefix(l, " ")
		}
		out = append(out, l)
	}
	return out
}

// Update implements tea.Model.
func (p *answerPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(k, p.keys.Close):
		return p, p.back()
	case key.Matches(k, p.keys.Down):
		p.scroll(max(p.h-2, 1))
	case key.Matches(k, p.keys.Up):
		p.scroll(-max(p.h-2, 1))
	}
	return p, nil
}

// View implements tea.Model.
func (p *answerPane) View() tea.View {
	var head []string
	if p.head != nil {
		head = p.head(p.w)
	}
	body := p.lines(p.w, max(p.h-len(head), 1))
	return tea.NewView(strings.Join(append(head, body...), "\n"))
}

// ShortHelp implements help.KeyMap.
func (p *answerPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Down, p.keys.Up, p.keys.Close}
}

// FullHelp implements help.KeyMap.
func (p *answerPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
