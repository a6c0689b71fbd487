package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestHoldGCRestores: rate holds the collector off while it loads a
// bundle and restores the GC percentage and the memory limit it found,
// once, however often release is called; the limit it sets while holding
// grows with the bundle and never exceeds one the user set.
func TestHoldGCRestores(t *testing.T) {
	// Not parallel: it changes process-wide settings.
	path := filepath.Join(t.TempDir(), "bundle.json")
	if err := os.WriteFile(path, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	pct := debug.SetGCPercent(77)
	lim := debug.SetMemoryLimit(1 << 40)
	defer func() { debug.SetGCPercent(pct); debug.SetMemoryLimit(lim) }()
	release := holdGC(path)
	if got := debug.SetMemoryLimit(-1); got != 256<<20+8<<20 {
		t.Errorf("held limit %d, want 256 MiB + 8 × 1 MiB", got)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent while held: %d, want off", got)
	}
	release()
	release()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent after release: %d, want 77", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after release: %d, want the one found", got)
	}
	debug.SetMemoryLimit(64 << 20)
	release = holdGC(path)
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("held limit %d, want the lower limit the user set", got)
	}
	release()
}
