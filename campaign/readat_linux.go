package campaign

import (
	"sync/atomic"

	"golang.org/x/sys/unix"

	"io/fs"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// openNoFollow opens name (one path component, never "" "." or "..")
// relative to the directory descriptor dfd without following a symbolic
// link.
func openNoFollow(dfd int, name string, flags int) (int, error) {
	if name == "" || name == "." || name == ".." {
		return -1, syscall.EINVAL
	}
	for {
		fd, err := syscall.Openat(dfd, name, flags|syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// walkAt opens the directory rel ("" for dir itself) below the open
// directory dir one component at a time without following symbolic links
// and calls f with its descriptor; ok is false when any step fails.
func walkAt(dir *os.File, rel string, f func(fd int) bool) bool {
	rc, err := dir.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	cerr := rc.Control(func(dfd uintptr) {
		fd := int(dfd)
		own := false
		for rel != "" {
			var part string
			part, rel, _ = strings.Cut(rel, "/")
			nfd, err := openNoFollow(fd, part, syscall.O_DIRECTORY)
			if own {
				syscall.Close(fd)
			}
			if err != nil {
				return
			}
			fd, own = nfd, true
		}
		ok = f(fd)
		if own {
			syscall.Close(fd)
		}
	})
	return cerr == nil && ok
}

// readAt reads the regular file rel (slash separated, valid fs path) below
// the open directory dir, following no symbolic link, into buf when it is
// large enough (else into a new slice): ok is false for a symbolic link
// anywhere on the path or any error, and the caller then reads the file
// through os.Root instead. A file that is not regular, or larger than
// kind's cap, is not read: ok is true and err is its refusal (named name).
func readAt(dir *os.File, rel string, buf []byte, name string, kind FileKind) (b []byte, ok bool, err error) {
	// One openat2 resolves the whole path beneath dir refusing every
	// symbolic link (RESOLVE_NO_SYMLINKS) — what the walk one component at
	// a time does in several system calls. A kernel without openat2, or
	// any error, takes the walk.
	if !noOpenat2.Load() {
		rc, cerr := dir.SyscallConn()
		if cerr == nil {
			fd := -1
			var oerr error
			rc.Control(func(dfd uintptr) {
				fd, oerr = openBeneath(int(dfd), rel)
			})
			if oerr == nil {
				defer syscall.Close(fd)
				return readOpen(fd, buf, name, kind)
			}
			if oerr == unix.ENOSYS {
				noOpenat2.Store(true)
			}
		}
	}
	parent, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		parent, base = rel[:i], rel[i+1:]
	}
	walkAt(dir, parent, func(dfd int) bool {
		fd, oerr := openNoFollow(dfd, base, syscall.O_NONBLOCK)
		if oerr != nil {
			return false
		}
		defer syscall.Close(fd)
		b, ok, err = readOpen(fd, buf, name, kind)
		return ok
	})
	return b, ok, err
}

// noOpenat2 records that the kernel has no openat2 (ENOSYS).
var noOpenat2 atomic.Bool

// openBeneath opens the file rel below the directory descriptor dfd with
// openat2: no component may be a symbolic link or leave dfd.
func openBeneath(dfd int, rel string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NOCTTY | unix.O_NONBLOCK,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(dfd, rel, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}

// readOpen reads the open descriptor fd of a regular file to its end,
// into buf when it is large enough; ok is false on any error. A file that
// is not regular or holds more than kind's cap is refused (ok true, err
// the refusal) without reading past the cap.
func readOpen(fd int, buf []byte, name string, kind FileKind) (b []byte, ok bool, err error) {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		return nil, false, nil
	}
	if err := checkModeSize(name, modeOf(st.Mode), st.Size, kind); err != nil {
		return nil, true, err
	}
	max := kind.MaxSize()
	if cap(buf) < int(st.Size)+1 {
		buf = make([]byte, 0, int(st.Size)+1)
	}
	buf = buf[:0]
	for {
		if int64(len(buf)) > max {
			return nil, true, checkSize(name, int64(len(buf)), kind)
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, rerr := syscall.Read(fd, buf[len(buf):cap(buf)])
		if rerr == syscall.EINTR {
			continue
		}
		if rerr != nil || n < 0 {
			return nil, false, nil
		}
		if n == 0 {
			return buf, true, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// modeOf converts the file type bits of a stat mode to an fs.FileMode.
func modeOf(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// readDirAt lists the directory rel ("" for dir itself) below the open
// directory dir, following no symbolic link; ok is false on any error or
// an entry whose type the file system does not report.
func readDirAt(dir *os.File, rel string) (ents []dirEnt, ok bool) {
	walkAt(dir, rel, func(pfd int) bool {
		// A fresh descriptor of the directory: its read offset is its own.
		fd, err := syscall.Openat(pfd, ".", syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err != nil {
			return false
		}
		defer syscall.Close(fd)
		buf := make([]byte, 32<<10)
		for {
			n, err := syscall.ReadDirent(fd, buf)
			if err == syscall.EINTR {
				continue
			}
			if err != nil || n < 0 {
				return false
			}
			if n == 0 {
				ok = true
				return true
			}
			for rec := buf[:n]; len(rec) > 0; {
				if len(rec) < 19 {
					return false
				}
				reclen := int(*(*uint16)(unsafe.Pointer(&rec[16])))
				if reclen < 19 || reclen > len(rec) {
					return false
				}
				name := rec[19:reclen]
				if i := strings.IndexByte(string(name), 0); i >= 0 {
					name = name[:i]
				}
				var typ fs.FileMode
				switch rec[18] {
				case syscall.DT_REG:
				case syscall.DT_DIR:
					typ = fs.ModeDir
				case syscall.DT_LNK:
					typ = fs.ModeSymlink
				case syscall.DT_FIFO:
					typ = fs.ModeNamedPipe
				case syscall.DT_SOCK:
					typ = fs.ModeSocket
				case syscall.DT_CHR:
					typ = fs.ModeDevice | fs.ModeCharDevice
				case syscall.DT_BLK:
					typ = fs.ModeDevice
				default:
					return false
				}
				if s := string(name); s != "." && s != ".." {
					ents = append(ents, dirEnt{name: s, typ: typ})
				}
				rec = rec[reclen:]
			}
		}
	})
	return ents, ok
}
