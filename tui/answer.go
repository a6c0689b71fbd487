package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"

	"verdict/blinding"
	"verdict/campaign"
)

// mdEscaper escapes the Markdown characters that would otherwise change how
// an answer's own text renders.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "#", `\#`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "|", `\|`)

func md(s string) string { return mdEscaper.Replace(s) }

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// answerMarkdown writes a final answer as Markdown: claims, plan,
// verification, uncertainties, exclusions, citations (PROMPTS.md order).
func answerMarkdown(f *campaign.Final) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("## Claims\n\n")
	if len(f.Claims) == 0 {
		w("_none_\n\n")
	}
	for _, c := range f.Claims {
		w("- **%s** _%s_ — %s", c.ID, md(c.Status), md(c.Text))
		if len(c.EvidenceIDs) > 0 {
			w(" (evidence %s)", idList(c.EvidenceIDs))
		}
		if c.UncertaintyID != nil {
			w(" (uncertainty %s)", *c.UncertaintyID)
		}
		w("\n")
	}
	w("\n## Implementation plan\n\n")
	if len(f.ImplementationPlan) == 0 {
		w("_none_\n\n")
	}
	for _, a := range f.ImplementationPlan {
		w("- **%s** %s\n  - rationale: %s\n  - basis %s · evidence %s · verification %s\n", a.ID, md(a.Action), md(a.Rationale), md(a.SupportBasis), idList(a.EvidenceIDs), idList(a.VerificationIDs))
		if a.VerificationLimitation != nil {
			w("  - verification limitation: %s\n", md(*a.VerificationLimitation))
		}
	}
	w("\n## Verification plan\n\n")
	if len(f.VerificationPlan) == 0 {
		w("_none_\n\n")
	}
	for _, v := range f.VerificationPlan {
		w("- **%s** %s\n  - method: %s\n  - basis %s · evidence %s", v.ID, md(v.ExpectedBehavior), md(v.Method), md(v.SupportBasis), idList(v.EvidenceIDs))
		if v.UncertaintyID != nil {
			w(" · uncertainty %s", *v.UncertaintyID)
		}
		w("\n")
	}
	w("\n## Uncertainties\n\n")
	if len(f.Uncertainties) == 0 {
		w("_none_\n\n")
	}
	for _, u := range f.Uncertainties {
		w("- **%s** missing: %s\n  - consequence: %s\n  - verification step: %s\n", u.ID, md(u.MissingInformation), md(u.Consequence), md(u.VerificationStep))
	}
	w("\n## Exclusions\n\n")
	if len(f.Exclusions) == 0 {
		w("_none_\n\n")
	}
	for _, x := range f.Exclusions {
		w("- **%s** %s — %s (evidence %s)\n", x.ID, md(x.ScopeItem), md(x.Reason), idList(x.EvidenceIDs))
	}
	w("\n## Citations\n\n")
	if len(f.Citations) == 0 {
		w("_none_\n\n")
	}
	for i, c := range f.Citations {
		w("- **K%d** %s %s:%d-%d supports %s\n", i+1, c.EvidenceID, md(c.Path), c.StartLine, c.EndLine, idList(c.Supports))
	}
	return b.String()
}

// answerCache renders each item's final answer with glamour once per
// (item, width) and keeps the result.
type answerCache struct {
	style     ansi.StyleConfig
	renderers map[int]*glamour.TermRenderer
	rendered  map[answerKey][]string
	// Renders counts glamour renders (tests assert caching).
	Renders int
}

type answerKey struct {
	item  string
	width int
}

func newAnswerCache(style ansi.StyleConfig) *answerCache {
	return &answerCache{style: style, renderers: map[int]*glamour.TermRenderer{}, rendered: map[answerKey][]string{}}
}

// lines returns the rendered answer of it at width as lines.
func (a *answerCache) lines(it *blinding.Item, width int) []string {
	width = max(width, 20)
	k := answerKey{it.ID, width}
	if l, ok := a.rendered[k]; ok {
		return l
	}
	src := answerMarkdown(&it.Final)
	out := src
	r, ok := a.renderers[width]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(a.style), glamour.WithWordWrap(width-2))
		if err != nil {
			r = nil
		}
		a.renderers[width] = r
	}
	if r != nil {
		if s, err := r.Render(src); err == nil {
			out = s
		}
	}
	a.Renders++
	l := strings.Split(strings.Trim(out, "\n"), "\n")
	a.rendered[k] = l
	return l
}

// answerPane shows the current item's final answer: beside the grading
// pane on wide terminals, full screen on narrow ones. It keeps its scroll
// offset per item and starts each item at the top.
type answerPane struct {
	c     *Common
	s     *rateState
	keys  AnswerKeyMap
	cache *answerCache
	item  string // the item y belongs to
	y     int
	w, h  int
}

func newAnswerPane(c *Common, s *rateState) *answerPane {
	return &answerPane{c: c, s: s, keys: DefaultAnswerKeyMap(), cache: newAnswerCache(c.Styles.Markdown())}
}

func (p *answerPane) setEnabled() {}

// scroll moves the answer by n lines (negative: up); lines clamps it.
func (p *answerPane) scroll(n int) { p.y = max(p.y+n, 0) }

// lines returns the w×h window of the current item's rendered answer.
func (p *answerPane) lines(w, h int) []string {
	it := p.s.curItem()
	if it.ID != p.item {
		p.item, p.y = it.ID, 0
	}
	lines := p.cache.lines(it, w)
	p.y = min(p.y, max(len(lines)-h, 0))
	return lines[p.y:min(p.y+h, len(lines))]
}

// Init implements tea.Model.
func (p *answerPane) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (p *answerPane) SetSize(w, h int) { p.w, p.h = w, h }

// Update implements tea.Model.
func (p *answerPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(k, p.keys.Close):
		return p, p.s.send(showMsg{screenGrade})
	case key.Matches(k, p.keys.Down):
		p.scroll(max(p.h-2, 1))
	case key.Matches(k, p.keys.Up):
		p.scroll(-max(p.h-2, 1))
	}
	return p, nil
}

// View implements tea.Model.
func (p *answerPane) View() tea.View { return tea.NewView(strings.Join(p.lines(p.w, p.h), "\n")) }

// ShortHelp implements help.KeyMap.
func (p *answerPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Down, p.keys.Up, p.keys.Close}
}

// FullHelp implements help.KeyMap.
func (p *answerPane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
