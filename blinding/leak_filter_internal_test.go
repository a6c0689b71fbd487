package blinding

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// TestContextFiltersAreNecessary: the cheap filters before each context
// rule (hints, spaced words, topic hints) never skip a text the rule's
// expression matches, on random texts made of the rules' own letters in
// both cases, separators, digits, currency signs and other characters.
// The spaced words' letters fold only to their ASCII capitals, so the
// filter on the lower-cased text sees every case-insensitive match.
func TestContextFiltersAreNecessary(t *testing.T) {
	for _, r := range contextRules {
		for _, c := range r.spaced {
			if f := unicode.SimpleFold(c); f != unicode.ToUpper(c) || unicode.SimpleFold(f) != c {
				t.Fatalf("letter %q of %q folds to more than its capital", c, r.spaced)
			}
		}
	}
	alphabet := []rune("reconciliationledgerRECONCILIATIONLEDGERil1|I .-_\t\nabAB$€£¢0123456789,centsdollarsusdeurgbptokenspricecurrencyreviewarmtreatmentcontrolordinarythefourtwentyCENTSUSDTOKENéſK\u00a0")
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"reconciliation", "re-conc-il", "r e c o n c i l", "ledger", "1edger", "l.e.d.g.e.r", "$4", "4 cents", "twenty dollars", "12 tokens", "price", "USD 3", "review B", "the A arm", "control group", "treatment", "ordinary review",
		"armB", "review #2", "reviewer two", "B-side", "side A", "B side review", "arm labelled B", "group called A", "second reviewer", "other arm", "I am the second review", "this is the primary pass"}
	checked := map[int]int{}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			if rng.IntN(4) == 0 {
				b.WriteString(words[rng.IntN(len(words))])
			} else {
				b.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
		}
		text := b.String()
		normalized := Normalize(text)
		lower := strings.ToLower(normalized)
		for i, r := range contextRules {
			if r.re.MatchString(normalized) {
				checked[i]++
				if len(r.hints) > 0 && !containsAny(lower, r.hints) || r.spaced != "" && !containsSpaced(lower, r.spaced) {
					t.Fatalf("rule %d matches %q but its filter skips it", i, text)
				}
			}
			if r.topic != nil && r.topic.MatchString(lower) && !containsAny(lower, r.topicHints) {
				t.Fatalf("topic %d matches %q but its filter skips it", i, text)
			}
		}
	}
	for i, r := range contextRules {
		if checked[i] == 0 {
			t.Errorf("rule %d (%s) never matched a random text", i, r.why)
		}
	}
}

// TestNormalizeASCII: the ASCII path of Normalize gives what the general
// path gives (NFKD, removals, folds, white space made one space) on ASCII
// texts with runs of spaces, tabs and line feeds, also at both ends.
func TestNormalizeASCII(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := "ab C-1.  \n\t\t\n"
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		text := b.String()
		// A zero-width space sends the same text through the general path
		// (it is removed there), so both must agree.
		if got, want := Normalize(text), Normalize(text+"\u200b"); got != want && strings.ContainsAny(text, "\n\t") || got != want && strings.Contains(text, "  ") {
			t.Fatalf("Normalize(%q) = %q, general path %q", text, got, want)
		}
	}
}
