package tokens_test

import (
	"testing"

	"verdict/internal/tokens"
)

// TestCountsKnownStrings checks o200k_base and cl100k_base counts of fixed
// strings against the counts the reference tokenizer publishes for them
// ("hello world" is two tokens in both; the empty text none).
func TestCountsKnownStrings(t *testing.T) {
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		c, ok, err := tokens.For(name)
		if err != nil || !ok {
			t.Fatalf("%s: ok %v, err %v", name, ok, err)
		}
		if n := c.Count([]byte("hello world")); n != 2 {
			t.Errorf("%s: %d tokens for \"hello world\", want 2", name, n)
		}
		if n := c.Count(nil); n != 0 {
			t.Errorf("%s: %d tokens for nothing", name, n)
		}
		if n := c.Count([]byte("<|endoftext|>")); n < 2 {
			t.Errorf("%s: a special token's spelling counted as %d token(s), want it counted as text", name, n)
		}
	}
	if _, ok, _ := tokens.For("provider-meter"); ok {
		t.Error("an unknown tokenizer was served")
	}
}
