// Package buildinfo reads which verdict build is running from the Go build
// information embedded in the binary (module path and version, VCS revision,
// commit time and whether the work tree had uncommitted changes), for
// `verdict version` and the provenance of every report.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Build identifies one verdict binary. A value the build information does
// not hold (a test binary, a build with -buildvcs=false) is nil and is shown
// as unknown, never guessed.
type Build struct {
	// Module is the main module's path ("verdict").
	Module string `json:"module"`
	// Version is the main module's version: a tag or pseudo-version for a
	// `go install module@version`, "(devel)" for a build from a clone.
	Version string `json:"version"`
	// GoVersion is the Go toolchain that built the binary.
	GoVersion string `json:"go_version"`
	// Revision is the VCS commit the binary was built from (vcs.revision).
	Revision *string `json:"vcs_revision"`
	// Time is the commit time of Revision, RFC 3339 (vcs.time).
	Time *string `json:"vcs_time"`
	// Modified is true when the work tree had uncommitted changes
	// (vcs.modified).
	Modified *bool `json:"vcs_modified"`
}

// Read returns the running binary's Build. Without build information (which
// only a binary built without module support lacks) Module and Version are
// "unknown".
func Read() Build {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Build{Module: "unknown", Version: "unknown", GoVersion: "unknown"}
	}
	return FromInfo(bi)
}

// FromInfo extracts a Build from Go build information.
func FromInfo(bi *debug.BuildInfo) Build {
	b := Build{Module: bi.Main.Path, Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if b.Module == "" {
		b.Module = "unknown"
	}
	if b.Version == "" {
		b.Version = "unknown"
	}
	for _, s := range bi.Settings {
		v := s.Value
		switch s.Key {
		case "vcs.revision":
			b.Revision = &v
		case "vcs.time":
			b.Time = &v
		case "vcs.modified":
			m := v == "true"
			b.Modified = &m
		}
	}
	return b
}

// String is the one-line form `verdict version` prints:
// "verdict MODULE VERSION revision REV (TIME, modified) GO".
func (b Build) String() string {
	rev := "unknown"
	if b.Revision != nil {
		rev = *b.Revision
	}
	s := b.Module + " " + b.Version + " revision " + rev
	var extra []string
	if b.Time != nil {
		extra = append(extra, *b.Time)
	}
	if b.Modified != nil && *b.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s + " " + b.GoVersion
}
