package assemble

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// Refusals of building or writing a packet.
const (
	// ReasonItemSpec: an item is not written PATH:START-END with a
	// canonical repository-relative path and 1 <= START <= END.
	ReasonItemSpec verr.Reason = "item-spec"
	// ReasonFileDiffers: a file already in the campaign holds other bytes
	// than the ones verdict would write there; it is never replaced.
	ReasonFileDiffers verr.Reason = "file-differs"
	// ReasonBinarySource: a source file holds a NUL byte: it is binary,
	// and an excerpt is text a rater reads.
	ReasonBinarySource verr.Reason = "binary-source"
	// ReasonTooManyItems: more items are requested than a packet may hold
	// (CONTRACT §3: 6–12), refused before any file is read.
	ReasonTooManyItems verr.Reason = "too-many-items"
)

// MaxPacketItems is the most evidence items a packet holds (CONTRACT §3,
// the packet schema's maxItems).
const MaxPacketItems = 12

// repositoryName is the packet schema's repository pattern.
var repositoryName = regexp.MustCompile(`^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$`)

const rulePacket = "CONTRACT §3 packets: stable IDs, commit, relative path, inclusive 1-based lines, file hash and exact bytes"

// ItemSpec is one requested excerpt: a repository-relative path and an
// inclusive, 1-based line range.
type ItemSpec struct {
	Path       string
	Start, End int
}

// String is the PATH:START-END form ParseItemSpec reads.
func (s ItemSpec) String() string { return fmt.Sprintf("%s:%d-%d", s.Path, s.Start, s.End) }

// ParseItemSpec reads PATH:START-END (the last colon separates the path,
// so a path may hold colons). The path must be canonical
// (campaign.CheckFilePath) and 1 <= START <= END; otherwise ReasonItemSpec.
func ParseItemSpec(s string) (ItemSpec, error) {
	bad := func(why string) error {
		return &verr.Error{Reason: ReasonItemSpec, Rule: rulePacket, Detail: fmt.Sprintf("%q: %s (want PATH:START-END)", s, why)}
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return ItemSpec{}, bad("no colon")
	}
	path, rng := s[:i], s[i+1:]
	if why := campaign.CheckFilePath(path); why != "" {
		return ItemSpec{}, bad(why)
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return ItemSpec{}, bad("no line range")
	}
	start, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || a != strconv.Itoa(start) || b != strconv.Itoa(end) {
		return ItemSpec{}, bad("lines are not decimal integers")
	}
	if start < 1 || end < start {
		return ItemSpec{}, bad("lines must satisfy 1 <= START <= END")
	}
	return ItemSpec{Path: path, Start: start, End: end}, nil
}

// ReadItemSpecs reads one PATH:START-END per line from r, in order; blank
// lines and lines starting with # are skipped.
func ReadItemSpecs(r io.Reader) ([]ItemSpec, error) {
	var out []ItemSpec
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(out) == MaxPacketItems {
			return nil, &verr.Error{Reason: ReasonTooManyItems, Rule: rulePacket, Detail: fmt.Sprintf("more than %d items listed; a packet holds 6 to %d (reading stopped)", MaxPacketItems, MaxPacketItems)}
		}
		s, err := ParseItemSpec(line)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// BlobSource gives the exact bytes of files at one commit (GitRepo).
type BlobSource interface {
	// Commit checks that commit exists and returns its full name.
	Commit(commit string) (string, error)
	// Blob returns the bytes of path at commit.
	Blob(commit, path string) ([]byte, error)
}

// PacketRequest is what a packet is built from.
type PacketRequest struct {
	// Task is the task ID ("T1").
	Task string
	// Repository is the "owner/name" the items come from.
	Repository string
	// Commit is the full commit object name.
	Commit string
	// Items are the excerpts, in the order they become E1..En.
	Items []ItemSpec
	// CompleteByConstruction marks a packet intentionally built to be
	// complete (CONTRACT §3).
	CompleteByConstruction bool
}

// BuiltPacket is a packet and the source files its items bind.
type BuiltPacket struct {
	Packet campaign.Packet
	// Commit is the full commit object name the request's ref resolved to
	// (GitRepo.Commit), which every item records.
	Commit string
	// Bytes are packet.json's canonical bytes.
	Bytes []byte
	// Sources maps each campaign-relative source path
	// (campaign.SourcePath) to the file's exact bytes at the commit.
	Sources map[string][]byte
}

// BuildPacket reads every item's file at the commit from src and builds the
// packet: E1..En in the order given, each with the commit, path, lines,
// the SHA-256 of the whole file and the exact bytes of its lines (line
// breaks included), cut with the loader's own physical-line rule
// (campaign.PhysicalLines: LF and CRLF each end a line, a final newline
// makes no extra line). An end line past the file's last physical line is
// campaign.ReasonLineBeyondFile. The result is decoded again with the
// strict packet decoder (6–12 items, schema and ID rules) before it is
// returned, so a packet check would refuse is never written.
func BuildPacket(req PacketRequest, src BlobSource) (*BuiltPacket, error) {
	if !repositoryName.MatchString(req.Repository) || campaign.CheckFilePath(req.Repository) != "" || strings.Contains(req.Repository, "..") {
		return nil, verr.Newf(ReasonItemSpec, campaign.PacketPath(req.Task), "/items", rulePacket, "repository %q is not OWNER/NAME", req.Repository)
	}
	file := campaign.PacketPath(req.Task)
	if len(req.Items) > MaxPacketItems {
		return nil, verr.Newf(ReasonTooManyItems, file, "/items", rulePacket, "%d items requested; a packet holds 6 to %d (nothing was read)", len(req.Items), MaxPacketItems)
	}
	commit, err := src.Commit(req.Commit)
	if err != nil {
		return nil, err
	}
	out := &BuiltPacket{Commit: commit, Packet: campaign.Packet{Task: req.Task, CompleteByConstruction: req.CompleteByConstruction, Items: []campaign.EvidenceItem{}}, Sources: map[string][]byte{}}
	blobs := map[string][]byte{}
	for i, it := range req.Items {
		b, ok := blobs[it.Path]
		if !ok {
			if b, err = src.Blob(commit, it.Path); err != nil {
				return nil, err
			}
			// What check refuses in a source is refused here, before any
			// file is written: bytes that are not UTF-8 text.
			if !utf8.Valid(b) {
				return nil, verr.Newf(campaign.ReasonInvalidUTF8, campaign.SourcePath(req.Repository, it.Path), "", campaign.RuleAuthenticity,
					"%s at %s is not valid UTF-8: an excerpt is JSON text and could not hold its exact bytes", it.Path, commit)
			}
			if bytes.IndexByte(b, 0) >= 0 {
				return nil, verr.Newf(ReasonBinarySource, campaign.SourcePath(req.Repository, it.Path), "", campaign.RuleAuthenticity,
					"%s at %s holds a NUL byte: a binary file is not evidence a rater can read", it.Path, commit)
			}
			blobs[it.Path] = b
			out.Sources[campaign.SourcePath(req.Repository, it.Path)] = b
		}
		lines := campaign.PhysicalLines(b)
		if it.End > len(lines) {
			return nil, verr.Newf(campaign.ReasonLineBeyondFile, file, fmt.Sprintf("/items/%d/end_line", i), campaign.RuleAuthenticity, "%s: end line %d is after the last physical line %d of %s at %s (a final newline makes no line)", it, it.End, len(lines), it.Path, commit)
		}
		out.Packet.Items = append(out.Packet.Items, campaign.EvidenceItem{
			ID: "E" + strconv.Itoa(i+1), Repository: req.Repository, Commit: commit, Path: it.Path,
			StartLine: it.Start, EndLine: it.End, FileSHA256: blinding.Digest(b),
			Excerpt: string(b[lines[it.Start-1].Start:lines[it.End-1].Next]),
		})
	}
	if out.Bytes, err = blinding.MarshalCanonical(out.Packet); err != nil {
		return nil, err
	}
	if _, err := campaign.DecodePacket(out.Bytes, file); err != nil {
		return nil, err
	}
	return out, nil
}

// Written is one file a command wrote or found already in place.
type Written struct {
	// Path is campaign-relative, slash separated.
	Path string `json:"path"`
	// SHA256 is the file's digest.
	SHA256 string `json:"sha256"`
	// Unchanged is true when the file already held exactly these bytes.
	Unchanged bool `json:"unchanged"`
}

// WritePacket writes the packet's sources (sorted by path) and then
// packet.json into the campaign directory dir. A file that exists with
// other bytes is refused with ReasonFileDiffers before anything is
// written; a file with the same bytes is left as it is.
func WritePacket(dir string, p *BuiltPacket) ([]Written, error) {
	files := make([]fileBytes, 0, len(p.Sources)+1)
	for path, b := range p.Sources {
		files = append(files, fileBytes{path, b})
	}
	slices.SortFunc(files, func(a, b fileBytes) int { return strings.Compare(a.path, b.path) })
	files = append(files, fileBytes{campaign.PacketPath(p.Packet.Task), p.Bytes})
	return writeNew(dir, files, rulePacket)
}

type fileBytes struct {
	path string
	data []byte
}

// writeNew writes every file under dir unless one of them exists with other
// bytes (ReasonFileDiffers, nothing written) or is not a regular file.
//
// The whole comparison and write hold the campaign's write lock
// (LockCampaign): a second writer is refused (fsutil.ReasonOutputLocked),
// so two runs never leave one run's file beside the other's. Each file is
// staged beside its destination and renamed into place (fsutil.WriteFile),
// in the order given: the caller puts last the file that names the
// others (packet.json, the receipt), and the temporary files a killed
// earlier write left beside a destination are removed first, when a
// verdict writer held the campaign's lock before
// (fsutil.Output.RemoveStale).
func writeNew(dir string, files []fileBytes, rule string) ([]Written, error) {
	lock, err := LockCampaign(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	return writeHeld(lock, dir, files, rule)
}

// writeHeld is writeNew for a caller that already holds the campaign's
// write lock (LockCampaign).
func writeHeld(lock *fsutil.Output, dir string, files []fileBytes, rule string) ([]Written, error) {
	out, err := compareExisting(dir, files, rule)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if out[i].Unchanged {
			continue
		}
		if err := mkdirBeneath(dir, path.Dir(f.path)); err != nil {
			return nil, &verr.Error{Reason: ReasonFileDiffers, File: f.path, Rule: rule, Detail: err.Error(), Err: err}
		}
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := lock.RemoveStale(p); err != nil {
			return nil, err
		}
		if err := fsutil.WriteFile(p, f.data, 0o644); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compareExisting is writeNew's refusal, without writing: each file as
// Written (Unchanged when dir holds it with the same bytes), or
// ReasonFileDiffers when dir holds one with other bytes.
func compareExisting(dir string, files []fileBytes, rule string) ([]Written, error) {
	out := make([]Written, len(files))
	for i, f := range files {
		out[i] = Written{Path: f.path, SHA256: blinding.Digest(f.data)}
		old, err := readRegular(filepath.Join(dir, filepath.FromSlash(f.path)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, &verr.Error{Reason: ReasonFileDiffers, File: f.path, Rule: rule, Detail: err.Error(), Err: err}
		case bytes.Equal(old, f.data):
			out[i].Unchanged = true
		default:
			return nil, &verr.Error{Reason: ReasonFileDiffers, File: f.path, Rule: rule,
				Detail: fmt.Sprintf("already exists with other bytes (SHA-256 %s, new %s); it is not replaced", blinding.Digest(old), out[i].SHA256)}
		}
	}
	return out, nil
}

// mkdirBeneath creates the slash-separated directory rel under dir one
// component at a time, refusing a component that exists and is not a
// directory (a link could lead the write out of the campaign).
func mkdirBeneath(dir, rel string) error {
	cur := dir
	if rel == "." {
		return nil
	}
	for _, seg := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(cur, 0o755); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", cur)
		}
	}
	return nil
}

// readRegular reads path if it is a regular file (not a link, directory or
// device), through the one bounded reader (campaign.ReadRegular) under the
// cap of its kind (kindOfPath).
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s exists and is not a regular file", path)
	}
	return campaign.ReadRegular(path, kindOfPath(path))
}

// kindOfPath is the campaign.FileKind of the file at path: by its
// campaign-relative path (campaign.FileKindOf) when it lies in one of a
// campaign's directories or is a manifest.json; any other file assemble
// reads whole is a previous round's report.json (campaign.FileReport).
func kindOfPath(path string) campaign.FileKind {
	slash := filepath.ToSlash(path)
	if strings.HasSuffix(slash, "/"+campaign.ManifestFile) || slash == campaign.ManifestFile {
		return campaign.FileManifest
	}
	last := -1
	for _, d := range []string{campaign.TasksDir, campaign.ResponsesDir, campaign.ReceiptsDir, campaign.SourcesDir, campaign.PromptsDir} {
		last = max(last, strings.LastIndex(slash, "/"+d+"/"))
	}
	if last >= 0 {
		return campaign.FileKindOf(slash[last+1:])
	}
	return campaign.FileReport
}
