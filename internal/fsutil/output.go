package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"verdict/verr"
)

// ReasonOutputLocked: another process is writing the same output (it
// holds OUTPUT.lock); the second writer is refused before it writes
// anything.
const ReasonOutputLocked verr.Reason = "output-locked"

// ReasonLockNotFile: the output's lock file exists and is not a regular
// file (a symbolic link, a directory, a FIFO or a socket; ErrLockNotFile);
// nothing is made through it.
const ReasonLockNotFile verr.Reason = "lock-not-file"

// RuleOneWriter is the rule of ReasonOutputLocked.
const RuleOneWriter = "DESIGN Chain of custody: one writer per output, and a reader sees all of an output set or none of it"

// Output is one writer's exclusive hold on an output: a file, a directory
// or a named set of files. Release it with Unlock (or by exiting).
type Output struct {
	lock *flock.Flock
	// Path is the output's path with the symbolic links of its existing
	// part resolved, so that two names of one output take one lock.
	Path string
	// prior: the lock file was there before this writer took it.
	prior bool
}

// Prior reports whether the output's lock file was there before this
// writer took it: a verdict writer held this output before, so what a
// killed write of it left may lie beside it (RemoveStale). False for a
// nil Output.
func (o *Output) Prior() bool { return o != nil && o.prior }

// RemoveStale removes what a killed writer left beside path (RemoveStale
// of package fsutil) when a verdict writer held o before (Prior), and
// nothing otherwise: without that lock file no verdict write under it
// was ever killed, and whatever stands beside path is the user's. o is
// the lock that guards path (an output's own, or a campaign's write lock
// for the files written into it); a nil o removes nothing.
func (o *Output) RemoveStale(path string) error {
	if !o.Prior() {
		return nil
	}
	return RemoveStale(path)
}

// RemoveStaleIn is RemoveStale for the slash-separated path rel inside
// root (RemoveStaleIn of package fsutil), under the same condition.
func (o *Output) RemoveStaleIn(root *os.Root, rel string) error {
	if !o.Prior() {
		return nil
	}
	return RemoveStaleIn(root, rel)
}

// Unlock releases the output's lock; the lock file stays (see Lock).
func (o *Output) Unlock() {
	if o != nil {
		o.lock.Unlock()
	}
}

// LockOutput takes the exclusive, non-blocking lock of the output at path
// (the file path+".lock" beside it, on the path with its symbolic links
// resolved) and then removes what a killed writer of the same output left
// behind (RemoveStale), only when that lock file was there before: the
// first writer of an output removes nothing. A second writer while the first holds the lock is
// refused with ReasonOutputLocked, naming path. The output's parent
// directory is created when missing (mode 0755), as StageDir creates it:
// a new output may be named in a new directory (blind --map-out
// coord/sealed-map.json).
func LockOutput(path string) (*Output, error) {
	real, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	// An output that is itself a symbolic link is refused by every writer
	// (it exists); its lock is taken beside the link, the name the user
	// gave, never beside the link's target, which may lie in a directory
	// the user did not name (a campaign's bound files).
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		parent, err := Resolve(filepath.Dir(path))
		if err != nil {
			return nil, err
		}
		real = filepath.Join(parent, filepath.Base(path))
	}
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		return nil, err
	}
	// A lock file is made by the first writer of an output and stays: with
	// none before this one, no verdict write of the output was ever
	// killed, and whatever stands beside it is the user's.
	_, statErr := os.Lstat(real + LockSuffix)
	written := statErr == nil
	l, err := Lock(real, 0o600)
	if errors.Is(err, ErrLocked) {
		return nil, &verr.Error{Reason: ReasonOutputLocked, File: path, Rule: RuleOneWriter,
			Detail: "another verdict process is writing this output (it holds " + real + LockSuffix + "); nothing was written: retry when it has finished", Err: err}
	}
	if errors.Is(err, ErrLockNotFile) {
		return nil, &verr.Error{Reason: ReasonLockNotFile, File: real + LockSuffix, Rule: RuleOneWriter,
			Detail: "the lock file is not a regular file (a symbolic link, a directory, a FIFO or a socket); verdict makes its lock files itself, never through a link: remove it when no verdict command is running, and run again", Err: err}
	}
	if err != nil {
		return nil, err
	}
	o := &Output{lock: l, Path: real, prior: written}
	if err := o.RemoveStale(real); err != nil {
		l.Unlock()
		return nil, err
	}
	return o, nil
}

// Resolve returns path made absolute, with the symbolic links of its
// longest existing prefix resolved; the part that does not exist yet is
// kept as it is written.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := abs; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// ResolveLinks is Resolve that also follows a symbolic link whose target
// does not exist yet, by the link's text (relative to the link's
// directory), up to 40 links: the path where a write through such a link
// would land once its target is made. It is for comparing paths (is this
// output inside that one?); writers write to Resolve's path.
func ResolveLinks(path string) (string, error) {
	for range 40 {
		r, err := Resolve(path)
		if err != nil {
			return "", err
		}
		next, ok := throughDangling(r)
		if !ok {
			return r, nil
		}
		path = next
	}
	return "", fmt.Errorf("%s: more than 40 symbolic links", path)
}

// Within reports whether path is dir or lies below it, comparing the two
// as ResolveLinks resolves them (absolute, every symbolic link followed,
// also one whose target does not exist yet).
func Within(dir, path string) (bool, error) {
	d, err := ResolveLinks(dir)
	if err != nil {
		return false, err
	}
	p, err := ResolveLinks(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// throughDangling is abs (absolute, as Resolve returns it) with its first
// missing component replaced by that component's link target when the
// component is a symbolic link whose target does not exist; ok is false
// when the first missing component is not a link (or none is missing).
func throughDangling(abs string) (string, bool) {
	vol := filepath.VolumeName(abs)
	parts := strings.Split(strings.TrimPrefix(abs[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		if _, err := os.Stat(cur); err == nil {
			continue
		}
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return "", false
		}
		target, err := os.Readlink(cur)
		if err != nil {
			return "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(cur), target)
		}
		return filepath.Join(append([]string{target}, parts[i+1:]...)...), true
	}
	return "", false
}

// stagingInfix separates a directory output's name from the random digits
// of its staging directory (StageDir): ".NAME.staging123".
const stagingInfix = ".staging"

// IsStaging reports whether the directory entry name is a temporary file
// or staging directory of verdict's writes (WriteFile, WriteWith,
// StageDir): "." followed by the output's name and random digits, or by
// the name, ".staging" and random digits. Such an entry is never an
// output: a write killed before its rename leaves it, a reader refuses it
// and the next writer of the output removes it.
func IsStaging(name string) bool {
	body := strings.TrimRight(name, "0123456789")
	return strings.HasPrefix(name, ".") && len(body) > 1 && len(body) < len(name)
}

// minTempDigits is the least number of digits after ".NAME" in the name
// of a temporary file RemoveStale takes for verdict's: the random suffix
// renameio gives (a non-negative int64) has fewer than nine digits once in
// about 10^10 names, while a user's ".report.json2" or ".notes20261204"
// has fewer.
const minTempDigits = 9

// isStagingOf reports whether the directory entry e of directory dir is
// a temporary file or staging directory of verdict's writes of the output
// named base: a directory or file ".BASE.staging<digits>" (StageDir, and
// the temporary file of a write on Windows), or a regular file ".BASE"
// followed by at least minTempDigits digits (the temporary file of
// renameio) that is not as well the temporary file of another output
// (otherOutput). A symbolic link, or an entry of any other name, type or
// digit count, is not verdict's and is left alone.
func isStagingOf(dir dirView, e fs.DirEntry, base string) bool {
	rest, ok := strings.CutPrefix(e.Name(), "."+base)
	if !ok || rest == "" {
		return false
	}
	digits, staged := strings.CutPrefix(rest, stagingInfix)
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	if staged {
		return e.IsDir() || e.Type().IsRegular()
	}
	return e.Type().IsRegular() && len(digits) >= minTempDigits && !otherOutput(dir, base, digits)
}

// dirView is a directory as RemoveStale sees it: a directory of the file
// system (RemoveStale) or one inside an os.Root (RemoveStaleIn), whose
// look-ups and removals never leave the root.
type dirView struct {
	lstat     func(name string) error
	readDir   func() ([]fs.DirEntry, error)
	removeAll func(name string) error
}

// osDir is the directory dir of the file system.
func osDir(dir string) dirView {
	return dirView{
		lstat:     func(n string) error { _, err := os.Lstat(filepath.Join(dir, n)); return err },
		readDir:   func() ([]fs.DirEntry, error) { return os.ReadDir(filepath.Clean(dir)) },
		removeAll: func(n string) error { return os.RemoveAll(filepath.Join(dir, n)) },
	}
}

// rootDir is the slash-separated directory dir inside root.
func rootDir(root *os.Root, dir string) dirView {
	return dirView{
		lstat:     func(n string) error { _, err := root.Lstat(path.Join(dir, n)); return err },
		readDir:   func() ([]fs.DirEntry, error) { return fs.ReadDir(root.FS(), dir) },
		removeAll: func(n string) error { return root.RemoveAll(path.Join(dir, n)) },
	}
}

// otherOutput reports whether ".BASE" followed by digits could as well be
// the temporary file of another output in dir whose name is base followed
// by some of those digits (".r1" + digits is also ".r" + "1" + digits):
// it is when such an output's lock file exists, and then the entry is
// left to that output's writer.
func otherOutput(dir dirView, base, digits string) bool {
	for k := 1; k <= len(digits)-minTempDigits; k++ {
		if err := dir.lstat(base + digits[:k] + LockSuffix); err == nil {
			return true
		}
	}
	return false
}

// RemoveStale removes the temporary files and staging directories of the
// output at path that a killed writer left in path's directory (the
// entries isStagingOf takes for verdict's; a user's ".NAME2" or
// ".NAME.bak" is kept). Call it only while holding the output's lock
// (LockOutput does), so that no live write's temporary file is removed.
func RemoveStale(path string) error {
	dir, base := filepath.Split(path)
	return removeStale(osDir(dir), base)
}

// RemoveStaleIn is RemoveStale for the output named by the
// slash-separated path rel inside root: every look-up and removal goes
// through root, so a directory on the way that is (or is swapped for) a
// symbolic link out of root is refused, never followed.
func RemoveStaleIn(root *os.Root, rel string) error {
	return removeStale(rootDir(root, path.Dir(rel)), path.Base(rel))
}

func removeStale(dir dirView, base string) error {
	ents, err := dir.readDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !isStagingOf(dir, e, base) {
			continue
		}
		if err := dir.removeAll(e.Name()); err != nil {
			return err
		}
	}
	return nil
}

// StagedDir is a directory output written as a whole: its files are
// written into a staging directory beside it (".NAME.staging<digits>")
// and Commit renames that directory into place, so that a reader sees
// every file of the output or none, and a killed write leaves only the
// staging directory, which no reader takes for the output.
type StagedDir struct {
	final, stage string
	done         bool
}

// StageDir begins the directory output dir, which must not exist or be
// an empty directory when Commit runs; its parent is created if missing.
// Hold the output's lock (LockOutput(dir)) from before StageDir until
// after Commit.
func StageDir(dir string) (*StagedDir, error) {
	final, err := Resolve(dir)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(final)+stagingInfix+"*")
	if err != nil {
		return nil, err
	}
	return &StagedDir{final: final, stage: stage}, nil
}

// WriteFile writes data to the file name (one path component) of the
// staged directory with mode perm and flushes it to disk.
func (s *StagedDir) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return s.WriteWith(name, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith streams the file name of the staged directory from write,
// with mode perm, and flushes it to disk.
func (s *StagedDir) WriteWith(name string, perm fs.FileMode, write func(io.Writer) error) error {
	if name != filepath.Base(name) || IsStaging(name) {
		return fmt.Errorf("staged file name %q is not one plain path component", name)
	}
	f, err := os.OpenFile(filepath.Join(s.stage, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Path returns the staging directory itself, for an output laid out as
// a tree (nested directories, files written by other code): everything
// written under it appears at the output's path with Commit, which
// flushes every file and directory of the tree to disk before the
// rename.
func (s *StagedDir) Path() string { return s.stage }

// Commit renames the staged directory into place: over nothing, or over
// an empty directory (never over one that holds a file: the rename then
// fails and the staging directory is removed by Cleanup). Every file and
// directory under the staging directory is flushed to disk first
// (syncTree), so that the output that appears is whole.
func (s *StagedDir) Commit() error {
	if err := os.Chmod(s.stage, 0o755); err != nil {
		return err
	}
	if err := syncTree(s.stage); err != nil {
		return err
	}
	beforeRename(s.final)
	if err := os.Rename(s.stage, s.final); err != nil {
		// Windows does not rename over a directory: remove the empty one
		// (os.Remove refuses one that holds anything) and retry.
		if fi, serr := os.Lstat(s.final); serr != nil || !fi.IsDir() || os.Remove(s.final) != nil {
			return err
		}
		if err := os.Rename(s.stage, s.final); err != nil {
			return err
		}
	}
	s.done = true
	return SyncDir(filepath.Dir(s.final))
}

// syncTree flushes every regular file and every directory under root
// (root included) to disk, directories after their entries.
func syncTree(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			return syncFile(p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := SyncDir(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Cleanup removes the staging directory unless Commit renamed it into
// place; it is safe to defer.
func (s *StagedDir) Cleanup() {
	if !s.done {
		os.RemoveAll(s.stage)
	}
}

// PauseEnv is the name of the environment variable of verdict's kill
// tests: when it holds the base name of an output (a file, or a staged
// directory), or its last path elements ("receipts/S1.json", to tell
// apart two outputs of one base name), a write of that output stops just
// before its rename,
// prints "verdict: paused before renaming PATH" on standard error and
// sleeps, so that a test can kill the process at exactly that point.
const PauseEnv = "VERDICT_TEST_PAUSE_BEFORE_RENAME"

// beforeRename is the kill tests' pause point (PauseEnv).
func beforeRename(dest string) {
	if name := os.Getenv(PauseEnv); name != "" && (name == filepath.Base(dest) || strings.HasSuffix(filepath.ToSlash(dest), "/"+name)) {
		fmt.Fprintf(os.Stderr, "verdict: paused before renaming %s\n", dest)
		time.Sleep(time.Hour)
	}
}
