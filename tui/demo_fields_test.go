package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/fixtures"
	"verdict/pipeline"
)

// demoBundle blinds the embedded SYNTHETIC campaign as verdict demo does
// (the demo's item key, raters ann and bob) and returns ann's bundle: the
// items in the demo's order.
func demoBundle(t testing.TB) *blinding.Bundle {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Blind(pipeline.DirFS(dir), blinding.Options{Key: bytes.Repeat([]byte{0x5a}, 32), Raters: []string{"ann", "bob"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Bundles[0]
}

// TestDemoFieldsNeverCut: every field of the demo bundle, at 120x40 (the
// left pane) and at 80x24 (full width), is drawn with no line wider than
// its pane, so nothing the rater judges ends in a "…" cut; and the frame
// itself shows no "…" in the pane the rater reads first where the text has
// none.
func TestDemoFieldsNeverCut(t *testing.T) {
	b := demoBundle(t)
	var err error
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}} {
		e := newRateEnv(t, b)
		m, r := newTestRater(t, e, sz.w, sz.h)
		pw := sz.w
		if r.grade.wide() {
			pw = r.w/2 - 1
		}
		n := 0
		src := make([][]byte, len(b.Items))
		for i := range b.Items {
			if src[i], err = json.Marshal(b.Items[i]); err != nil {
				t.Fatal(err)
			}
		}
		for i := range r.fields {
			r.gotoItem(i)
			r.screen, r.arrived = screenGrade, false
			for k, f := range r.fields[i] {
				r.field = k
				n++
				for _, l := range append(wrapLines(r.grade.fieldDetail(f), pw), r.grade.choices(f, pw)...) {
					if w := ansi.StringWidth(l); w > pw {
						t.Fatalf("%dx%d item %d %s: a line of %d cells in a pane of %d:\n%s", sz.w, sz.h, i+1, fieldLabel(f), w, pw, ansi.Strip(l))
					}
				}
				for _, l := range strings.Split(screen(m), "\n")[1 : 1+r.h] {
					left, _, _ := strings.Cut(l, "│")
					if strings.Contains(left, "…") && !bytes.Contains(src[i], []byte("…")) {
						t.Fatalf("%dx%d item %d %s: cut line in the left pane:\n%s", sz.w, sz.h, i+1, fieldLabel(f), screen(m))
					}
				}
			}
		}
		if n < 400 {
			t.Fatalf("%dx%d: only %d fields checked", sz.w, sz.h, n)
		}
	}
}

// TestAnswerMarksLinkedParts: an obligation field marks the answer's
// elements that use its evidence; one whose evidence nothing in the answer
// uses says there is nothing to mark; an uncertainty field marks the
// answer's uncertainties.
func TestAnswerMarksLinkedParts(t *testing.T) {
	b := synthBundle(1)
	it := &b.Items[0]
	ob := adjudication.Field{Item: it.ID, Kind: adjudication.KindObligation, Target: it.Obligations[0].ID}
	ids, none := answerMarks(it, ob)
	if none != "" || len(ids) == 0 {
		t.Fatalf("obligation %s: marks %v, none %q", ob.Target, ids, none)
	}
	it.Obligations[0].EvidenceIDs = []string{"E99"}
	ids, none = answerMarks(it, ob)
	if len(ids) != 0 || !strings.Contains(none, "nothing to mark") || !strings.Contains(none, "E99") {
		t.Fatalf("uncited obligation: marks %v, none %q", ids, none)
	}
	c := &Common{Styles: testOptions(80, 24).styles()}
	p := newAnswerPane(c, func() (*blinding.Item, adjudication.Field) { return it, ob }, nil)
	if l := ansi.Strip(p.lines(60, 20)[0]); !strings.HasPrefix(l, "nothing to mark") {
		t.Fatalf("pane's first line %q", l)
	}
	un := adjudication.Field{Item: it.ID, Kind: adjudication.KindUncertainty, Target: it.Obligations[0].ID}
	ids, _ = answerMarks(it, un)
	for _, u := range it.Final.Uncertainties {
		if !slices.Contains(ids, u.ID) {
			t.Fatalf("uncertainty field does not mark %s: %v", u.ID, ids)
		}
	}
}

// TestFooterKeepsGlobalKeys: on every field of the demo bundle's first
// items, at 120 and 80 columns, the footer ends with "? help • q quit"
// and fits the width.
func TestFooterKeepsGlobalKeys(t *testing.T) {
	b := demoBundle(t)
	for _, w := range []int{120, 80} {
		e := newRateEnv(t, b)
		m, r := newTestRater(t, e, w, 40)
		for range 60 {
			lines := strings.Split(screen(m), "\n")
			foot := strings.TrimRight(lines[len(lines)-1], " ")
			if !strings.HasSuffix(foot, "? help • q quit") || ansi.StringWidth(foot) > w {
				t.Fatalf("%d columns, %s: footer %q", w, fieldLabel(r.cur()), foot)
			}
			m = press(m, "j")
		}
	}
}
