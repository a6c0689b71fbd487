package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// searchRate finds q in every item: its ID, its task, the fields'
// context (obligations, claims, citations, exclusions, their IDs) and the
// rest of its answer.
func (r *rater) searchRate(q string) []searchHit {
	var hits []searchHit
	add := func(h searchHit) bool {
		hits = append(hits, h)
		return len(hits) < maxHits
	}
	lq := strings.ToLower(q)
	for i := range r.fields {
		it := r.shownItem(i)
		label := fmt.Sprintf("item %d", i+1)
		if strings.Contains(strings.ToLower(it.ID), lq) && !add(searchHit{i, -1, label, it.ID}) {
			return hits
		}
		if t := matchIn(it.TaskText, q, r.w-20); t != "" && !add(searchHit{i, -1, label + " task", t}) {
			return hits
		}
		for k, f := range r.fields[i] {
			text := ansi.Strip(strings.Join(fieldContext(r.c.Styles, it, f), " "))
			t := matchIn(text, q, r.w-30)
			if strings.EqualFold(f.Target, q) && t == "" {
				t = text
			}
			if t != "" && !add(searchHit{i, k, label + " " + fieldLabel(f), t}) {
				return hits
			}
		}
		d := r.answer.cache.doc(it, 200)
		for _, id := range answerRest(it) {
			sp := d.spans[id]
			text := ansi.Strip(strings.Join(d.lines[sp[0]:sp[1]], " "))
			if t := matchIn(text, q, r.w-20); t != "" && !add(searchHit{i, -1, label + " " + id, t}) {
				return hits
			}
		}
	}
	return hits
}
