package campaign_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// TestLoadRefusesSymlinkOutOfCampaign: a bound task text that is a symbolic
// link to a file outside the campaign directory (with the very bytes the
// manifest binds) is refused with ReasonOutsideCampaign naming the file
// when the campaign is opened with os.OpenRoot; an inside link still loads.
func TestLoadRefusesSymlinkOutOfCampaign(t *testing.T) {
	fsys := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	for p, f := range fsys {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() error {
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		_, err = Load(root.FS())
		// RootFS loads exactly as os.Root's FS, refusals included.
		if _, fastErr := Load(RootFS(root)); fmt.Sprint(fastErr) != fmt.Sprint(err) {
			t.Fatalf("RootFS: %v\nos.Root: %v", fastErr, err)
		}
		return err
	}
	if err := load(); err != nil {
		t.Fatalf("before the link: %v", err)
	}
	task := TaskTextPath("T1")
	full := filepath.Join(dir, filepath.FromSlash(task))
	// A link inside the campaign is read like the file.
	inside := filepath.Join(dir, "tasks", "T1", "copy.txt")
	if err := os.Rename(full, inside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("copy.txt", full); err != nil {
		t.Fatal(err)
	}
	if err := load(); err == nil || errors.Is(err, ReasonOutsideCampaign) {
		t.Fatalf("inside link: %v, want only the unlisted copy refused", err)
	}
	// A link to outside the campaign, with the bound bytes, is refused.
	outside := filepath.Join(base, "outside.md")
	if err := os.WriteFile(outside, fsys[task].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(inside); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, full); err != nil {
		t.Fatal(err)
	}
	err := load()
	var ce *verr.Error
	found := false
	for _, e := range unjoin(err) {
		if errors.As(e, &ce) && ce.Reason == ReasonOutsideCampaign && ce.File == task {
			found = true
		}
	}
	if !found {
		t.Fatalf("outside link: %v, want %s on %s", err, ReasonOutsideCampaign, task)
	}
	if errors.Is(err, ReasonFileMissing) {
		t.Errorf("outside link also reported as missing: %v", err)
	}
}

// TestRootFSSameAsRootFS: RootFS reads the same bytes and lists the same
// entries as os.Root's FS, and fails where it fails with the same error:
// plain files, links inside and out of the campaign (file and directory
// links, at the top level and below), a directory read as a file, a
// missing file, and a path with "..".
func TestRootFSSameAsRootFS(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	outside := filepath.Join(base, "outside")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "responses", "S1.json"), `{"a": 1}`)
	write(filepath.Join(dir, "responses", "empty.json"), ``)
	write(filepath.Join(dir, "tasks", "T1", "packet.json"), `packet`)
	write(filepath.Join(dir, "tasks", "T1", "deep", "x.txt"), `deep`)
	write(filepath.Join(dir, "other", "S9.json"), `other`)
	write(filepath.Join(outside, "S8.json"), `outside`)
	write(filepath.Join(outside, "sub", "f.txt"), `outside dir`)
	link("../other/S9.json", filepath.Join(dir, "responses", "inside.json"))
	link(filepath.Join(outside, "S8.json"), filepath.Join(dir, "responses", "out.json"))
	link("S1.json", filepath.Join(dir, "responses", "same.json"))
	link("../../other", filepath.Join(dir, "tasks", "T1", "in-dir"))
	link(outside, filepath.Join(dir, "tasks", "T1", "out-dir"))
	link("other", filepath.Join(dir, "receipts"))
	link(outside, filepath.Join(dir, "sources"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	want, got := root.FS(), RootFS(root)
	for _, p := range []string{
		"responses/S1.json", "responses/empty.json", "responses/inside.json", "responses/out.json",
		"responses/same.json", "responses/missing.json", "responses", "responses/../other/S9.json",
		"tasks/T1/packet.json", "tasks/T1/deep/x.txt", "tasks/T1/in-dir/S9.json", "tasks/T1/out-dir/S8.json",
		"tasks/T1/deep", "receipts/S9.json", "sources/S8.json", "sources/sub/f.txt", "other/S9.json",
		"nothing/x", "responses/S1.json/x", "/abs", "",
	} {
		wb, werr := fs.ReadFile(want, p)
		gb, gerr := fs.ReadFile(got, p)
		if !bytes.Equal(wb, gb) || fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("ReadFile(%q) = %q, %v; os.Root reads %q, %v", p, gb, gerr, wb, werr)
		}
	}
	for _, p := range []string{"responses", "tasks", "tasks/T1", "tasks/T1/deep", "tasks/T1/in-dir", "tasks/T1/out-dir",
		"receipts", "sources", "sources/sub", "missing", "responses/S1.json", "."} {
		we, werr := fs.ReadDir(want, p)
		ge, gerr := fs.ReadDir(got, p)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || len(we) != len(ge) {
			t.Errorf("ReadDir(%q) = %d entries, %v; os.Root lists %d, %v", p, len(ge), gerr, len(we), werr)
			continue
		}
		for i := range we {
			if we[i].Name() != ge[i].Name() || we[i].Type() != ge[i].Type() || we[i].IsDir() != ge[i].IsDir() {
				t.Errorf("ReadDir(%q)[%d] = %s %v, os.Root lists %s %v", p, i, ge[i].Name(), ge[i].Type(), we[i].Name(), we[i].Type())
			}
			wi, _ := we[i].Info()
			gi, _ := ge[i].Info()
			if wi.Name() != gi.Name() || wi.Size() != gi.Size() || wi.Mode() != gi.Mode() {
				t.Errorf("ReadDir(%q)[%d].Info differs", p, i)
			}
		}
	}
}
