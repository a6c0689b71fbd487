package assemble

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// Refusals of reading a repository.
const (
	// ReasonCommitMissing: the commit is not a full object name of a commit
	// present in the repository.
	ReasonCommitMissing verr.Reason = "commit-missing"
	// ReasonPathMissing: the path names no file (blob) at the commit.
	ReasonPathMissing verr.Reason = "path-missing"
	// ReasonGitFailed: the git binary could not be run or failed for
	// another reason.
	ReasonGitFailed verr.Reason = "git-failed"
	// ReasonBlobMismatch: the bytes git gave for a file do not hash to the
	// blob object ID the commit's tree records for it (a corrupt object,
	// or bytes that are not the commit's).
	ReasonBlobMismatch verr.Reason = "blob-mismatch"
)

const ruleCommit = "CONTRACT §3 packets: repository commit, relative file path, exact bytes"

// fullObjectName is a full SHA-1 object name, the form packet.json binds.
var fullObjectName = regexp.MustCompile(`^[0-9a-f]{40}$`)

// GitRepo reads blobs of a local clone at a commit through the git binary
// (`git cat-file`), never from the work tree, so uncommitted edits, the
// index, checkout filters and line-ending conversion cannot change a byte.
type GitRepo struct {
	// Dir is the clone's directory (a work tree or a bare repository).
	Dir string
	// Git is the git executable (default "git").
	Git string
}

func (g GitRepo) git(args ...string) ([]byte, []byte, error) {
	bin := g.Git
	if bin == "" {
		bin = "git"
	}
	// Replace refs are disabled (--no-replace-objects and its variable):
	// a `git replace` ref would otherwise give other bytes under the
	// genuine commit's object names.
	cmd := exec.Command(bin, append([]string{"--no-replace-objects", "-C", g.Dir}, args...)...)
	// No pager and no credential prompts; cat-file and ls-tree apply no
	// filters, so configuration cannot change the bytes.
	cmd.Env = append(cmd.Environ(), "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// Commit resolves ref (a full or abbreviated object name, a branch, a tag
// or HEAD; anything `git rev-parse` accepts) to the full lowercase object
// name of the commit it names in the repository, and returns it: a packet
// binds one exact commit, never a name that can move. A ref that names no
// commit, names a tree or blob, is ambiguous, or begins with "-" is
// ReasonCommitMissing; a repository whose object names are not SHA-1 (40
// hex digits) is refused the same way, since packet.json binds SHA-1
// names.
func (g GitRepo) Commit(ref string) (string, error) {
	if ref == "" || strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, " \t\n\x00") {
		return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit,
			Detail: fmt.Sprintf("%q is not a commit name (an object name, branch, tag or HEAD)", ref)}
	}
	out, stderr, err := g.git("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			detail := fmt.Sprintf("%q names no commit in the repository", ref)
			if s := strings.TrimSpace(string(stderr)); s != "" {
				detail += ": " + s
			}
			return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit, Detail: detail}
		}
		return "", &verr.Error{Reason: ReasonGitFailed, File: g.Dir, Rule: ruleCommit, Detail: err.Error(), Err: err}
	}
	sha := strings.TrimSpace(string(out))
	if !fullObjectName.MatchString(sha) {
		return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit,
			Detail: fmt.Sprintf("%q resolves to %q, not a 40-digit SHA-1 commit name", ref, sha)}
	}
	return sha, nil
}

// Blob returns the exact bytes of the file at path in commit, read by the
// blob object ID the commit's tree records for path (replace refs
// disabled) and checked against it: the bytes must hash to that ID as a
// git blob (ReasonBlobMismatch). A path that is absent at the commit, or
// names a directory, link or submodule, is ReasonPathMissing; a blob over
// the source cap is refused (campaign.ReasonFileTooLarge) before it is
// read.
func (g GitRepo) Blob(commit, path string) ([]byte, error) {
	spec := commit + ":" + path
	// ls-tree tells a regular file (mode 100644 or 100755) from a link,
	// directory or submodule; cat-file alone would follow none of them.
	out, stderr, err := g.git("ls-tree", "--full-tree", "-z", commit, "--", path)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonGitFailed, File: g.Dir, Rule: ruleCommit, Detail: strings.TrimSpace(string(stderr)), Err: err}
	}
	entry := string(bytes.TrimSuffix(out, []byte{0}))
	mode, rest, _ := strings.Cut(entry, " ")
	meta, name, _ := strings.Cut(rest, "\t")
	_, oid, _ := strings.Cut(meta, " ")
	if entry == "" || name != path {
		return nil, &verr.Error{Reason: ReasonPathMissing, File: spec, Rule: ruleCommit, Detail: fmt.Sprintf("%s does not exist at commit %s", path, commit)}
	}
	if mode != "100644" && mode != "100755" {
		return nil, &verr.Error{Reason: ReasonPathMissing, File: spec, Rule: ruleCommit, Detail: fmt.Sprintf("%s at commit %s is not a regular file (mode %s)", path, commit, mode)}
	}
	if !fullObjectName.MatchString(oid) {
		return nil, &verr.Error{Reason: ReasonGitFailed, File: spec, Rule: ruleCommit, Detail: fmt.Sprintf("git ls-tree gave %q for %s, not a blob object ID", entry, path)}
	}
	size, stderr, err := g.git("cat-file", "-s", oid)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonGitFailed, File: spec, Rule: ruleCommit, Detail: strings.TrimSpace(string(stderr)), Err: err}
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(string(size)), 10, 64); err != nil || n > campaign.FileSource.MaxSize() {
		return nil, &verr.Error{Reason: campaign.ReasonFileTooLarge, File: spec, Rule: campaign.RuleFileKinds,
			Detail: fmt.Sprintf("%s bytes; a %s may hold at most %d bytes, and check refuses a larger one", strings.TrimSpace(string(size)), campaign.FileSource, campaign.FileSource.MaxSize())}
	}
	blob, stderr, err := g.git("cat-file", "blob", oid)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonGitFailed, File: spec, Rule: ruleCommit, Detail: strings.TrimSpace(string(stderr)), Err: err}
	}
	if got := BlobID(blob); got != oid {
		return nil, &verr.Error{Reason: ReasonBlobMismatch, File: spec, Rule: ruleCommit,
			Detail: fmt.Sprintf("git gave bytes whose blob object ID is %s; the tree of commit %s records %s for %s", got, commit, oid, path)}
	}
	return blob, nil
}

// BlobID is the git (SHA-1) blob object ID of data: the SHA-1 of
// "blob <size>\x00" followed by data, in lowercase hex.
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
