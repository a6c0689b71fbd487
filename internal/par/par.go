// Package par runs the independent steps of one piece of work side by
// side on the machine's processors (GOMAXPROCS): it owns verdict's one
// parallel loop, so that every package bounds its goroutines alike.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines For runs its steps on at most:
// GOMAXPROCS. A caller keeps one scratch value per worker in a slice of
// this length.
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls f(worker, i) for every i in 0 … n-1 on min(n, Workers())
// goroutines, each taking the next i when it is done with one, and
// returns when every call has returned. worker (0 … Workers()-1) names
// the goroutine making the call: no two calls with the same worker run at
// once. The calls' order is not defined; f must not depend on it.
func For(n int, f func(worker, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for worker := range min(n, Workers()) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(worker, i)
			}
		})
	}
	wg.Wait()
}
