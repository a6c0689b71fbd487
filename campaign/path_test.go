package campaign_test

import (
	"errors"
	"strings"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// TestCheckFilePath: a path naming a campaign file must be canonical; each
// refusal names its segment.
func TestCheckFilePath(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"prompts/common.txt", ""},
		{"sources/synthetic/repo.v2/src/a.ts", ""},
		{"prompts/./common.txt", `"." segment (segment 2)`},
		{"./prompts/common.txt", `"." segment (segment 1)`},
		{"prompts/.", `"." segment (segment 2)`},
		{"prompts//common.txt", "empty segment (segment 2)"},
		{"prompts/common.txt/", "empty segment (segment 3)"},
		{"prompts/../prompts/common.txt", `".." segment (segment 2)`},
		{"/prompts/common.txt", "absolute"},
		{"", "empty"},
		{`prompts\common.txt`, `backslash in segment 1 "prompts\\common.txt"`},
	} {
		got := CheckFilePath(c.path)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("CheckFilePath(%q) = %q, want %q", c.path, got, c.want)
		}
	}
	// The response contract's own rule is unchanged: "." is not refused there.
	if why := CheckPath("src/./a.ts"); why != "" {
		t.Errorf("CheckPath refuses a . segment: %s", why)
	}
}

// TestLoadRefusesDotSegmentInManifest: a manifest binding
// prompts/./common.txt (as a prompt and as a bound file) is refused by the
// path rule at that path's pointer,
// not reported as a missing and an unlisted file.
func TestLoadRefusesDotSegmentInManifest(t *testing.T) {
	f := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
	m := campaigntest.ManifestOf(t, f)
	dotted := strings.Replace(m.Prompts.Common, "/", "/./", 1)
	m.Prompts.Common = dotted
	campaigntest.WriteManifest(t, f, m)
	mf := string(f[ManifestFile].Data)
	f[ManifestFile].Data = []byte(strings.Replace(mf, `"path": "`+PromptsDir+`/common.txt"`, `"path": "`+dotted+`"`, 1))
	if !strings.Contains(string(f[ManifestFile].Data), `"path": "`+dotted+`"`) {
		t.Fatalf("manifest does not bind %s", dotted)
	}
	_, err := Load(f)
	if err == nil {
		t.Fatal("loaded")
	}
	if errors.Is(err, ReasonFileMissing) || errors.Is(err, ReasonFileUnlisted) {
		t.Errorf("reported as missing or unlisted: %v", err)
	}
	pointers := map[string]bool{}
	for _, e := range unjoin(err) {
		var ce *verr.Error
		if !errors.As(e, &ce) || ce.Reason != ReasonPath || ce.File != ManifestFile || !strings.Contains(ce.Detail, `"." segment (segment 2)`) {
			t.Errorf("unexpected refusal %v", e)
			continue
		}
		pointers[ce.Pointer] = true
	}
	if !pointers["/prompts/common"] {
		t.Errorf("refused at %v, want /prompts/common: %v", pointers, err)
	}
	// The /files entry alone is refused by the same rule.
	m.Prompts.Common = PromptsDir + "/common.txt"
	campaigntest.WriteManifest(t, f, m)
	f[ManifestFile].Data = []byte(strings.Replace(string(f[ManifestFile].Data), `"path": "`+PromptsDir+`/common.txt"`, `"path": "`+dotted+`"`, 1))
	_, err = Load(f)
	var ce *verr.Error
	if !errors.As(err, &ce) || ce.Reason != ReasonPath || !strings.HasPrefix(ce.Pointer, "/files/") || !strings.Contains(ce.Detail, `"." segment`) {
		t.Errorf("files entry: %v", err)
	}
}
