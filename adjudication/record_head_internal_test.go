package adjudication

import (
	"encoding/json"
	"testing"
)

// TestRecordHeadIsUnmarshal: the head read that skips the large arrays
// gives encoding/json.Unmarshal's format and signer on the whole bytes,
// for canonical records and for bytes that are cased differently, have
// duplicate members, arrays where the head members stand, invalid JSON,
// trailing data or invalid UTF-8.
func TestRecordHeadIsUnmarshal(t *testing.T) {
	docs := []string{
		`{"format":"verdict-sheet-v1","signer":{"name":"ann","role":"rater","key_fingerprint":"SHA256:x"},"grades":[{"a":1}]}`,
		`{"FORMAT":"verdict-sheet-v1","Signer":{"NAME":"ann"}}`,
		`{"format":"a","format":"verdict-reveal-v1"}`,
		`{"format":[],"signer":[1,2]}`,
		`{"grades":[1,2,3],"format":"verdict-adjudication-v1"}`,
		`{"format":"verdict-sheet-v1"}}`,
		`{"format":"verdict-sheet-v1"}{}`,
		"{\"format\":\"verdict-sheet-v1\",\"signer\":{\"name\":\"a\xffb\"}}",
		`[1,2]`,
		``,
		`{"format":"verdict-sheet-v1","signer":null}`,
	}
	type head struct {
		Format string `json:"format"`
		Signer Signer `json:"signer"`
	}
	for _, d := range docs {
		var got, want head
		recordHead([]byte(d), &got)
		_ = json.Unmarshal([]byte(d), &want)
		if got != want {
			t.Errorf("%q: head %+v, Unmarshal %+v", d, got, want)
		}
	}
}
