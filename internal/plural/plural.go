package plural

import "strconv"

// Count returns n followed by singular when n is 1 (or -1), else by
// pluralForm: Count(1, "finding", "findings") = "1 finding",
// Count(0, "finding", "findings") = "0 findings". Both forms are given by
// the caller (no English inflection rules are guessed).
func Count(n int, singular, pluralForm string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + singular
	}
	return strconv.Itoa(n) + " " + pluralForm
}
