package buildinfo_test

import (
	"runtime/debug"
	"testing"

	"verdict/internal/buildinfo"
)

func TestFromInfoKeepsUnknownsNil(t *testing.T) {
	b := buildinfo.FromInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "verdict", Version: "(devel)"}})
	if b.Revision != nil || b.Time != nil || b.Modified != nil {
		t.Fatalf("unknown VCS values were filled: %+v", b)
	}
	if got, want := b.String(), "verdict (devel) revision unknown go1.26.8"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestFromInfoReadsVCS(t *testing.T) {
	b := buildinfo.FromInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "verdict", Version: "v0.1.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.time", Value: "2026-09-05T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}})
	if got, want := b.String(), "verdict v0.1.0 revision 0123abc (2026-09-05T10:00:00Z, modified) go1.26.8"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}
