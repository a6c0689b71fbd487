package fastaccept

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// patternMatcher returns a hand-written matcher equivalent to the regular
// expression pattern on valid UTF-8 input, for the pattern shapes of the
// embedded schemas, or re.Match for any other pattern. The tests compare
// each hand-written matcher with the regular expression.
func patternMatcher(pattern string, re *regexp.Regexp) func([]byte) bool {
	if m := idPatternShape.FindStringSubmatch(pattern); m != nil {
		// ^P[1-9][0-9]*$ or ^[PQ…][1-9][0-9]*$ with ASCII letters P, Q, …
		set := strings.Trim(m[1], "[]")
		return func(s []byte) bool {
			if len(s) < 2 || strings.IndexByte(set, s[0]) < 0 || s[1] < '1' || s[1] > '9' {
				return false
			}
			for _, c := range s[2:] {
				if c < '0' || c > '9' {
					return false
				}
			}
			return true
		}
	}
	if m := hexPatternShape.FindStringSubmatch(pattern); m != nil {
		n, _ := strconv.Atoi(m[1])
		return func(s []byte) bool {
			if len(s) != n {
				return false
			}
			for _, c := range s {
				if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
					return false
				}
			}
			return true
		}
	}
	switch pattern {
	case `^[^/]+(/[^/]+)*$`:
		// Non-empty slash-separated segments, none empty.
		return func(s []byte) bool {
			return len(s) > 0 && s[0] != '/' && s[len(s)-1] != '/' && !bytes.Contains(s, []byte("//"))
		}
	case `^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$`:
		return func(s []byte) bool {
			i := bytes.IndexByte(s, '/')
			return i > 0 && i < len(s)-1 && repoChars(s[:i]) && repoChars(s[i+1:])
		}
	case `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`:
		return func(s []byte) bool {
			const shape = "dddd-dd-ddTdd:dd:dd"
			if len(s) < len(shape)+1 || s[len(s)-1] != 'Z' {
				return false
			}
			for i := range len(shape) {
				if shape[i] == 'd' && (s[i] < '0' || s[i] > '9') || shape[i] != 'd' && s[i] != shape[i] {
					return false
				}
			}
			frac := s[len(shape) : len(s)-1]
			if len(frac) == 0 {
				return true
			}
			if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
				return false
			}
			for _, c := range frac[1:] {
				if c < '0' || c > '9' {
					return false
				}
			}
			return true
		}
	}
	return re.Match
}

var (
	idPatternShape  = regexp.MustCompile(`^\^([A-Z]|\[[A-Z]+\])\[1-9\]\[0-9\]\*\$$`)
	hexPatternShape = regexp.MustCompile(`^\^\[0-9a-f\]\{([1-9][0-9]?)\}\$$`)
)

// repoChars reports whether s is non-empty and only holds A-Z a-z 0-9 . _ -.
func repoChars(s []byte) bool {
	for _, c := range s {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return len(s) > 0
}
