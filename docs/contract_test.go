package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// contractHeadings is what docs/contract.md offers a citation: for each
// base (a contract section "CONTRACT §4", a document "PROMPTS.md",
// "EVALUATOR-CONTROLS", "CLI-HANDOFF", "COMPARATOR-SELECTION.md", or
// "CONTRACT" itself) the lower-cased names of its parts (controls C01..,
// hand-off items 1.., named parts such as "required records").
type contractHeadings map[string][]string

var (
	headingLine = regexp.MustCompile(`(?m)^#{2,6} (.+)$`)
	// A heading's locator is the text before " — ".
	headingLocator = regexp.MustCompile(`^(CONTRACT(?: §(\d+))?|PROMPTS\.md|EVALUATOR-CONTROLS|CLI-HANDOFF|COMPARATOR-SELECTION\.md)(?: (.+))?$`)
)

// parseHeadings reads the headings of contract.md.
func parseHeadings(doc string) (contractHeadings, error) {
	h := contractHeadings{}
	for _, m := range headingLine.FindAllStringSubmatch(doc, -1) {
		loc, _, _ := strings.Cut(m[1], " — ")
		x := headingLocator.FindStringSubmatch(loc)
		if x == nil {
			continue // a heading that is no citation target ("How a citation finds its heading")
		}
		base, part := x[1], strings.ToLower(x[3])
		if _, dup := h[base]; dup && part == "" {
			return nil, fmt.Errorf("heading %q twice", base)
		}
		if part != "" {
			if _, ok := h[base]; !ok {
				return nil, fmt.Errorf("part %q comes before its heading %q", m[1], base)
			}
			if slices.Contains(h[base], part) {
				return nil, fmt.Errorf("part %q twice", m[1])
			}
			h[base] = append(h[base], part)
		} else {
			h[base] = nil
		}
	}
	return h, nil
}

// hasPart reports whether text (what follows a citation) starts with one
// of base's part names, followed by a non-letter.
func (h contractHeadings) hasPart(base, text string) bool {
	lt := strings.ToLower(text)
	for _, p := range h[base] {
		if strings.HasPrefix(lt, p) {
			rest := []rune(lt[len(p):])
			if len(rest) == 0 || !unicode.IsLetter(rest[0]) && !unicode.IsDigit(rest[0]) {
				return true
			}
		}
	}
	return false
}

var (
	// A comment continued on the next line: the newline, indentation and
	// comment marker become one space, so a citation wrapped across lines
	// is read whole.
	continuation = regexp.MustCompile(`\n[ \t]*(?://|#)?[ \t]*`)
	citation     = regexp.MustCompile(`\b(CONTRACT|PROMPTS|EVALUATOR-CONTROLS|CLI-HANDOFF|COMPARATOR-SELECTION)(?:\.md)?\b`)
	sectionMark  = regexp.MustCompile(`^ ?§ ?(\d+)`)
	controlList  = regexp.MustCompile(`^:? (C\d\d(?:\s*(?:–|-|,|, and|and|or)\s*C\d\d)*)`)
	controlID    = regexp.MustCompile(`C(\d\d)(?:\s*[–-]\s*C(\d\d))?`)
	handoffItem  = regexp.MustCompile(`^ (\d+)\b`)
	// Any § section number; "Part 11 §11.50" (the record practice, not the
	// contract) and decimal subsections are not contract sections.
	anySection = regexp.MustCompile(`(Part \d+ )?§ ?(\d+)(\.\d)?`)
	quotedPart = regexp.MustCompile(`^ ["“]([A-Z][^"”]*)`)
	barePart   = regexp.MustCompile(`^ [A-Z]`)
	// A Go identifier in mixed case (RuleCeilings, ExceededCeilings):
	// an upper-case letter after a lower-case one.
	goIdentifier = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*[;,.)]?$`)
)

// unresolved returns every citation in text that has no heading in h, one
// line each ("CONTRACT §9", "PROMPTS.md part \"Bogus\""...).
func (h contractHeadings) unresolved(text string) []string {
	text = continuation.ReplaceAllString(text, " ")
	var bad []string
	need := func(base, cited string) bool {
		if _, ok := h[base]; !ok {
			bad = append(bad, cited)
			return false
		}
		return true
	}
	// part checks the words after a citation: a bare capitalised name
	// must be a part of base; a quoted one is a part when it starts with a
	// part's name and otherwise a quotation of the contract's words.
	part := func(base, cited, rest string) {
		if m := quotedPart.FindStringSubmatch(rest); m != nil {
			return
		}
		if barePart.MatchString(rest) && !h.hasPart(base, rest[1:]) {
			word := strings.Fields(rest)[0]
			if goIdentifier.MatchString(word) {
				return // a Go name beside the citation (CONTRACT §5 RuleCeilings), not a part
			}
			bad = append(bad, fmt.Sprintf("%s %s… (no part of %s starts so)", cited, word, base))
		}
	}
	for _, m := range citation.FindAllStringSubmatchIndex(text, -1) {
		doc, rest := text[m[2]:m[3]], text[m[1]:]
		switch doc {
		case "CONTRACT":
			s := sectionMark.FindStringSubmatch(rest)
			if s == nil {
				need("CONTRACT", doc)
				continue
			}
			base := "CONTRACT §" + s[1]
			if need(base, base) {
				part(base, base, rest[len(s[0]):])
			}
		case "EVALUATOR-CONTROLS":
			if !need(doc, doc) {
				continue
			}
			l := controlList.FindStringSubmatch(rest)
			if l == nil {
				part(doc, doc, rest)
				continue
			}
			for _, c := range controlID.FindAllStringSubmatch(l[1], -1) {
				from, _ := strconv.Atoi(c[1])
				to := from
				if c[2] != "" {
					to, _ = strconv.Atoi(c[2])
				}
				for n := from; n <= to; n++ {
					if id := fmt.Sprintf("c%02d", n); !slices.Contains(h[doc], id) {
						bad = append(bad, fmt.Sprintf("%s C%02d", doc, n))
					}
				}
			}
		case "CLI-HANDOFF":
			if !need(doc, doc) {
				continue
			}
			if i := handoffItem.FindStringSubmatch(rest); i != nil && !slices.Contains(h[doc], i[1]) {
				bad = append(bad, doc+" "+i[1])
			}
		default: // PROMPTS.md, COMPARATOR-SELECTION.md
			base := doc + ".md"
			if need(base, base) {
				part(base, base, rest)
			}
		}
	}
	for _, m := range anySection.FindAllStringSubmatch(text, -1) {
		if m[1] == "" && m[3] == "" {
			need("CONTRACT §"+m[2], "§"+m[2])
		}
	}
	return bad
}

// citedFiles are the files whose text may cite the contract: Go source,
// documents, test scripts and golden text; the generated JSON goldens
// repeat the rule strings of the Go source.
func citedFile(name string) bool {
	for _, ext := range []string{".go", ".md", ".txtar", ".golden", ".txt", ".yaml"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

func loadHeadings(t *testing.T) (contractHeadings, string) {
	t.Helper()
	b, err := os.ReadFile("contract.md")
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeadings(string(b))
	if err != nil {
		t.Fatalf("contract.md: %v", err)
	}
	return h, string(b)
}

// TestContractCitationsResolve: every citation of the contract anywhere in
// the source tree has a heading in docs/contract.md.
func TestContractCitationsResolve(t *testing.T) {
	h, _ := loadHeadings(t)
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		// This file's own refused examples are not citations.
		if !citedFile(d.Name()) || filepath.Clean(path) == filepath.Join("..", "docs", "contract_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		seen := map[string]bool{}
		for _, c := range h.unresolved(string(b)) {
			if !seen[c] {
				seen[c] = true
				t.Errorf("%s: %s has no heading in docs/contract.md", filepath.ToSlash(path), c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d files; the walk did not reach the source tree", files)
	}
}

// TestContractCitationResolver: the resolver refuses what has no heading
// and accepts every form the headings offer (a resolver that accepts
// everything would make the tree test pass for nothing).
func TestContractCitationResolver(t *testing.T) {
	h, _ := loadHeadings(t)
	for _, bad := range []string{
		"// CONTRACT §9 says so",
		"rule = \"CONTRACT.md §8\"",
		"(EVALUATOR-CONTROLS C24)",
		"EVALUATOR-CONTROLS C20–C25",
		"EVALUATOR-CONTROLS C14, C31",
		"PROMPTS.md Bogus constraints",
		"CONTRACT §5 Recorded thing",
		"CONTRACT §4 Gate 7",
		"CLI-HANDOFF 6",
		"COMPARATOR-SELECTION.md Identity of nothing",
		"see §12",
		"EVALUATOR-CONTROLS Mutations of all",
		"CONTRACT §5 Ceilingz RuleCeilings",
	} {
		if got := h.unresolved(bad); len(got) == 0 {
			t.Errorf("%q resolved; it has no heading", bad)
		}
	}
	for _, good := range []string{
		"CONTRACT §5 Required records: every start ends",
		"// (CONTRACT §4 \"Complete cost and time\")",
		"CONTRACT §6 \"Charge full cold setup ... for each",
		"PROMPTS.md Additional\n\t// constraints: \"Every E ID\"",
		"PROMPTS.md \"Exact response contract\"",
		"EVALUATOR-CONTROLS C14, C20, C21",
		"EVALUATOR-CONTROLS C06–C08",
		"CONTRACT §4–§5, §7",
		"CONTRACT §4 R",
		"CONTRACT §6 R_sys",
		"CLI-HANDOFF 2 \"actual input identity\"",
		"Part 11 §11.50, §11.70",
		"COMPARATOR-SELECTION.md \"Runtime and cost boundary\"",
		"EVALUATOR-CONTROLS \"Mutation specification\"",
		"CONTRACT, PROMPTS and EVALUATOR-CONTROLS by section",
		"(CONTRACT §5\n// RuleCeilings; §6 RuleSystemCeilings for the system",
	} {
		if got := h.unresolved(good); len(got) != 0 {
			t.Errorf("%q: unresolved %q", good, got)
		}
	}
}

// TestContractDocLinks: every in-page link of contract.md names a heading
// (GitHub's anchor of it), and every reason code or gate it names in
// backquotes is a string the Go source defines.
func TestContractDocLinks(t *testing.T) {
	_, doc := loadHeadings(t)
	anchors := map[string]bool{}
	for _, m := range headingLine.FindAllStringSubmatch(doc, -1) {
		anchors[slug(m[1])] = true
	}
	for _, m := range regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(doc, -1) {
		if !anchors[m[1]] {
			t.Errorf("contract.md links to #%s, which is no heading", m[1])
		}
	}
	var src strings.Builder
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() != ".." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			src.Write(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile("`([a-z0-9]+(?:[-_][a-z0-9]+)+)`")
	for _, m := range code.FindAllStringSubmatch(doc, -1) {
		if !strings.Contains(src.String(), `"`+m[1]+`"`) && !strings.Contains(src.String(), m[1]) {
			t.Errorf("contract.md names `%s`, which no Go source file defines", m[1])
		}
	}
}

// slug is GitHub's anchor of a heading: lower case, punctuation other than
// hyphens and underscores dropped, spaces as hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
