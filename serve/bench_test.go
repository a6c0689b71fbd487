package serve_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"verdict/blinding"
	"verdict/internal/synth"
)

// benchRaters is how many raters the benchmark connects at once.
const benchRaters = 10

// BenchmarkTenRatersKeystrokeToFrame connects benchRaters raters at once
// to a server in its own process, each with its own bundle, journal and
// key, and has each move between fields (j, k) with a 10 ms pause:
// every key's latency is the time from writing it to the first bytes of
// the frame it causes, over loopback. It reports the median and 99th
// percentile in ms and the server process's peak resident memory
// (VmHWM) in total and per rater, in MB.
func BenchmarkTenRatersKeystrokeToFrame(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("peak memory is read from /proc")
	}
	dir := filepath.Join(b.TempDir(), "ratings")
	os.Mkdir(dir, 0o755)
	var names, lines []string
	keys := map[string]any{}
	for i := 1; i <= benchRaters; i++ {
		n := fmt.Sprintf("r%02d", i)
		k, line := newKey(b)
		names, keys[n] = append(names, n), k
		lines = append(lines, n+` namespaces="verdict-rating" `+line)
	}
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: names})
	if err != nil {
		b.Fatal(err)
	}
	for i, bd := range res.Bundles {
		os.WriteFile(filepath.Join(dir, "bundle-"+bd.Rater+".json"), res.BundleBytes[i], 0o644)
	}
	os.WriteFile(filepath.Join(dir, "allowed_signers"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	cmd, ts := serverProcess(b, dir)
	clients := make([]*client, benchRaters)
	for i, n := range names {
		cl, err := dial(b, ts, keys[n], dialOpts{pty: true})
		if err != nil {
			b.Fatal(err)
		}
		waitFor(b, n+"'s first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
		cl.keys(b, "\x1b")
		clients[i] = cl
	}
	time.Sleep(300 * time.Millisecond)
	perRater := max(b.N/benchRaters, 20)
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, cl := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, perRater)
			for i := range perRater {
				select {
				case <-cl.out.notify:
				default:
				}
				k := "j"
				if i%2 == 1 {
					k = "k"
				}
				t0 := time.Now()
				if _, err := cl.in.Write([]byte(k)); err != nil {
					b.Error(err)
					return
				}
				select {
				case <-cl.out.notify:
					mine = append(mine, time.Since(t0))
				case <-time.After(5 * time.Second):
					b.Error("no frame within 5 s")
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no latency measured")
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
	b.ReportMetric(float64(len(lat)), "keys")
	peak := vmHWM(b, cmd.Process.Pid)
	b.ReportMetric(peak, "server-peak-MB")
	b.ReportMetric(peak/benchRaters, "MB/rater")
}

// vmHWM returns the peak resident set size of process pid in MB.
func vmHWM(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM")
	return 0
}
