package campaign

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFormatDocExamples decodes every example of docs/campaign-format.md
// with its strict decoder, so that the documented format stays true.
func TestFormatDocExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/campaign-format.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- example: ([a-z-]+) -->\n```json\n(.*?)\n```")
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		kind, data := m[1], []byte(m[2])
		seen[kind] = true
		var err error
		switch kind {
		case "manifest":
			data = []byte(strings.Replace(string(data), "RESPONSE_SCHEMA_SHA256", ResponseSchemaSHA256(), 1))
			_, err = DecodeManifest(data, kind)
		case "packet":
			var p *Packet
			if p, err = DecodePacket(data, kind); err == nil {
				for _, it := range p.Items {
					if CountPhysicalLines([]byte(it.Excerpt)) != it.EndLine-it.StartLine+1 {
						t.Errorf("item %s: excerpt line count", it.ID)
					}
				}
			}
		case "truth":
			_, err = DecodeTruth(data, kind)
		case "response-draft":
			_, err = DecodeResponse(data, kind, RoleDraft)
		case "response-review-b":
			_, err = DecodeResponse(data, kind, RoleReviewB)
		case "receipt":
			_, err = DecodeReceipt(data, kind)
		default:
			t.Errorf("unknown example kind %s", kind)
		}
		if err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if len(seen) != 6 {
		t.Fatalf("found examples %v", seen)
	}
}
