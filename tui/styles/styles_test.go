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

// TestLightTheme: the light palette darkens secondary text and the cited
// background, and NO_COLOR makes both themes colourless.
func TestLightTheme(t *testing.T) {
	dark, light := NewTheme(false, true), NewTheme(false, false)
	if dark.Muted.GetForeground() == light.Muted.GetForeground() || dark.Cited.GetBackground() == light.Cited.GetBackground() {
		t.Fatal("the light theme has the dark theme's muted text or cited background")
	}
	if light.Dark || !dark.Dark {
		t.Fatal("Dark flag")
	}
	if _, ok := NewTheme(true, false).Muted.GetForeground().(lipgloss.NoColor); !ok {
		t.Fatal("NO_COLOR light theme has a colour")
	}
}
