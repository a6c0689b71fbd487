package scorer

import (
	"bytes"
	"encoding/base64"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/campaign"
	"verdict/verr"
)

// ReasonObligationSourceMissing: a repository-answerable obligation names
// a source span that the frozen repository snapshot does not hold.
const ReasonObligationSourceMissing verr.Reason = "obligation-source-missing"

// PacketSupport returns, in truth order, the repository-answerable
// obligations of truth that a workflow's raw-observation packet supports:
// the text of every source span of the obligation is visible in one
// delivered observation. Visible means every nonblank line of the span,
// trimmed of surrounding white space, occurs in order in the observation's
// response bytes, or in one string value of the response when it is JSON
// (provider output that carries source in JSON strings). Provider-declared
// coordinates alone support nothing: citations need text visible in the
// returned observation (PROMPTS.md packet procedure). A packet that did not
// reach its review (empty or evidence_budget_exceeded) supports nothing;
// the denominator is unchanged either way (CONTRACT §6). source returns
// the frozen repository file at a repository-relative path; a span outside
// it is refused with ReasonObligationSourceMissing.
func PacketSupport(truth *campaign.SystemTruth, packet *campaign.ObservationPacket, source func(path string) ([]byte, bool)) ([]string, error) {
	out := []string{}
	if packet == nil || packet.Status != campaign.PacketDelivered {
		return out, nil
	}
	items, err := observationTexts(packet)
	if err != nil {
		return nil, err
	}
	var texts [][]byte
	for _, t := range items {
		texts = append(texts, t...)
	}
	for i, o := range truth.RepositoryAnswerable {
		supported := len(o.Sources) > 0
		for j, ref := range o.Sources {
			data, ok := source(ref.Path)
			lines, inFile := visibleSpan(data, ref)
			if !ok || !inFile {
				return nil, verr.Newf(ReasonObligationSourceMissing, campaign.TruthPath(truth.Task), fmt.Sprintf("/repository_answerable/%d/sources/%d", i, j), "CONTRACT §6",
					"%s lines %d-%d are not in the frozen repository", ref.Path, ref.StartLine, ref.EndLine)
			}
			if !visibleIn(lines, texts) {
				supported = false
			}
		}
		if supported {
			out = append(out, o.ID)
		}
	}
	return out, nil
}

// visibleSpan returns the trimmed nonblank lines startLine..endLine of a
// frozen repository file (campaign.SourceLines: 1-based, inclusive,
// physical lines, a final line break makes no extra line), and false when
// the span lies outside the file's physical lines.
func visibleSpan(data []byte, ref campaign.SourceRef) ([][]byte, bool) {
	all, ok := campaign.SourceLines(data, ref.StartLine, ref.EndLine)
	if !ok {
		return nil, false
	}
	var out [][]byte
	for _, l := range all {
		if t := bytes.TrimSpace(l); len(t) > 0 {
			out = append(out, t)
		}
	}
	return out, true
}

// observationTexts returns, per item of a delivered packet in order, the
// texts visible in its returned observation: the response bytes and, when
// they are one JSON value, each of its string values.
func observationTexts(packet *campaign.ObservationPacket) ([][][]byte, error) {
	out := make([][][]byte, len(packet.Items))
	for i, it := range packet.Items {
		b, err := base64.StdEncoding.DecodeString(it.ResponseBase64)
		if err != nil {
			return nil, verr.Newf(campaign.ReasonSchema, campaign.PacketFile(packet.Workflow), fmt.Sprintf("/items/%d/response_base64", i), "PROMPTS.md packet procedure", "response is not base64: %v", err)
		}
		out[i] = append([][]byte{b}, jsonStrings(b)...)
	}
	return out, nil
}

// visibleIn reports whether lines occur in order inside one of texts.
func visibleIn(lines [][]byte, texts [][]byte) bool {
	for _, t := range texts {
		rest, ok := t, true
		for _, l := range lines {
			k := bytes.Index(rest, l)
			if k < 0 {
				ok = false
				break
			}
			rest = rest[k+len(l):]
		}
		if ok {
			return true
		}
	}
	return false
}

// jsonStrings returns every string value of b when b is one JSON value,
// nil otherwise.
func jsonStrings(b []byte) [][]byte {
	var v any
	if jsonv2.Unmarshal(b, &v) != nil {
		return nil
	}
	var out [][]byte
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, []byte(x))
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
