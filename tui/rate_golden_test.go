package tui

import (
	"fmt"
	"slices"
	"testing"
	"verdict/adjudication"
	"verdict/blinding"

	"github.com/charmbracelet/x/exp/golden"
)

func TestRateGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, tc := range []struct {
			name string
			keys []string
		}{
			{"start", nil},
			{"graded_two", []string{"1", "2"}},
			{"claim", []string{"1", "2", "1"}},
			{"citation", []string{"1", "2", "1", "1", "2", "1", "1", "2"}},
			{"list", []string{"1", "l"}},
			{"note", []string{"1", "k", "m", "o", "k"}},
			{"oracle", []string{"o"}},
			{"evidence", []string{"e"}},
			{"answer", []string{"a"}},
			{"freeze_refused", []string{"F"}},
			{"help", []string{"?"}},
			{"task", []string{"t"}},
			{"codebook", []string{"g"}},
			{"next_item_arrival", []string{"n"}},
			{"note_before_grading", []string{"m", "w", "h", "y", "enter"}},
			{"answer_follows_claim", []string{"1", "2", "1", "1", "a"}},
			{"search", []string{"/", "r", "e", "s", "e", "t", "enter"}},
			{"flagged_list", []string{"f", "l"}},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, sz.w, sz.h), func(t *testing.T) {
				e := newRateEnv(t, synthBundle(3))
				m, _ := newTestRater(t, e, sz.w, sz.h)
				m = press(m, tc.keys...)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

// TestRateGoldenArrival: the first frame shows the first item's task.
func TestRateGoldenArrival(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := newArrivingRater(newRateEnv(t, synthBundle(3)), sz.w, sz.h)
			golden.RequireEqual(t, screen(m))
		})
	}
}

// TestRateGoldenMaxItem: on a maximum-size answer, citation K108's field
// shows its cited lines and supported statement in full, and the answer
// (beside it, or full screen on a) is scrolled to K108 and marks it.
func TestRateGoldenMaxItem(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, tc := range []struct {
			name string
			keys []string
		}{{"k108", nil}, {"k108_answer", []string{"a"}}} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, sz.w, sz.h), func(t *testing.T) {
				b := synthBundle(0)
				b.Items = []blinding.Item{maxItem("item-00000000000000ff")}
				m, r := newTestRater(t, newRateEnv(t, b), sz.w, sz.h)
				r.field = slices.Index(r.fields[0], adjudication.Field{Item: b.Items[0].ID, Kind: adjudication.KindCitation, Target: "K108"})
				r.setEnabled()
				m = press(m, tc.keys...)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

func TestRateFreezeGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("confirm_%dx%d", sz.w, sz.h), func(t *testing.T) {
			e := newRateEnv(t, synthBundle(1))
			m, r := newTestRater(t, e, sz.w, sz.h)
			gradeAll(t, m, r)
			m = press(m, "F")
			golden.RequireEqual(t, screen(m))
		})
	}
}

// TestRateFreezeGoldenFlagged: the signing screen counts and names the
// items still flagged to come back to, and y still signs.
func TestRateFreezeGoldenFlagged(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("flagged_%dx%d", sz.w, sz.h), func(t *testing.T) {
			e := newRateEnv(t, synthBundle(3))
			m, r := newTestRater(t, e, sz.w, sz.h)
			m = press(m, "f", "l", "j", "j", "f", "esc")
			gradeAll(t, m, r)
			m = press(m, "F")
			golden.RequireEqual(t, screen(m))
			if !r.freeze.keys.Confirm.Enabled() {
				t.Fatal("flags keep the rater from signing")
			}
		})
	}
}
