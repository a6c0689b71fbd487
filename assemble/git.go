package assemble

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
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
	cmd := exec.Command(bin, append([]string{"-C", g.Dir}, args...)...)
	// No pager and no credential prompts; cat-file and ls-tree apply no
	// filters, so configuration cannot change the bytes.
	cmd.Env = append(cmd.Environ(), "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0")
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

// Blob returns the exact bytes of the file at path in commit. A path that
// is absent at the commit, or names a directory, link or submodule, is
// ReasonPathMissing.
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
	_, name, _ := strings.Cut(rest, "\t")
	if entry == "" || name != path {
		return nil, &verr.Error{Reason: ReasonPathMissing, File: spec, Rule: ruleCommit, Detail: fmt.Sprintf("%s does not exist at commit %s", path, commit)}
	}
	if mode != "100644" && mode != "100755" {
		return nil, &verr.Error{Reason: ReasonPathMissing, File: spec, Rule: ruleCommit, Detail: fmt.Sprintf("%s at commit %s is not a regular file (mode %s)", path, commit, mode)}
	}
	blob, stderr, err := g.git("cat-file", "blob", spec)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonGitFailed, File: spec, Rule: ruleCommit, Detail: strings.TrimSpace(string(stderr)), Err: err}
	}
	return blob, nil
}
