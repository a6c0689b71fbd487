package plural

import "testing"

// TestCount: one takes the singular; zero, two and many the plural.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 findings"}, {1, "1 finding"}, {2, "2 findings"}, {1000, "1000 findings"}} {
		if got := Count(c.n, "finding", "findings"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
