package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
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
		case "system-manifest":
			data = []byte(strings.Replace(string(data), "RESPONSE_SCHEMA_SHA256", ResponseSchemaSHA256(), 1))
			_, err = DecodeSystemManifest(data, kind)
		case "system-truth":
			_, err = DecodeSystemTruth(data, kind)
		case "observation-log":
			_, err = DecodeObservationLog(data, kind)
		case "observation-packet":
			var log []byte
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				if m[1] == "observation-log" {
					log = []byte(m[2] + "\n")
				}
			}
			// The documented packet is the packetizer's packet of the
			// documented log, byte for byte (the examples omit the final newline).
			var want []byte
			if want, _, err = BuildObservationPacket(log, kind); err == nil {
				if string(data)+"\n" != string(want) {
					t.Errorf("the documented packet is not the packetizer's packet of the documented log")
				}
				_, err = DecodeObservationPacket(data, kind)
			}
		case "system-receipt":
			_, err = DecodeSystemReceipt(data, kind)
		case "setup":
			_, err = DecodeSetup(data, kind)
		case "responses-api-log":
			// A run log is read by receipt import: assemble's
			// TestDocResponsesLogExample parses this example.
		default:
			t.Errorf("unknown example kind %s", kind)
		}
		if err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if len(seen) != 13 {
		t.Fatalf("found examples %v", seen)
	}
}

// TestPromptBytesDocExample renders the worked example of
// docs/campaign-format.md "Delivered input and output" with RenderPrompt
// and checks the bytes, SHA-256 and byte count the document states.
func TestPromptBytesDocExample(t *testing.T) {
	b, err := os.ReadFile("../docs/campaign-format.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	block := func(kind, lang string) string {
		m := regexp.MustCompile("(?s)<!-- prompt-example: " + kind + " -->\n```" + lang + "\n(.*?)\n```").FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("no prompt-example %s", kind)
		}
		return m[1]
	}
	var in struct {
		Role  Role              `json:"role"`
		Texts map[string]string `json:"texts"`
		Task  string            `json:"task"`
		Items []EvidenceItem    `json:"items"`
	}
	if err := json.Unmarshal([]byte(block("inputs", "json")), &in); err != nil {
		t.Fatal(err)
	}
	texts := map[string][]byte{}
	for k, v := range in.Texts {
		texts[k] = []byte(v)
	}
	got, err := RenderPrompt(in.Role, texts, &Task{Entry: TaskEntry{ID: "T1"}, Text: []byte(in.Task), Packet: Packet{Task: "T1", Items: in.Items}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := block("rendered", "text") + "\n"; string(got) != want {
		t.Errorf("rendered bytes differ from the document:\n%q\nwant\n%q", got, want)
	}
	m := regexp.MustCompile("<!-- prompt-example: digest -->\n`input_sha256` `([0-9a-f]{64})`, `input_bytes` ([0-9]+)\\.").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("no prompt-example digest line")
	}
	sum := sha256.Sum256(got)
	if hex.EncodeToString(sum[:]) != m[1] || strconv.Itoa(len(got)) != m[2] {
		t.Errorf("document states %s (%s bytes); rendered %x (%d bytes)", m[1], m[2], sum, len(got))
	}
}
