package adjudication

import (
	"errors"
	"testing"
	"time"
	"verdict/verr"
)

// TestDecodeGradesFile: a negative spent_ms, an unknown or duplicate key and
// malformed JSON are refused with ReasonMalformedGrades naming the file and
// the JSON pointer; a valid file decodes.
func TestDecodeGradesFile(t *testing.T) {
	ok := `[{"item":"I1","kind":"claim","target":"C1","value":"supported","spent_ms":1500},{"item":"I1","kind":"completeness","target":"final","value":"no_false_claim"}]`
	in, err := DecodeGradesFile("g.json", []byte(ok))
	if err != nil || len(in) != 2 || in[0].Grade().Spent != 1500*time.Millisecond || in[1].SpentMS != 0 {
		t.Fatalf("%+v %v", in, err)
	}
	for _, c := range []struct{ name, data, pointer string }{
		{"negative spent_ms", `[{"item":"I1","kind":"claim","target":"C1","value":"supported"},{"item":"I1","kind":"claim","target":"C2","value":"supported","spent_ms":-5}]`, "/1/spent_ms"},
		{"unknown key", `[{"item":"I1","kind":"claim","target":"C1","value":"supported","spent":5}]`, "/0/spent"},
		{"duplicate key", `[{"item":"I1","item":"I2","kind":"claim","target":"C1","value":"supported"}]`, "/0/item"},
		{"wrong type", `[{"item":"I1","kind":"claim","target":"C1","value":"supported","spent_ms":"5"}]`, "/0/spent_ms"},
		{"null", `null`, ""},
		{"not JSON", `[{`, ""},
	} {
		_, err := DecodeGradesFile("g.json", []byte(c.data))
		var ce *verr.Error
		if !errors.As(err, &ce) || !errors.Is(err, ReasonMalformedGrades) || ce.File != "g.json" || (c.pointer != "" && ce.Pointer != c.pointer) {
			t.Errorf("%s: %#v, want %s at %q", c.name, err, ReasonMalformedGrades, c.pointer)
		}
	}
}
