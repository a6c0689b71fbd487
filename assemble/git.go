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

// Commit checks that commit is a full lowercase object name of a commit in
// the repository (an abbreviation, branch or tag name is refused: a packet
// binds one exact commit) and returns it.
func (g GitRepo) Commit(commit string) (string, error) {
	if !fullObjectName.MatchString(commit) {
		return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit,
			Detail: fmt.Sprintf("%q is not a full commit object name (40 lowercase hex digits)", commit)}
	}
	out, stderr, err := g.git("cat-file", "-t", commit)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit,
				Detail: fmt.Sprintf("commit %s is not in the repository: %s", commit, strings.TrimSpace(string(stderr)))}
		}
		return "", &verr.Error{Reason: ReasonGitFailed, File: g.Dir, Rule: ruleCommit, Detail: err.Error(), Err: err}
	}
	if t := strings.TrimSpace(string(out)); t != "commit" {
		return "", &verr.Error{Reason: ReasonCommitMissing, File: g.Dir, Rule: ruleCommit,
			Detail: fmt.Sprintf("%s is a %s, not a commit", commit, t)}
	}
	return commit, nil
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
