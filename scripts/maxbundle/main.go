// Command maxbundle writes a SYNTHETIC rater bundle of N maximum-size items
// (fixtures.MaxBundle) for measuring `verdict rate`'s first frame
// (scripts/first-frame.sh).
//
// With -grades FILE it also writes a SYNTHETIC grades file (the input of
// `verdict grade --from`) that grades every field of the first -graded
// items in bundle order with the first allowed value, to measure the
// first frame of a resumed journal.
//
// Usage: go run ./scripts/maxbundle -out FILE [-items 100] [-grades FILE -graded 50]
package main

import (
	"flag"
	"fmt"
	"os"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/fixtures"
)

func main() {
	out := flag.String("out", "", "bundle file to write")
	n := flag.Int("items", 100, "number of items")
	grades := flag.String("grades", "", "grades file to write (optional)")
	graded := flag.Int("graded", 50, "items graded in the grades file")
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
	if *grades == "" {
		return
	}
	b, err := blinding.ParseBundle(*out, data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var in []adjudication.GradeInput
	for i := range min(*graded, len(b.Items)) {
		for _, f := range adjudication.RequiredFields(&b.Items[i]) {
			in = append(in, adjudication.GradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Value: adjudication.AllowedValues(f.Kind)[0], SpentMS: 1000})
		}
	}
	gb, err := blinding.MarshalCanonical(in)
	if err == nil {
		err = os.WriteFile(*grades, gb, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("SYNTHETIC grades of the first %d items (%d fields): %s\n", min(*graded, len(b.Items)), len(in), *grades)
}
