package blinding

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestMatchesEqualsContainsWord checks the indexed matcher against the
// token-by-token definition (containsWord) on random texts: the same
// tokens, word-edged or not, in the same order.
func TestMatchesEqualsContainsWord(t *testing.T) {
	alphabet := []string{"a", "b", "s", "1", "2", "_", "-", " ", ".", "é", "ß", "\u00a0", "review", "arm"}
	tokens := []string{"a", "ab", "s1", "s12", "s2", "arm a", "arm", "review-a", "review_a", "a-", "-b", " a", "é", "éa", "b.", "1", "a1 b2", "ß"}
	sc := NewScanner(tokens)
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(24); k > 0; k-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		low := strings.ToLower(b.String())
		var want []string
		for _, tok := range sc.tokens {
			if containsWord(low, tok) {
				want = append(want, tok)
			}
		}
		if got := sc.matches(low); !slices.Equal(got, want) {
			t.Fatalf("%q: matches %q, containsWord %q", low, got, want)
		}
	}
}
