package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPromptsCommand(t *testing.T) {
	t.Parallel()
	dir := newDiskCampaign(t).write(t)
	code, out := admRun(t, "prompts", dir, "--task", "T3", "--repetition", "2", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var res promptsOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Prompts) != 3 || !res.Synthetic {
		t.Fatalf("%+v", res)
	}
	rb, _ := os.ReadFile(filepath.Join("..", "..", "campaign", "frozen", "review-b.txt"))
	rs, _ := os.ReadFile(filepath.Join("..", "..", "campaign", "frozen", "reconciliation-schema.txt"))
	for _, p := range res.Prompts {
		// --raw writes exactly the bytes whose digest is reported.
		c, raw := admRun(t, "prompts", dir, "--task", "T3", "--repetition", "2", "--raw", string(p.Role))
		if c != 0 || admHex([]byte(raw)) != p.SHA256 || len(raw) != p.Bytes || raw != p.Text {
			t.Fatalf("%s: raw bytes do not match the reported digest", p.Role)
		}
		hasB := strings.Contains(p.Text, strings.TrimSpace(string(rb))) || strings.Contains(p.Text, strings.TrimSpace(string(rs)))
		if hasB != (p.Role == "review-b") {
			t.Fatalf("%s: B instruction or ledger rules present=%v", p.Role, hasB)
		}
	}
	if res.Difference.ExtraBytes != res.Prompts[2].Bytes-res.Prompts[1].Bytes || len(res.Difference.Parts) != 2 {
		t.Fatalf("%+v", res.Difference)
	}
	_, again := admRun(t, "prompts", dir, "--task", "T3", "--repetition", "2", "--format", "json")
	if again != out {
		t.Fatal("prompts output not deterministic")
	}
	if c, _ := admRun(t, "prompts", dir, "--task", "T9"); c != 1 {
		t.Fatalf("unknown task exit %d", c)
	}
	if c, _ := admRun(t, "prompts", dir); c != 2 {
		t.Fatalf("missing --task exit %d", c)
	}
}

// TestPromptsRawRefusalOnStderr: with --raw, stdout carries one prompt's
// bytes or nothing; a refused campaign's refusal and an unknown task's
// error go to stderr, so a digest of stdout never hashes an error message.
func TestPromptsRawRefusalOnStderr(t *testing.T) {
	t.Parallel()
	dir := newDiskCampaign(t).write(t)
	var out, errb strings.Builder
	if code := run([]string{"prompts", dir, "--task", "T9", "--raw", "review-b"}, strings.NewReader(""), &out, &errb); code != 1 || out.Len() != 0 || errb.Len() == 0 {
		t.Fatalf("unknown task: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	m := filepath.Join(dir, "manifest.json")
	b, _ := os.ReadFile(m)
	if err := os.WriteFile(m, append(b, 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	code := run([]string{"prompts", dir, "--task", "T3", "--raw", "review-b"}, strings.NewReader(""), &out, &errb)
	if code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "campaign refused") || len(errb.String()) < 40 {
		t.Fatalf("refused campaign: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
