package scorer

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/campaign"
)

func TestPacketSupport(t *testing.T) {
	src := map[string][]byte{"src/a.ts": []byte("export function f() {\n  return 1;\n}\n\nexport const g = 2;\n")}
	source := func(p string) ([]byte, bool) { b, ok := src[p]; return b, ok }
	truth := &campaign.SystemTruth{Task: "T1", RepositoryAnswerable: []campaign.SystemObligation{
		{ID: "O1", Sources: []campaign.SourceRef{{Path: "src/a.ts", StartLine: 1, EndLine: 3}}},
		{ID: "O2", Sources: []campaign.SourceRef{{Path: "src/a.ts", StartLine: 5, EndLine: 5}}},
		{ID: "O3", Sources: []campaign.SourceRef{{Path: "src/a.ts", StartLine: 2, EndLine: 2}, {Path: "src/a.ts", StartLine: 5, EndLine: 5}}},
	}}
	item := func(resp string, declared ...campaign.SourceRef) campaign.ObservationItem {
		return campaign.ObservationItem{ResponseBase64: base64.StdEncoding.EncodeToString([]byte(resp)), DeclaredSources: declared}
	}
	packet := func(status string, items ...campaign.ObservationItem) *campaign.ObservationPacket {
		return &campaign.ObservationPacket{Workflow: "W1", Status: status, Items: items}
	}
	cases := []struct {
		name string
		p    *campaign.ObservationPacket
		want []string
	}{
		// a line-numbered read shows O1's lines in order
		{"numbered read", packet(campaign.PacketDelivered, item("1\texport function f() {\n2\t  return 1;\n3\t}\n")), []string{"O1"}},
		// a JSON symbol body carries the text in a string value
		{"json body", packet(campaign.PacketDelivered, item(`{"symbols":[{"body":"export function f() {\n  return 1;\n}"}]}`)), []string{"O1"}},
		// O3 needs both spans: one observation each is enough
		{"two items", packet(campaign.PacketDelivered, item("  return 1;"), item("export const g = 2;")), []string{"O2", "O3"}},
		// declared coordinates without the text support nothing
		{"coordinates only", packet(campaign.PacketDelivered, item("f: function", campaign.SourceRef{Path: "src/a.ts", StartLine: 1, EndLine: 3})), []string{}},
		// lines out of order are not the span
		{"out of order", packet(campaign.PacketDelivered, item("}\n  return 1;\nexport function f() {")), []string{}},
		{"empty packet", packet(campaign.PacketEmpty), []string{}},
		{"over budget", packet(campaign.PacketEvidenceBudgetExceeded, item("export const g = 2;")), []string{}},
	}
	for _, c := range cases {
		got, err := PacketSupport(truth, c.p, source)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
	// A span past the file's physical lines (a final newline is no line) is refused.
	truth.RepositoryAnswerable[0].Sources[0].EndLine = 6
	if _, err := PacketSupport(truth, packet(campaign.PacketDelivered), source); !errors.Is(err, ReasonObligationSourceMissing) {
		t.Errorf("span past the end: %v", err)
	}
}

// Each citation of a system review is checked against the observation it
// names and the frozen repository; the first failing check is its finding.
func TestCitationSupport(t *testing.T) {
	src := map[string][]byte{
		"src/a.ts":    []byte("export function f() {\n  return 1;\n}\n\nexport const g = 2;\n"),
		"src/crlf.ts": []byte("let x = 1;\r\nlet y = 2;\r\n"),
	}
	source := func(p string) ([]byte, bool) { b, ok := src[p]; return b, ok }
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	packet := &campaign.ObservationPacket{Workflow: "W1", Status: campaign.PacketDelivered, Items: []campaign.ObservationItem{
		{ID: "E1", ResponseBase64: enc("1\texport function f() {\n2\t  return 1;\n3\t}\n"), DeclaredSources: []campaign.SourceRef{{Path: "src/a.ts", StartLine: 5, EndLine: 5}}},
		{ID: "E2", ResponseBase64: enc(`{"symbols":[{"body":"export const g = 2;"},{"body":"let x = 1;\nlet y = 2;"}]}`)},
	}}
	cite := func(e, p string, a, b int) campaign.Citation {
		return campaign.Citation{EvidenceID: e, Path: p, StartLine: a, EndLine: b, Supports: []string{"C1"}}
	}
	cases := []struct {
		name string
		c    campaign.Citation
		want string // "" supported, else reason@pointer suffix
	}{
		{"numbered read", cite("E1", "src/a.ts", 1, 3), ""},
		{"one line of it", cite("E1", "src/a.ts", 2, 2), ""},
		{"json string value", cite("E2", "src/a.ts", 5, 5), ""},
		{"crlf file", cite("E2", "src/crlf.ts", 1, 2), ""},
		// E1 declares line 5 but never returned its text
		{"declared only", cite("E1", "src/a.ts", 5, 5), "citation-not-visible@"},
		// the text is in E1, not in the cited E2
		{"another observation", cite("E2", "src/a.ts", 1, 3), "citation-not-visible@"},
		{"blank line", cite("E1", "src/a.ts", 4, 4), "citation-not-visible@"},
		{"unknown item", cite("E9", "src/a.ts", 1, 3), "evidence-not-in-packet@/evidence_id"},
		{"no such file", cite("E1", "src/b.ts", 1, 1), "citation-not-in-repository@/path"},
		{"phantom line after the final newline", cite("E1", "src/a.ts", 5, 6), "citation-not-in-repository@/end_line"},
		{"inverted", cite("E1", "src/a.ts", 3, 1), "citation-not-in-repository@/end_line"},
	}
	for _, c := range cases {
		got, err := CitationSupport(&campaign.Final{Citations: []campaign.Citation{cite("E1", "src/a.ts", 1, 1), c.c}}, packet, "responses/S2.json", source)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var labels []string
		for _, e := range got {
			labels = append(labels, string(e.Reason)+"@"+strings.TrimPrefix(e.Pointer, "/final/citations/1"))
			if e.File != "responses/S2.json" || !strings.HasPrefix(e.Pointer, "/final/citations/1") {
				t.Errorf("%s: finding at %s%s", c.name, e.File, e.Pointer)
			}
		}
		want := []string{}
		if c.want != "" {
			want = []string{c.want}
		}
		if !slices.Equal(append([]string{}, labels...), want) {
			t.Errorf("%s: %v, want %v", c.name, labels, want)
		}
	}
	// A packet that did not reach its review supports no citation.
	got, _ := CitationSupport(&campaign.Final{Citations: []campaign.Citation{cite("E1", "src/a.ts", 1, 3)}},
		&campaign.ObservationPacket{Workflow: "W1", Status: campaign.PacketEmpty}, "responses/S2.json", source)
	if len(got) != 1 || got[0].Reason != ReasonEvidenceNotInPacket {
		t.Errorf("empty packet: %v", got)
	}
}

// The frozen repository reader takes only clean repository-relative paths.
func TestRepositorySource(t *testing.T) {
	fsys := fstest.MapFS{"sources/r1/src/a.ts": {Data: []byte("a\n")}, "sources/r2/secret.ts": {Data: []byte("b\n")}}
	src := RepositorySource(fsys, "r1")
	if b, ok := src("src/a.ts"); !ok || string(b) != "a\n" {
		t.Errorf("src/a.ts: %q %t", b, ok)
	}
	for _, p := range []string{"../r2/secret.ts", "/src/a.ts", "src/../src/a.ts", ".", "", "src"} {
		if _, ok := src(p); ok {
			t.Errorf("%q read", p)
		}
	}
}
