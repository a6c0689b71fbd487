package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"verdict/verr"
)

// Refusals of files that are not regular or too large (DESIGN "Chain of
// custody": only regular files are read, each kind under a size cap).
const (
	// ReasonNotRegularFile: the path names a FIFO, device, socket or
	// directory where a regular file is needed. It is refused without
	// being read, so a FIFO cannot hang a command and a device cannot feed
	// it without end.
	ReasonNotRegularFile verr.Reason = "not-regular-file"
	// ReasonFileTooLarge: the file is larger than its kind's cap
	// (FileKind.MaxSize); it is refused before it is read.
	ReasonFileTooLarge verr.Reason = "file-too-large"
)

// RuleFileKinds is the rule of ReasonNotRegularFile and ReasonFileTooLarge.
const RuleFileKinds = "DESIGN Chain of custody: only regular files, each kind under a size cap"

// FileKind is the kind of a file verdict reads; each kind has a size cap
// (MaxSize) far above what the contract lets such a file hold.
type FileKind string

// The file kinds and, in MaxSize, their caps.
const (
	FileManifest       FileKind = "manifest"
	FileResponse       FileKind = "response"
	FileReceipt        FileKind = "receipt"
	FileSource         FileKind = "source"
	FileTask           FileKind = "task file"
	FilePrompt         FileKind = "prompt"
	FileBundle         FileKind = "bundle"
	FileRecord         FileKind = "signed record"
	FileSignature      FileKind = "signature"
	FileAllowedSigners FileKind = "allowed_signers"
	FileSealedMap      FileKind = "sealed map"
	FileJournal        FileKind = "journal"
	FileGrades         FileKind = "grades file"
	FileChoices        FileKind = "choices file"
	FileKey            FileKind = "key"
	FileConfig         FileKind = "configuration file"
	FileRunLog         FileKind = "run log"
	FileTiming         FileKind = "timing file"
	FileItemList       FileKind = "item list"
	FileBatchIndex     FileKind = "batch index"
	FileReport         FileKind = "report"
	FileOther          FileKind = "file"
)

const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
)

// fileCaps are the size caps in bytes. The contract's largest files are
// far smaller: a response holds at most a few hundred texts of at most
// 2,048 scalar values (PROMPTS.md), a packet 6–12 excerpts, a receipt a
// few hundred bytes. A bundle, sheet, map and journal grow with the number
// of sessions; their caps allow campaigns of more than 100,000 sessions.
var fileCaps = map[FileKind]int64{
	FileManifest:       16 * mib,
	FileResponse:       32 * mib,
	FileReceipt:        1 * mib,
	FileSource:         16 * mib,
	FileTask:           16 * mib,
	FilePrompt:         1 * mib,
	FileBundle:         4 * gib,
	FileRecord:         2 * gib,
	FileSignature:      64 * kib,
	FileAllowedSigners: 4 * mib,
	FileSealedMap:      1 * gib,
	FileJournal:        2 * gib,
	FileGrades:         1 * gib,
	FileChoices:        1 * gib,
	FileKey:            64 * kib,
	// The configuration file holds a few keys (README "Configuration").
	FileConfig: 1 * mib,
	// A run log (receipt import --log) holds one session's events: its
	// response (at most the response cap) and a few hundred small events.
	FileRunLog: 64 * mib,
	// A timing file (receipt import --timing) holds a few times.
	FileTiming: 64 * kib,
	// An item list (packet --items) names at most 12 excerpts (CONTRACT
	// §3), one short line each.
	FileItemList: 64 * kib,
	// A batch index (receipt import --index) names one session's log and
	// timing file per line.
	FileBatchIndex: 16 * mib,
	// A report.json (check --previous-report) grows with the campaign.
	FileReport: 1 * gib,
	FileOther:  16 * mib,
}

// MaxSize is the largest file of kind k verdict reads, in bytes.
func (k FileKind) MaxSize() int64 {
	if n, ok := fileCaps[k]; ok {
		return n
	}
	return fileCaps[FileOther]
}

// FileKindOf returns the kind of the campaign-relative path p.
func FileKindOf(p string) FileKind {
	switch {
	case p == ManifestFile:
		return FileManifest
	case strings.HasPrefix(p, ResponsesDir+"/"):
		return FileResponse
	case strings.HasPrefix(p, ReceiptsDir+"/"):
		return FileReceipt
	case strings.HasPrefix(p, SourcesDir+"/"):
		return FileSource
	case strings.HasPrefix(p, TasksDir+"/"):
		return FileTask
	case strings.HasPrefix(p, PromptsDir+"/"):
		return FilePrompt
	}
	return FileOther
}

// CheckRegular refuses fi unless it is a regular file within kind's cap;
// name is the file as the user named it.
func CheckRegular(name string, fi fs.FileInfo, kind FileKind) error {
	return checkModeSize(name, fi.Mode(), fi.Size(), kind)
}

func checkModeSize(name string, m fs.FileMode, size int64, kind FileKind) error {
	if !m.IsRegular() {
		return &verr.Error{Reason: ReasonNotRegularFile, File: name, Rule: RuleFileKinds,
			Detail: fmt.Sprintf("a %s must be a regular file, this is a %s; it was not read", kind, modeWord(m))}
	}
	return checkSize(name, size, kind)
}

func checkSize(name string, size int64, kind FileKind) error {
	if size > kind.MaxSize() {
		return &verr.Error{Reason: ReasonFileTooLarge, File: name, Rule: RuleFileKinds,
			Detail: fmt.Sprintf("%d bytes; a %s may hold at most %d bytes", size, kind, kind.MaxSize())}
	}
	return nil
}

func modeWord(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "special file"
}

// OpenRegular opens the file at path for reading without blocking (a FIFO
// is opened non-blocking and then refused), and refuses it unless it is a
// regular file within kind's cap (ReasonNotRegularFile,
// ReasonFileTooLarge). A missing or unreadable file gives the os error.
func OpenRegular(path string, kind FileKind) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = CheckRegular(path, fi, kind)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadRegular reads the regular file at path (OpenRegular), refusing it
// as soon as it holds more than kind's cap even if it grew after opening.
func ReadRegular(path string, kind FileKind) ([]byte, error) {
	f, err := OpenRegular(path, kind)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(path, f, kind)
}

// readCapped reads r to its end, refusing more than kind's cap. A file
// is read into a buffer of its size from Stat (one allocation, not the
// doubling copies of io.ReadAll: a bundle is megabytes); one that grew
// after the Stat is still read to its end or its cap.
func readCapped(name string, r io.Reader, kind FileKind) ([]byte, error) {
	size := int64(512)
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
			size = min(fi.Size(), kind.MaxSize()) + bytes.MinRead
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if _, err := buf.ReadFrom(io.LimitReader(r, kind.MaxSize()+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if err := checkSize(name, int64(len(b)), kind); err != nil {
		return nil, err
	}
	return b, nil
}

// HashRegularFS returns the hex SHA-256 of the file p of fsys, opened
// and refused as ReadRegularFS opens and refuses it (a RootFS file without
// blocking, checked on its descriptor), streamed: the file is never held
// whole, and one that grows past kind's cap while it is read is refused.
func HashRegularFS(fsys fs.FS, p string, kind FileKind) (string, error) {
	var f io.ReadCloser
	if r, ok := fsys.(*campaignRootFS); ok {
		rf, err := r.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return "", err
		}
		fi, err := rf.Stat()
		if err == nil {
			err = CheckRegular(p, fi, kind)
		}
		if err != nil {
			rf.Close()
			return "", err
		}
		f = rf
	} else {
		fi, err := fs.Stat(fsys, p)
		if err != nil {
			return "", err
		}
		if err := CheckRegular(p, fi, kind); err != nil {
			return "", err
		}
		if f, err = fsys.Open(p); err != nil {
			return "", err
		}
	}
	defer f.Close()
	return hashCapped(p, f, kind)
}

// HashRegular returns the hex SHA-256 of the regular file at path,
// opened and refused as OpenRegular opens and refuses it, streamed under
// kind's cap (hashCapped): the file is never held whole.
func HashRegular(path string, kind FileKind) (string, error) {
	f, err := OpenRegular(path, kind)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashCapped(path, f, kind)
}

// hashCapped streams r into SHA-256, refusing more than kind's cap.
func hashCapped(name string, r io.Reader, kind FileKind) (string, error) {
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, kind.MaxSize()+1))
	if err != nil {
		return "", err
	}
	if err := checkSize(name, n, kind); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadRegularFS reads the file p of fsys as ReadRegular does: a RootFS
// file is opened without blocking and checked on its open descriptor;
// another file system's file is checked by fs.Stat before it is opened.
func ReadRegularFS(fsys fs.FS, p string, kind FileKind) ([]byte, error) {
	if r, ok := fsys.(*campaignRootFS); ok {
		return r.readRegular(p, nil, kind)
	}
	fi, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(p, fi, kind); err != nil {
		return nil, err
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(p, f, kind)
}

// asRefusal returns err's *Error when err is a refusal of this file (not
// regular, too large) rather than a failure to read it.
func asRefusal(err error) (*verr.Error, bool) {
	var e *verr.Error
	if err != nil && asError(err, &e) && (e.Reason == ReasonNotRegularFile || e.Reason == ReasonFileTooLarge) {
		return e, true
	}
	return nil, false
}
