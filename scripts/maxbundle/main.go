// Command maxbundle writes a SYNTHETIC rater bundle of N maximum-size items
// (fixtures.MaxBundle) for measuring `verdict rate`'s first frame
// (scripts/first-frame.sh).
//
// Usage: go run ./scripts/maxbundle -out FILE [-items 100]
package main

import (
	"flag"
	"fmt"
	"os"

	"verdict/fixtures"
)

func main() {
	out := flag.String("out", "", "bundle file to write")
	n := flag.Int("items", 100, "number of items")
	flag.Parse()
	if *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: maxbundle -out FILE [-items N]")
		os.Exit(2)
	}
	data, err := fixtures.MaxBundle(*n)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("SYNTHETIC bundle of %d maximum-size items: %s (%d bytes)\n", *n, *out, len(data))
}
