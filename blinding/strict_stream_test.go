package blinding

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestUnmarshalStrictFrom checks the streamed strict decoder against
// UnmarshalStrict and refuses a document whose bytes change between reads.
func TestUnmarshalStrictFrom(t *testing.T) {
	type doc struct {
		Format string   `json:"format"`
		Items  []string `json:"items"`
	}
	good, err := MarshalCanonical(doc{Format: "f", Items: []string{"a", "<b>", "é"}})
	if err != nil {
		t.Fatal(err)
	}
	opener := func(reads ...[]byte) Opener {
		n := 0
		return func() (io.ReadCloser, error) {
			b := reads[min(n, len(reads)-1)]
			n++
			return io.NopCloser(bytes.NewReader(b)), nil
		}
	}
	for name, data := range map[string][]byte{
		"canonical":      good,
		"reformatted":    bytes.ReplaceAll(good, []byte("\n  "), []byte("\n ")),
		"trailing space": append(bytes.Clone(good), ' '),
		"unknown member": bytes.Replace(good, []byte(`"format"`), []byte(`"x": 1, "format"`), 1),
		"not json":       good[:len(good)-3],
	} {
		var want, got doc
		errWant := UnmarshalStrict("f.json", data, &want)
		errGot := UnmarshalStrictFrom("f.json", opener(data), Digest(data), &got)
		if (errWant == nil) != (errGot == nil) || errWant != nil && errWant.Error() != errGot.Error() {
			t.Errorf("%s: error %v, want %v", name, errGot, errWant)
		}
		if errWant == nil && (got.Format != want.Format || len(got.Items) != len(want.Items)) {
			t.Errorf("%s: decoded %+v, want %+v", name, got, want)
		}
	}
	other := bytes.Replace(good, []byte(`"a"`), []byte(`"z"`), 1)
	for name, o := range map[string]Opener{
		"changed before decoding":  opener(other),
		"changed before comparing": opener(good, other),
	} {
		var d doc
		if err := UnmarshalStrictFrom("f.json", o, Digest(good), &d); !errors.Is(err, ReasonChangedWhileRead) {
			t.Errorf("%s: err = %v, want %s", name, err, ReasonChangedWhileRead)
		}
	}
}
