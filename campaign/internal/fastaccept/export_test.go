package fastaccept

import "regexp"

// PatternMatcher returns the pass's matcher of a pattern keyword.
func PatternMatcher(pattern string) func([]byte) bool {
	return patternMatcher(pattern, regexp.MustCompile(pattern))
}
