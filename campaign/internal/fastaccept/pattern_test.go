package fastaccept_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"verdict/campaign"
	"verdict/campaign/internal/fastaccept"
)

// schemaPatterns returns every pattern keyword of the embedded schemas.
func schemaPatterns(t testing.TB) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if p, ok := x["pattern"].(string); ok && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	for _, d := range campaign.SchemaDigests() {
		b, err := campaign.SchemaBytes(d.Name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
	if len(out) < 10 {
		t.Fatalf("only %d patterns found", len(out))
	}
	return out
}

// patternSamples are strings near the patterns' edges: every string of up
// to three characters over an alphabet of the patterns' characters, and
// single-character edits of valid values.
func patternSamples() []string {
	alpha := []string{"C", "A", "V", "U", "X", "E", "O", "T", "S", "c", "0", "1", "9", "a", "f", "g", "/", ".", "-", "_", "Z", ":", "\n", "é", " ", "\x00"}
	out := []string{""}
	prev := []string{""}
	for range 3 {
		var next []string
		for _, p := range prev {
			for _, a := range alpha {
				next = append(next, p+a)
			}
		}
		out = append(out, next...)
		prev = next
	}
	valid := []string{"C1", "A10", "V99", "U1", "X7", "E12", "O3", "T1", "S10080", "C0", "C01",
		strings.Repeat("a1", 32), strings.Repeat("0f", 20), "src/a.go", "a", "a/b/c", "owner/name", "a.b-c_d/x",
		"2026-09-05T10:00:00Z", "2026-09-05T10:00:00.123456789Z", "2026-09-05T10:00:00.1234567890Z", "2026-09-05T10:00:00.Z"}
	for _, v := range valid {
		out = append(out, v, v+"\n", "\n"+v)
		for i := range len(v) + 1 {
			for _, a := range alpha {
				out = append(out, v[:i]+a+v[i:])
				if i < len(v) {
					out = append(out, v[:i]+a+v[i+1:])
				}
			}
			if i < len(v) {
				out = append(out, v[:i]+v[i+1:])
			}
		}
	}
	return out
}

// TestPatternMatchersAgreeWithRegexp: the fast pass's matcher of every
// pattern of the embedded schemas agrees with the regular expression the
// reference validator compiles (Go regexp) on valid UTF-8.
func TestPatternMatchersAgreeWithRegexp(t *testing.T) {
	samples := patternSamples()
	for _, p := range schemaPatterns(t) {
		re, m := regexp.MustCompile(p), fastaccept.PatternMatcher(p)
		for _, s := range samples {
			if !utf8.ValidString(s) {
				continue
			}
			if got, want := m([]byte(s)), re.MatchString(s); got != want {
				t.Errorf("pattern %s on %q: fast %v, regexp %v", p, s, got, want)
			}
		}
	}
}

// FuzzPatternMatchers compares the fast matchers with Go regexp on
// arbitrary valid UTF-8 strings.
func FuzzPatternMatchers(f *testing.F) {
	for _, s := range patternSamples()[:2000] {
		f.Add(s)
	}
	patterns := schemaPatterns(f)
	res := make([]*regexp.Regexp, len(patterns))
	ms := make([]func([]byte) bool, len(patterns))
	for i, p := range patterns {
		res[i], ms[i] = regexp.MustCompile(p), fastaccept.PatternMatcher(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for i := range patterns {
			if got, want := ms[i]([]byte(s)), res[i].MatchString(s); got != want {
				t.Fatalf("pattern %s on %q: fast %v, regexp %v", patterns[i], s, got, want)
			}
		}
	})
}
