package scorer

import (
	"encoding/base64"
	"errors"
	"slices"
	"testing"

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
