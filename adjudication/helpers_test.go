package adjudication_test

import (
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/synth"
)

func testBundles(t testing.TB) *blinding.Result {
	t.Helper()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// fixedClock returns a clock that advances one second per call from a
// fixed synthetic instant.
func fixedClock() func() time.Time {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := 0
	return func() time.Time { n++; return t0.Add(time.Duration(n) * time.Second) }
}

// firstValue returns a deterministic allowed value for f (index i of the
// allowed values, modulo their number).
func valueFor(f adjudication.Field, i int) string {
	v := adjudication.AllowedValues(f.Kind)
	return v[i%len(v)]
}
