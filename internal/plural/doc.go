// Package plural owns the wording of counts in human-readable output: a
// count followed by its noun in the right number ("1 finding", "2
// findings", "0 findings"), so no report prints "1 findings".
package plural
