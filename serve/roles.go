package serve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui"
	"verdict/verr"
)

// prepared is a session's program, or the one line that ends it (done:
// nothing to serve, e.g. a sheet already frozen), with what closes its
// files and a summary for the server's log.
type prepared struct {
	model   tea.Model
	done    string
	closers []func() error
	summary func() string
}

func (p *prepared) close() {
	for _, c := range p.closers {
		_ = c()
	}
}

// prepareRater opens the rater's own bundle and journal (locked, as
// `verdict rate` opens it) and returns the rate program on them. Freezing
// signs through the forwarded agent; without one it is refused with the
// reconnect command and grading works.
func (s *Server) prepareRater(sess ssh.Session, id Identity, key gossh.PublicKey) (*prepared, error) {
	l := s.cfg.Layout
	if !slices.Contains(l.Raters, id.Name) {
		return nil, &verr.Error{Reason: ReasonNoBundle, File: filepath.Base(l.BundlePath(id.Name)), Rule: ruleServedDir,
			Detail: fmt.Sprintf("no bundle for rater %s in the served directory (bundle-%s.json); ask the coordinator", id.Name, id.Name)}
	}
	sheet := l.SheetPath(id.Name)
	if _, err := os.Lstat(sheet); err == nil {
		return &prepared{done: fmt.Sprintf("%s, your sheet %s is frozen and signed; nothing is left to grade", id.Name, filepath.Base(sheet))}, nil
	}
	b, digest, err := blinding.LoadBundle(l.BundlePath(id.Name))
	if err != nil {
		return nil, err
	}
	j, err := adjudication.Open(l.JournalPath(id.Name), b)
	if err != nil {
		if adjudication.ErrLocked(err) {
			return nil, &verr.Error{Reason: ReasonSeatTaken, Detail: "your journal is open in another program on the server (verdict rate or grade); ask the coordinator", Err: err}
		}
		return nil, err
	}
	in := tui.RateInput{Bundle: b, Journal: j, Signer: tui.Signer{Name: id.Name, Fingerprint: id.Fingerprint}, Meaning: adjudication.SheetMeaning}
	if ssh.AgentRequested(sess) {
		in.Freeze = func() (string, error) {
			signer, done, err := s.agentSigner(sess, key, id.Name)
			if err != nil {
				return "", err
			}
			defer done()
			_, data, err := adjudication.FreezeSheet(j, b, digest, id.Name, adjudication.RoleRater, signer, s.cfg.Now().UTC(), s.cfg.Allowed, sheet)
			if err != nil {
				return "", err
			}
			d := blinding.Digest(data)
			s.logf("%s froze and signed %s (sha256 %s) with key %s through the forwarded agent", id.Name, filepath.Base(sheet), d, id.Fingerprint)
			return fmt.Sprintf("%s (sha256 %s…, signature %s.sig), signed by your key through your agent", filepath.Base(sheet), d[:16], filepath.Base(sheet)), nil
		}
	} else {
		in.NoFreeze = "no forwarded SSH agent, so your key cannot sign. Every grade is saved; to freeze, leave with q and reconnect with: " + s.reconnect(sess, id.Name)
	}
	return &prepared{
		model:   tui.NewRateModel(in, tui.Options{}),
		closers: []func() error{j.Close},
		summary: func() string {
			st := j.State()
			return fmt.Sprintf("%d of %d required fields graded", len(st.Grades)-oracleFlags(st.Grades), len(st.Grades)-oracleFlags(st.Grades)+len(st.Ungraded))
		},
	}, nil
}

// prepareAdjudicator returns the adjudicator's screen: it waits for both
// sheets to be frozen and then runs the adjudicate program.
func (s *Server) prepareAdjudicator(sess ssh.Session, id Identity, key gossh.PublicKey) (*prepared, error) {
	l := s.cfg.Layout
	if len(l.Raters) != 2 {
		return nil, &verr.Error{Reason: ReasonNoBundle, Rule: ruleServedDir, Detail: fmt.Sprintf("the served directory has %d rater bundles; an adjudication needs exactly two", len(l.Raters))}
	}
	if slices.Contains(l.Raters, id.Name) {
		return nil, &verr.Error{Reason: adjudication.ReasonAdjudicatorIsRater, Rule: "CONTRACT §5", Detail: id.Name + " is a rater of this directory; the adjudicator is a third person"}
	}
	if _, err := os.Lstat(l.AdjudicationPath()); err == nil {
		return &prepared{done: "the adjudication " + filepath.Base(l.AdjudicationPath()) + " is signed; nothing is left to resolve"}, nil
	}
	a := &adjScreen{s: s, sess: sess, id: id, key: key}
	return &prepared{model: a, closers: []func() error{a.close}, summary: a.summary}, nil
}

// adjReady is what the adjudicate program needs once both sheets are
// frozen.
type adjReady struct {
	in  tui.AdjudicateInput
	log *adjudication.DecisionLog
}

// readyAdjudication returns the adjudicate program's input when both
// sheets are frozen and verify, or waiting (what it waits for), or a
// refusal.
func (s *Server) readyAdjudication(sess ssh.Session, id Identity, key gossh.PublicKey) (*adjReady, string, error) {
	l := s.cfg.Layout
	var frozen []adjudication.FrozenSheet
	var files []adjudication.RecordFile
	var wait []string
	for _, name := range l.Raters {
		st, fs, f := raterStatus(l, s.cfg.Allowed, name)
		if fs == nil {
			w := fmt.Sprintf("the sheet of %s (%d/%d fields graded)", name, st.Graded, st.Required)
			if st.Problem != "" {
				w += ": " + st.Problem
			}
			wait = append(wait, w)
			continue
		}
		if err := adjudication.CheckAdjudicator(adjudication.Signer{Name: id.Name, Role: id.Role, KeyFingerprint: id.Fingerprint}, fs.Sheet, filepath.Base(f.Name)); err != nil {
			return nil, "", err
		}
		frozen, files = append(frozen, *fs), append(files, f)
	}
	if len(wait) > 0 {
		return nil, "waiting for " + strings.Join(wait, " and "), nil
	}
	b, _, err := blinding.LoadBundle(l.BundlePath(l.Raters[0]))
	if err != nil {
		return nil, "", err
	}
	log, err := adjudication.OpenDecisions(l.DecisionsPath(), frozen[0], frozen[1])
	if err != nil {
		if adjudication.ErrLocked(err) {
			return nil, "", &verr.Error{Reason: ReasonSeatTaken, Detail: "the decision log is open in another program on the server (verdict adjudicate)", Err: err}
		}
		return nil, "", err
	}
	in := tui.AdjudicateInput{Bundle: b, Signer: tui.Signer{Name: id.Name, Fingerprint: id.Fingerprint}, Meaning: adjudication.AdjudicationMeaning}
	in.UseDecisionLog(log)
	out := l.AdjudicationPath()
	if ssh.AgentRequested(sess) {
		in.Sign = func([]tui.Decision) (string, error) {
			signer, done, err := s.agentSigner(sess, key, id.Name)
			if err != nil {
				return "", err
			}
			defer done()
			adj, err := adjudication.NewAdjudication(frozen[0], frozen[1], log.Choices(), id.Name, adjudication.RoleAdjudicator, key, s.cfg.Now().UTC())
			if err != nil {
				return "", err
			}
			rec, err := adjudication.SignCheckWrite(adj, signer, adjudication.NamespaceAdjudication, s.cfg.Allowed, files, out)
			if err != nil {
				return "", err
			}
			d := blinding.Digest(rec)
			s.logf("%s signed %s (sha256 %s) with key %s through the forwarded agent", id.Name, filepath.Base(out), d, id.Fingerprint)
			return fmt.Sprintf("%s (sha256 %s…), signed by your key through your agent", filepath.Base(out), d[:16]), nil
		}
	} else {
		in.NoSign = "no forwarded SSH agent, so your key cannot sign. Every decision is saved; to sign, leave with q and reconnect with: " + s.reconnect(sess, id.Name)
	}
	return &adjReady{in: in, log: log}, "", nil
}

// errText is err as one line for a screen.
func errText(err error) string {
	var ve *verr.Error
	if errors.As(err, &ve) {
		return oneLine(err)
	}
	return err.Error()
}
