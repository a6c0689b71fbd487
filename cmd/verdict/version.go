package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"verdict/internal/buildinfo"
)

// newVersionCmd is `verdict version`: the running build's module path and
// version, VCS revision and time, and Go version (buildinfo.Build), the same
// values every report's provenance records.
func newVersionCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the build: module version, VCS revision, Go version",
		Long: `Print the build of this verdict binary: module path and version, the VCS
revision and commit time it was built from (unknown when the build has no
VCS information, as with go run -buildvcs=false or a test binary), whether
the work tree had uncommitted changes, and the Go version. report.json and
report.md record the same values under provenance.`,
		Args: cobra.NoArgs,
	}
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		b := buildinfo.Read()
		if *format == "json" {
			return writeJSON(a.stdout, b)
		}
		if _, err := fmt.Fprintln(a.stdout, b.String()); err != nil {
			return err
		}
		if b.Revision == nil {
			// Say why, so that a missing revision is not read as a failed install.
			_, err := fmt.Fprintln(a.stdout, "revision unknown: this binary carries no VCS stamp (built with -buildvcs=false, e.g. through GOFLAGS, or outside a git work tree); reports record it as null")
			return err
		}
		return nil
	}
	return c
}
