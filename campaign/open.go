package campaign

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"verdict/verr"
)

// ReasonOutsideCampaign: a path of the campaign resolves outside the
// campaign directory (a symbolic link to a file or directory outside it).
// verdict reads only the files inside the campaign directory; a campaign
// opened with os.OpenRoot(dir).FS() cannot read past its root, and Load
// reports such a file with this reason instead of "file-missing"
// (CONTRACT §7: the execution manifest binds every file of the campaign).
const ReasonOutsideCampaign verr.Reason = "path-escapes-campaign"

// escapesRoot reports whether err is os.Root's refusal of a path that
// leaves the root. The os package does not export that error, so it is
// recognised by its fixed text inside the *fs.PathError.
func escapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// refuseUnreadable records why path could not be read: a path leaving the
// campaign is refused with ReasonOutsideCampaign; any other failure with
// reason r and the given sentence.
func (l *loader) refuseUnreadable(err error, r verr.Reason, path, rule, format string, a ...any) {
	if escapesRoot(err) {
		l.refuse(ReasonOutsideCampaign, path, "", RuleFileIdentity,
			"the path leaves the campaign directory (a symbolic link to outside it); only files inside the campaign are read")
		return
	}
	l.refuse(r, path, "", rule, format, a...)
}

// RootFS returns the file system of a campaign directory opened as root,
// confined to it exactly as root.FS() is: every path is resolved by
// os.Root, so a symbolic link (or "..") leading outside the campaign fails
// with the same error (Load refuses it with ReasonOutsideCampaign).
//
// Only ReadFile and ReadDir differ, in cost (a large campaign has tens of
// thousands of files). On Linux, a path is resolved from a handle of the
// campaign directory itself, opened once through root: in one openat2 call
// with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS, or, where the kernel has
// no openat2, one component at a time with openat and O_NOFOLLOW. Either
// way no component can be a symbolic link or "..", so the path cannot
// leave the campaign. A symbolic link anywhere on
// the path, a file that is not regular, a directory entry of unknown type
// or any error falls back to root.FS(), whose result or error is returned.
// Either way the bytes and entries are those of the same files. Only the
// handle of the campaign directory is kept, for the life of the file
// system, like root's own: a directory below it that is renamed or
// replaced (by another directory or by a link out of the campaign) is
// resolved anew on every read, as os.Root resolves it.
func RootFS(root *os.Root) fs.FS {
	return &campaignRootFS{root: root, fsys: root.FS()}
}

type campaignRootFS struct {
	root *os.Root
	fsys fs.FS // root.FS(): StatFS, ReadFileFS, ReadDirFS, ReadLinkFS
	once sync.Once
	top  *os.File // the campaign directory opened through root; nil when it could not be opened
}

// Open opens name through os.Root (fs.FS).
func (c *campaignRootFS) Open(name string) (fs.File, error) { return c.fsys.Open(name) }

// Stat returns the FileInfo of name through os.Root (fs.StatFS).
func (c *campaignRootFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.fsys, name) }

// ReadLink returns the target of the symbolic link name (fs.ReadLinkFS).
func (c *campaignRootFS) ReadLink(name string) (string, error) { return fs.ReadLink(c.fsys, name) }

// Lstat returns the FileInfo of name without following a final symbolic
// link (fs.ReadLinkFS).
func (c *campaignRootFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(c.fsys, name) }

// ReadFile returns the bytes of name (fs.ReadFileFS); see RootFS. It
// reads exactly what os.Root reads, FIFOs and devices included; the
// loader reads through readRegular instead (ReadRegularFS).
func (c *campaignRootFS) ReadFile(name string) ([]byte, error) {
	if fs.ValidPath(name) && name != "." {
		if d := c.dir(); d != nil {
			if b, ok, err := readAt(d, name, nil, name, FileOther); ok && err == nil {
				return b, nil
			}
		}
	}
	return fs.ReadFile(c.fsys, name)
}

// readFileInto is readRegular for the campaign file name's kind
// (FileKindOf), reading into buf when it is large enough (the loader
// reuses buffers for the many session files); the result may or may not
// share buf's memory.
func (c *campaignRootFS) readFileInto(name string, buf []byte) ([]byte, error) {
	return c.readRegular(name, buf, FileKindOf(name))
}

// readRegular reads name as ReadRegular reads a path: only a regular
// file, within kind's cap, opened without blocking.
func (c *campaignRootFS) readRegular(name string, buf []byte, kind FileKind) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if name != "." {
		if d := c.dir(); d != nil {
			if b, ok, err := readAt(d, name, buf, name, kind); ok {
				return b, err
			}
		}
	}
	f, err := c.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(name, fi, kind); err != nil {
		return nil, err
	}
	return readCapped(name, f, kind)
}

// bufferedFS is a file system that can read a file into a given buffer
// (RootFS).
type bufferedFS interface {
	readFileInto(name string, buf []byte) ([]byte, error)
}

// readInto reads the campaign file p of fsys as ReadRegularFS does, for
// p's kind (FileKindOf), into buf when fsys can (bufferedFS) and buf is
// large enough; the result may or may not share buf's memory.
func readInto(fsys fs.FS, p string, buf []byte) ([]byte, error) {
	if bfs, ok := fsys.(bufferedFS); ok {
		return bfs.readFileInto(p, buf)
	}
	return ReadRegularFS(fsys, p, FileKindOf(p))
}

// ReadDir lists the directory name sorted by file name (fs.ReadDirFS);
// see RootFS.
func (c *campaignRootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if fs.ValidPath(name) && name != "." {
		if d := c.dir(); d != nil {
			if ents, ok := readDirAt(d, name); ok {
				out := make([]fs.DirEntry, len(ents))
				for i, e := range ents {
					out[i] = rootDirEntry{fsys: c, path: name + "/" + e.name, name: e.name, typ: e.typ}
				}
				slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
				return out, nil
			}
		}
	}
	return fs.ReadDir(c.fsys, name)
}

// dirEnt is one raw directory entry: its name and file type bits.
type dirEnt struct {
	name string
	typ  fs.FileMode
}

// rootDirEntry is a directory entry read by RootFS.ReadDir; Info reads the
// FileInfo through os.Root (Lstat) when asked.
type rootDirEntry struct {
	fsys       *campaignRootFS
	path, name string
	typ        fs.FileMode
}

func (e rootDirEntry) Name() string               { return e.name }
func (e rootDirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e rootDirEntry) Type() fs.FileMode          { return e.typ }
func (e rootDirEntry) Info() (fs.FileInfo, error) { return e.fsys.Lstat(e.path) }

// dir returns the handle of the campaign directory, opening it through
// os.Root the first time; nil when it cannot be opened as a directory.
func (c *campaignRootFS) dir() *os.File {
	c.once.Do(func() {
		if f, err := c.root.Open("."); err == nil {
			if st, err := f.Stat(); err == nil && st.IsDir() {
				c.top = f
			} else {
				f.Close()
			}
		}
	})
	return c.top
}
