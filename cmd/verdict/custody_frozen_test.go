package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lateReceiptEdit edits, in the campaign camp, the receipt of the session
// that ended last: it ends 40 s later (ended_utc and end_monotonic_ns,
// nothing overlaps it), and re-binds the receipt's new SHA-256 in
// manifest.json by hand, as an editor after the reveal would. It returns
// the manifest's SHA-256 before and after.
func lateReceiptEdit(t *testing.T, camp string) (before, after string) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(camp, "receipts", "*.json"))
	endRE := regexp.MustCompile(`"ended_utc": "([^"]+)"`)
	monoRE := regexp.MustCompile(`"end_monotonic_ns": (\d+)`)
	type rc struct {
		path string
		data []byte
		end  string
	}
	var rcs []rc
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := endRE.FindSubmatch(data); m != nil {
			rcs = append(rcs, rc{p, data, string(m[1])})
		}
	}
	if len(rcs) == 0 {
		t.Fatal("no receipt with an end time")
	}
	sort.Slice(rcs, func(i, j int) bool { return rcs[i].end < rcs[j].end })
	last := rcs[len(rcs)-1]
	end, err := time.Parse(time.RFC3339Nano, last.end)
	if err != nil {
		t.Fatal(err)
	}
	edited := endRE.ReplaceAll(last.data, []byte(`"ended_utc": "`+end.Add(40*time.Second).Format(time.RFC3339Nano)+`"`))
	edited = monoRE.ReplaceAllFunc(edited, func(b []byte) []byte {
		n, err := strconv.ParseInt(string(monoRE.FindSubmatch(b)[1]), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return []byte(`"end_monotonic_ns": ` + strconv.FormatInt(n+int64(40*time.Second), 10))
	})
	if bytes.Equal(edited, last.data) {
		t.Fatal("the receipt edit changed nothing")
	}
	if err := os.WriteFile(last.path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	hexOf := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	mpath := filepath.Join(camp, "manifest.json")
	manifest, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	rebound := bytes.Replace(manifest, []byte(hexOf(last.data)), []byte(hexOf(edited)), 1)
	if bytes.Equal(rebound, manifest) {
		t.Fatalf("manifest.json does not bind %s", last.path)
	}
	if err := os.WriteFile(mpath, rebound, 0o644); err != nil {
		t.Fatal(err)
	}
	return hexOf(manifest), hexOf(rebound)
}

// TestScoreRefusesCampaignChangedAfterBlinding (trial T17): a receipt's
// timing edited after the reveal, with manifest.json re-bound by hand, is
// still admitted by `verdict check` (the campaign is well-formed), but
// `verdict score` refuses it: the sealed map, which every signed record
// commits to, bound the manifest at blinding
// (campaign-changed-after-blinding, naming manifest.json and both digests).
func TestScoreRefusesCampaignChangedAfterBlinding(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	if _, reasons, out := scoreRefusal(t, camp, ratings); len(reasons) != 0 || !strings.Contains(out, `"decision"`) {
		t.Fatalf("unedited demo: refusals %v, want a decision\n%.800s", reasons, out)
	}
	before, after := lateReceiptEdit(t, camp)
	if code, out, errs := runCapture(t, "check", camp); code != 0 || !strings.Contains(out, "result: ADMITTED") {
		t.Fatalf("check of the re-bound campaign: exit %d (want 0, ADMITTED: the campaign alone is well-formed)\n%.800s%s", code, out, errs)
	}
	code, reasons, out := scoreRefusal(t, camp, ratings)
	if code != 1 || len(reasons) != 1 || reasons[0] != "campaign-changed-after-blinding" {
		t.Fatalf("score: exit %d, reasons %v, want exactly campaign-changed-after-blinding\n%.1500s", code, reasons, out)
	}
	for _, want := range []string{"manifest.json", before, after, "changed after blinding", "sealed-map.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("score's refusal does not name %q\n%s", want, out)
		}
	}
	// The text form says the same.
	code, text, _ := runCapture(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if code != 1 || !strings.Contains(text, "campaign-changed-after-blinding") || !strings.Contains(text, "manifest.json") {
		t.Errorf("score (text): exit %d\n%s", code, text)
	}
}

// TestRevealRefusesAnotherCampaign (trial T8): reveal --campaign reports
// the admission of the campaign the records were made from, and refuses
// to sign (nothing written) for a campaign the sealed map does not name
// (map-other-campaign) or whose manifest.json is not the one the map bound
// at blinding (campaign-changed-after-blinding).
func TestRevealRefusesAnotherCampaign(t *testing.T) {
	camp, ratings, keys := demoChain(t)
	rp := func(n string) string { return filepath.Join(ratings, n) }
	reveal := func(c string) (int, string, string) {
		out := filepath.Join(t.TempDir(), "reveal.json")
		code, stdout, _ := runCapture(t, "reveal", "--sheet", rp("sheet-ann.json"), "--sheet", rp("sheet-bob.json"), "--adjudication", rp("adjudication.json"),
			"--map", rp("sealed-map.json"), "--allowed-signers", rp("allowed_signers"), "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee",
			"--out", out, "--time", demoRevealTime, "--campaign", c, "--format", "json")
		return code, stdout, out
	}
	if code, out, _ := reveal(camp); code != 0 || !strings.Contains(out, `"admitted": true`) {
		t.Fatalf("reveal --campaign of the records' own campaign: exit %d\n%s", code, out)
	}
	other := filepath.Join(t.TempDir(), "other")
	if err := os.CopyFS(other, os.DirFS(camp)); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(other, "manifest.json")
	m, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	idRE := regexp.MustCompile(`"campaign_id": "[^"]*"`)
	if !idRE.Match(m) {
		t.Fatal("manifest.json has no campaign_id")
	}
	if err := os.WriteFile(mpath, idRE.ReplaceAll(m, []byte(`"campaign_id": "another-campaign"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed")
	if err := os.CopyFS(changed, os.DirFS(camp)); err != nil {
		t.Fatal(err)
	}
	lateReceiptEdit(t, changed)
	for _, c := range []struct{ dir, want string }{{other, "map-other-campaign"}, {changed, "campaign-changed-after-blinding"}} {
		code, out, written := reveal(c.dir)
		if code != 1 || !strings.Contains(out, `"reason":"`+c.want+`"`) || strings.Contains(out, `"admitted": true`) {
			t.Errorf("reveal --campaign %s: exit %d, want %s\n%s", filepath.Base(c.dir), code, c.want, out)
		}
		if _, err := os.Stat(written); err == nil {
			t.Errorf("reveal --campaign %s wrote %s", filepath.Base(c.dir), written)
		}
	}
}
