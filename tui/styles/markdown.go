package styles

import (
	"encoding/json"

	"charm.land/glamour/v2/ansi"
	glamourstyles "charm.land/glamour/v2/styles"
)

// Markdown returns the glamour style for rendering final answers: glamour's
// dark style, and under NO_COLOR the same style with every colour removed
// (bold, italic and list markers stay).
func (s *Styles) Markdown() ansi.StyleConfig {
	cfg := glamourstyles.DarkStyleConfig
	if !s.NoColor {
		return cfg
	}
	// Remove every "color" and "background_color" member at any depth.
	raw, err := json.Marshal(cfg)
	if err != nil {
		return glamourstyles.NoTTYStyleConfig
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return glamourstyles.NoTTYStyleConfig
	}
	var strip func(v any)
	strip = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			delete(t, "color")
			delete(t, "background_color")
			for _, c := range t {
				strip(c)
			}
		case []any:
			for _, c := range t {
				strip(c)
			}
		}
	}
	strip(tree)
	raw, err = json.Marshal(tree)
	if err != nil {
		return glamourstyles.NoTTYStyleConfig
	}
	var out ansi.StyleConfig
	if err := json.Unmarshal(raw, &out); err != nil {
		return glamourstyles.NoTTYStyleConfig
	}
	return out
}
