package campaign_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	. "verdict/campaign"
)

// Adversarial file system layouts for RootFS: it must read exactly what
// os.Root's FS reads and fail where that fails, with the same error.

// sameRead compares RootFS's ReadFile and ReadDir of p with os.Root's.
func sameRead(t *testing.T, root *os.Root, got fs.FS, p string) {
	t.Helper()
	want := root.FS()
	wb, werr := fs.ReadFile(want, p)
	gb, gerr := fs.ReadFile(got, p)
	if !bytes.Equal(wb, gb) || fmt.Sprint(werr) != fmt.Sprint(gerr) {
		t.Errorf("ReadFile(%.80q) = %q, %v; os.Root reads %q, %v", p, gb, gerr, wb, werr)
	}
	we, werr := fs.ReadDir(want, p)
	ge, gerr := fs.ReadDir(got, p)
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || len(we) != len(ge) {
		t.Errorf("ReadDir(%.80q) = %d entries, %v; os.Root lists %d, %v", p, len(ge), gerr, len(we), werr)
		return
	}
	for i := range we {
		if we[i].Name() != ge[i].Name() || we[i].Type() != ge[i].Type() {
			t.Errorf("ReadDir(%.80q)[%d] = %s %v, os.Root lists %s %v", p, i, ge[i].Name(), ge[i].Type(), we[i].Name(), we[i].Type())
		}
	}
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRootFSAdversarialNames: names os.Root refuses or cannot open (NUL,
// over-long components and paths, "..", absolute, "." and empty
// segments, trailing slash, backslash), top-level files and links (to a
// file inside, to a file outside, to a directory inside) and special
// files (a socket, a directory read as a file, an empty file) give
// os.Root's answer.
func TestRootFSAdversarialNames(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "task.md"), "task")
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "empty.md"), "")
	mustWrite(t, filepath.Join(dir, "tasks", `a\b`), "backslash")
	mustWrite(t, filepath.Join(base, "secret.txt"), "secret")
	mustWrite(t, filepath.Join(dir, "manifest.json"), "manifest")
	if err := os.Symlink("manifest.json", filepath.Join(dir, "in.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(dir, "out.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("tasks", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 255)
	mustWrite(t, filepath.Join(dir, "tasks", long), "long name")
	l, err := net.Listen("unix", filepath.Join(dir, "tasks", "sock"))
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer l.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := RootFS(root)
	for _, p := range []string{
		"tasks/T1/task.md", "tasks/T1/empty.md", "tasks/T1", "tasks/sock", "tasks/" + long, "tasks/" + long + "x",
		"tasks/" + strings.Repeat("d/", 2100) + "x", "tasks/T1/task.md\x00", "tasks/T1\x00/task.md", "tasks/\x00",
		"tasks/../../secret.txt", "tasks/T1/../../../secret.txt", "../secret.txt", "/tasks/T1/task.md",
		"tasks/./T1/task.md", "tasks//T1/task.md", "tasks/T1/task.md/", "tasks/a\\b", `tasks\T1\task.md`,
		"tasks/T1/task.md/x", "tasks/missing/x", "tasks", ".", "manifest.json", "in.json", "out.json",
		"alias/T1/task.md", "alias", "alias/T1", "manifest.json/x", "missing.json",
	} {
		sameRead(t, root, got, p)
	}
}

// TestRootFSTopDirectoryReplaced: a top-level directory renamed after
// RootFS has read through it, and replaced by another directory or by a
// link leading out of the campaign, is read as os.Root reads it now: the
// new directory's bytes, and the refusal of the outside link, never the
// old directory's files.
func TestRootFSTopDirectoryReplaced(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "task.md"), "old task")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := RootFS(root)
	sameRead(t, root, got, "tasks/T1/task.md")
	sameRead(t, root, got, "tasks/T1")

	// Replaced inside the campaign by another directory.
	if err := os.Rename(filepath.Join(dir, "tasks"), filepath.Join(dir, "old")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "task.md"), "new task")
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "added.md"), "added")
	for _, p := range []string{"tasks/T1/task.md", "tasks/T1/added.md", "tasks/T1"} {
		sameRead(t, root, got, p)
	}

	// Moved out of the campaign and linked back: os.Root refuses the link.
	if err := os.RemoveAll(filepath.Join(dir, "tasks")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "old"), filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "moved"), filepath.Join(dir, "tasks")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"tasks/T1/task.md", "tasks/T1"} {
		sameRead(t, root, got, p)
	}
	if _, err := fs.ReadFile(got, "tasks/T1/task.md"); err == nil {
		t.Fatal("RootFS reads a file through a link out of the campaign")
	}

	// Moved out and not replaced: the file is missing.
	if err := os.Remove(filepath.Join(dir, "tasks")); err != nil {
		t.Fatal(err)
	}
	sameRead(t, root, got, "tasks/T1/task.md")
}

// TestRootFSFileReplacedByLink: a file read once and then replaced by a
// link out of the campaign, and a subdirectory replaced by such a link,
// are refused as os.Root refuses them.
func TestRootFSFileReplacedByLink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	mustWrite(t, filepath.Join(dir, "tasks", "T1", "task.md"), "task")
	mustWrite(t, filepath.Join(base, "out", "task.md"), "outside")
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := RootFS(root)
	sameRead(t, root, got, "tasks/T1/task.md")
	if err := os.Remove(filepath.Join(dir, "tasks", "T1", "task.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "out", "task.md"), filepath.Join(dir, "tasks", "T1", "task.md")); err != nil {
		t.Fatal(err)
	}
	sameRead(t, root, got, "tasks/T1/task.md")
	if err := os.RemoveAll(filepath.Join(dir, "tasks", "T1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "out"), filepath.Join(dir, "tasks", "T1")); err != nil {
		t.Fatal(err)
	}
	sameRead(t, root, got, "tasks/T1/task.md")
	sameRead(t, root, got, "tasks/T1")
	if _, err := fs.ReadFile(got, "tasks/T1/task.md"); err == nil {
		t.Fatal("RootFS reads a file through a link out of the campaign")
	}
}

// TestRootFSFIFO: a named pipe is read as os.Root reads it (RootFS does
// not read it itself); a writer keeps offering the same bytes.
func TestRootFSFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "tasks", "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
			if err != nil { // no reader yet
				time.Sleep(time.Millisecond)
				continue
			}
			syscall.Write(fd, []byte("fifo bytes"))
			syscall.Close(fd)
			time.Sleep(20 * time.Millisecond) // let the reader see the end of the data
		}
	}()
	defer func() { close(stop); <-done }()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	read := func(fsys fs.FS) (string, error) {
		type res struct {
			b   []byte
			err error
		}
		ch := make(chan res, 1)
		go func() { b, err := fs.ReadFile(fsys, "tasks/pipe"); ch <- res{b, err} }()
		select {
		case r := <-ch:
			return string(r.b), r.err
		case <-time.After(10 * time.Second):
			t.Fatal("reading the FIFO does not finish")
		}
		return "", nil
	}
	wb, werr := read(root.FS())
	gb, gerr := read(RootFS(root))
	if werr != nil || gerr != nil || !strings.HasPrefix(wb, "fifo bytes") || !strings.HasPrefix(gb, "fifo bytes") {
		t.Fatalf("RootFS reads %q, %v; os.Root reads %q, %v", gb, gerr, wb, werr)
	}
	gi, err := fs.Stat(RootFS(root), "tasks/pipe")
	if err != nil || gi.Mode().Type() != fs.ModeNamedPipe {
		t.Fatalf("Stat: %v %v", gi, err)
	}
}

// TestRootFSWithoutOpenat2 runs the RootFS comparisons again with openat2
// taken as missing (a kernel before 5.6), so that the component-by-
// component walk reads the same bytes and refuses the same paths.
func TestRootFSWithoutOpenat2(t *testing.T) {
	prev := NoOpenat2.Load()
	NoOpenat2.Store(true)
	t.Cleanup(func() { NoOpenat2.Store(prev) })
	t.Run("names", TestRootFSAdversarialNames)
	t.Run("top directory replaced", TestRootFSTopDirectoryReplaced)
	t.Run("file replaced by link", TestRootFSFileReplacedByLink)
	t.Run("same as root", TestRootFSSameAsRootFS)
}
