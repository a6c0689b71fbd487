package assemble

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// ReasonBatchIndex: a batch import's index file is not one session per
// line (SESSION LOG TIMING [ERROR-KIND]), lists a session twice or a
// session no run of the manifest lists, names one file twice, or gives an
// error kind that is not one.
const ReasonBatchIndex verr.Reason = "batch-index"

// ImportErrorKinds are the classifications a coordinator may give a
// failed turn on import (--error-kind, an index file's fourth column);
// shared_draft_failed is not one: it is derived from the draft.
var ImportErrorKinds = []campaign.ErrorKind{campaign.ErrorTimeout, campaign.ErrorRefusal, campaign.ErrorMalformed, campaign.ErrorBudget, campaign.ErrorInfrastructure}

// BatchIndex lists the sessions of a batch import from the index file
// index: one line per session, "SESSION LOG TIMING [ERROR-KIND]" with the
// fields separated by spaces or tabs; blank lines and lines starting with
// "#" are skipped. A relative LOG or TIMING path is read from the index
// file's directory. ERROR-KIND is the coordinator's classification of a
// failed turn (as --error-kind of a single import). The sessions come back
// in the manifest's dispatch order, whatever the order of the lines, as
// BatchSessions returns those of a log directory. Errors (index file, line
// and field): ReasonBatchIndex; the index cannot be read: the read error.
func BatchIndex(dir, index string) ([]BatchSession, error) {
	m, err := importManifest(dir)
	if err != nil {
		return nil, err
	}
	raw, err := campaign.ReadRegular(index, campaign.FileBatchIndex)
	if err != nil {
		return nil, err
	}
	base := filepath.Dir(index)
	found := map[string]*BatchSession{}
	lineOf := map[string]int{}
	paths := map[string]int{}
	bad := func(line int, format string, a ...any) error {
		return verr.Newf(ReasonBatchIndex, fmt.Sprintf("%s:%d", index, line), "", ruleTiming, format, a...)
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), int(campaign.FileBatchIndex.MaxSize()))
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 3 && len(f) != 4 {
			return nil, bad(n, "%d field(s); a line is SESSION LOG TIMING [ERROR-KIND] (a path with a space cannot be named here: rename the file)", len(f))
		}
		id := f[0]
		if !campaign.ValidID('S', id) {
			return nil, bad(n, "%q is not a session ID (S1, S2, …)", id)
		}
		if prev, ok := lineOf[id]; ok {
			return nil, bad(n, "session %s is listed twice (lines %d and %d)", id, prev, n)
		}
		b := &BatchSession{Session: id, Log: f[1], Timing: f[2]}
		for _, p := range []*string{&b.Log, &b.Timing} {
			if !filepath.IsAbs(*p) {
				*p = filepath.Join(base, *p)
			}
			if prev, ok := paths[*p]; ok {
				return nil, bad(n, "%s is named twice (lines %d and %d): each session has its own log and timing file", *p, prev, n)
			}
			paths[*p] = n
		}
		if len(f) == 4 {
			b.ErrorKind = campaign.ErrorKind(f[3])
			if !slices.Contains(ImportErrorKinds, b.ErrorKind) {
				return nil, bad(n, "%q is not an error kind (%v)", f[3], ImportErrorKinds)
			}
		}
		found[id], lineOf[id] = b, n
	}
	if err := sc.Err(); err != nil {
		return nil, verr.Newf(ReasonBatchIndex, index, "", ruleTiming, "%v", err)
	}
	out, unlisted := dispatchOrder(m, found)
	if len(unlisted) > 0 {
		id := unlisted[0]
		return nil, bad(lineOf[id], "no run of the manifest lists session %s", id)
	}
	return out, nil
}
