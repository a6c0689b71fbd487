package par_test

import (
	"sync/atomic"
	"testing"

	"verdict/internal/par"
)

// For calls f once for every index, never twice at once for one worker,
// and returns only when every call has returned.
func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64, 1000} {
		calls := make([]atomic.Int32, n)
		busy := make([]atomic.Int32, par.Workers())
		par.For(n, func(worker, i int) {
			if busy[worker].Add(1) != 1 {
				t.Errorf("worker %d runs two calls at once", worker)
			}
			calls[i].Add(1)
			busy[worker].Add(-1)
		})
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
}
