package styles

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestNoColorHasNoColour(t *testing.T) {
	s := New(true)
	for name, st := range map[string]lipgloss.Style{"title": s.Title, "finding": s.Finding, "ok": s.OK, "cited": s.Cited, "muted": s.Muted} {
		if _, ok := st.GetForeground().(lipgloss.NoColor); !ok {
			t.Errorf("%s: foreground %v under NO_COLOR", name, st.GetForeground())
		}
		if _, ok := st.GetBackground().(lipgloss.NoColor); !ok {
			t.Errorf("%s: background %v under NO_COLOR", name, st.GetBackground())
		}
		out := st.Render("x")
		if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
			t.Errorf("%s: colour escape in %q", name, out)
		}
	}
}

func TestColourWithoutNoColor(t *testing.T) {
	s := New(false)
	if _, ok := s.Finding.GetForeground().(lipgloss.NoColor); ok {
		t.Fatal("finding style has no colour with colours enabled")
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if !FromEnv().NoColor {
		t.Fatal("NO_COLOR=1 not respected")
	}
	t.Setenv("NO_COLOR", "")
	if FromEnv().NoColor {
		t.Fatal("empty NO_COLOR disabled colour")
	}
}

func TestMarkdownNoColor(t *testing.T) {
	cfg := New(true).Markdown()
	if cfg.Document.Color != nil || cfg.H2.Color != nil || cfg.Link.Color != nil {
		t.Fatal("colour left in the NO_COLOR markdown style")
	}
	if cfg.Strong.Bold == nil || !*cfg.Strong.Bold {
		t.Fatal("bold lost")
	}
	if New(false).Markdown().H1.BackgroundColor == nil {
		t.Fatal("colour style has no colour")
	}
}
