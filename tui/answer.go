package tui

import (
	"fmt"
	"strings"

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
