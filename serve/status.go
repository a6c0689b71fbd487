package serve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/plural"
)

// RaterStatus is one rater's progress. It holds counts, times and
// digests only: never a grade value or a note.
type RaterStatus struct {
	Rater string `json:"rater"`
	// Graded and Required count required fields.
	Graded   int `json:"graded"`
	Required int `json:"required"`
	// ItemsDone counts items with every required field graded, of Items.
	ItemsDone int `json:"items_done"`
	Items     int `json:"items"`
	// Flagged counts items flagged to come back to.
	Flagged int `json:"flagged"`
	// SpentSeconds is the time spent on items as the journal records it.
	SpentSeconds int64 `json:"spent_seconds"`
	// LastActivity is the journal's last entry time (RFC 3339 UTC), ""
	// when the rater has not started.
	LastActivity string `json:"last_activity,omitempty"`
	// Connected is set by the server for a rater connected now (the
	// coordinator's SSH screen); `verdict status` does not know.
	Connected bool `json:"connected,omitempty"`
	// Frozen is true when the rater's sheet exists and verifies against
	// allowed_signers and the bundle; SheetSHA256 is then its digest.
	Frozen      bool   `json:"frozen"`
	SheetSHA256 string `json:"sheet_sha256,omitempty"`
	// Problem is why the journal or the sheet could not be read or does
	// not verify ("" when both are fine).
	Problem string `json:"problem,omitempty"`
}

// AdjudicationStatus is the adjudication's progress once both sheets are
// frozen: disputes resolved of total, and whether it is signed. Resolved
// counts the decision log's choices until a signed adjudication.json
// verifies; then it counts that record's resolutions (every dispute),
// however it was signed (resolve interactively or resolve --from).
type AdjudicationStatus struct {
	// Waiting names what the adjudication waits for ("" once both sheets
	// are frozen).
	Waiting  string `json:"waiting,omitempty"`
	Disputes int    `json:"disputes"`
	Resolved int    `json:"resolved"`
	Signed   bool   `json:"signed"`
	SHA256   string `json:"sha256,omitempty"`
	Problem  string `json:"problem,omitempty"`
}

// Report is the progress of a served directory (`verdict status`).
type Report struct {
	Dir          string             `json:"dir"`
	Raters       []RaterStatus      `json:"raters"`
	Adjudication AdjudicationStatus `json:"adjudication"`
}

// Status reads the progress of every rater of l and of the adjudication
// without taking any lock and without changing a file (ReadJournal,
// ReadDecisions): it can run beside `verdict serve` or `verdict rate`.
// A sheet counts as frozen only when it verifies against allowed and its
// bundle. live, when non-nil, reports whether a rater is connected now.
func Status(l Layout, allowed []adjudication.AllowedSigner, live func(rater string) bool) Report {
	r := Report{Dir: l.Dir}
	var frozen []adjudication.FrozenSheet
	var files []adjudication.RecordFile
	for _, name := range l.Raters {
		st, fs, f := raterStatus(l, allowed, name)
		if live != nil {
			st.Connected = live(name)
		}
		r.Raters = append(r.Raters, st)
		if fs != nil {
			frozen = append(frozen, *fs)
			files = append(files, f)
		}
	}
	r.Adjudication = adjudicationStatus(l, allowed, frozen, files)
	return r
}

func raterStatus(l Layout, allowed []adjudication.AllowedSigner, name string) (RaterStatus, *adjudication.FrozenSheet, adjudication.RecordFile) {
	st := RaterStatus{Rater: name}
	b, digest, err := blinding.LoadBundle(l.BundlePath(name))
	if err != nil {
		st.Problem = err.Error()
		return st, nil, adjudication.RecordFile{}
	}
	st.Items = len(b.Items)
	j, err := adjudication.ReadJournal(l.JournalPath(name), b)
	if err != nil {
		// A refused journal counts nothing graded, of every required field.
		st.Problem = err.Error()
		for i := range b.Items {
			st.Required += len(adjudication.RequiredFields(&b.Items[i]))
		}
	} else {
		js := j.State()
		st.Graded, st.Required = len(js.Grades)-oracleFlags(js.Grades), len(js.Grades)-oracleFlags(js.Grades)+len(js.Ungraded)
		open := map[string]bool{}
		for _, f := range js.Ungraded {
			open[f.Item] = true
		}
		st.ItemsDone = st.Items - len(open)
		for _, on := range j.Flags() {
			if on {
				st.Flagged++
			}
		}
		var spent time.Duration
		for _, d := range js.Spent {
			spent += d
		}
		st.SpentSeconds = int64(spent / time.Second)
		if es := j.Entries(); len(es) > 0 && es[len(es)-1].Time != "" {
			st.LastActivity = es[len(es)-1].Time
		}
	}
	f, err := adjudication.ReadRecordFile(l.SheetPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil, f
	}
	if err != nil {
		st.addProblem(err.Error())
		return st, nil, f
	}
	ch := adjudication.Verify(allowed, []adjudication.RecordFile{f}, adjudication.VerifyOptions{Bundles: map[string]*blinding.Bundle{digest: b}})[0]
	if !ch.OK || ch.Kind != "sheet" || ch.Sheet().Signer.Name != name {
		st.addProblem(fmt.Sprintf("%s does not verify: %s %s", l.SheetPath(name), ch.Reason, ch.Detail))
		return st, nil, f
	}
	st.Frozen, st.SheetSHA256 = true, ch.SHA256
	// A sheet that verifies against its bundle grades every required field
	// (sheet-incomplete otherwise), also when the rater's journal is kept
	// elsewhere (grade --journal, freeze --journal) and reads as empty.
	if st.Problem == "" {
		st.Graded, st.ItemsDone = st.Required, st.Items
	}
	return st, &adjudication.FrozenSheet{Sheet: ch.Sheet(), SHA256: ch.SHA256}, f
}

// addProblem adds problem p to the rater's status after any found
// before it (a refused journal, then a sheet that does not verify).
func (st *RaterStatus) addProblem(p string) {
	if st.Problem != "" {
		p = st.Problem + "; " + p
	}
	st.Problem = p
}

// oracleFlags counts the oracle-defect flags among gs (optional, never
// required fields).
func oracleFlags(gs []adjudication.Grade) int {
	n := 0
	for _, g := range gs {
		if g.Kind == adjudication.KindOracleDefect {
			n++
		}
	}
	return n
}

func adjudicationStatus(l Layout, allowed []adjudication.AllowedSigner, frozen []adjudication.FrozenSheet, files []adjudication.RecordFile) AdjudicationStatus {
	var a AdjudicationStatus
	if len(frozen) != 2 {
		a.Waiting = fmt.Sprintf("%d of 2 sheets frozen", len(frozen))
		if len(l.Raters) != 2 {
			a.Waiting += fmt.Sprintf(" (the directory serves %s; an adjudication needs exactly two)", plural.Count(len(l.Raters), "rater", "raters"))
		}
		return a
	}
	log, err := adjudication.ReadDecisions(l.DecisionsPath(), frozen[0], frozen[1])
	if err != nil {
		a.Problem = err.Error()
		return a
	}
	a.Disputes, a.Resolved = len(log.Disputes()), len(log.Choices())
	f, err := adjudication.ReadRecordFile(l.AdjudicationPath())
	if errors.Is(err, fs.ErrNotExist) {
		return a
	}
	if err != nil {
		a.Problem = err.Error()
		return a
	}
	checks := adjudication.Verify(allowed, append(files, f), adjudication.VerifyOptions{})
	if ch := checks[len(checks)-1]; ch.OK {
		// A signed adjudication that verifies against the two frozen
		// sheets resolves exactly their disputes (CheckAdjudication), also
		// when it was signed from a choices file (resolve --from) and the
		// interactive decision log is empty or absent: its resolutions are
		// the count.
		a.Signed, a.SHA256 = true, ch.SHA256
		a.Resolved = len(ch.Adjudication().Resolutions)
	} else {
		a.Problem = fmt.Sprintf("%s does not verify: %s %s", l.AdjudicationPath(), ch.Reason, ch.Detail)
	}
	return a
}

// WriteText writes r for a terminal: one block per rater and one for the
// adjudication, counts with their denominators.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ratings directory %s\n", r.Dir)
	for _, s := range r.Raters {
		state := "grading"
		switch {
		case s.Frozen:
			state = "frozen, sheet sha256 " + s.SheetSHA256
		case s.LastActivity == "":
			state = "not started"
		}
		if s.Connected {
			state += " · connected"
		}
		fmt.Fprintf(&b, "\nrater %s: %s\n", s.Rater, state)
		fmt.Fprintf(&b, "  fields graded   %d/%d\n", s.Graded, s.Required)
		fmt.Fprintf(&b, "  items done      %d/%d\n", s.ItemsDone, s.Items)
		fmt.Fprintf(&b, "  flagged items   %d\n", s.Flagged)
		fmt.Fprintf(&b, "  time spent      %s\n", (time.Duration(s.SpentSeconds) * time.Second).String())
		last := s.LastActivity
		if last == "" {
			last = "none"
		}
		fmt.Fprintf(&b, "  last activity   %s\n", last)
		if s.Problem != "" {
			fmt.Fprintf(&b, "  PROBLEM         %s\n", s.Problem)
		}
	}
	a := r.Adjudication
	b.WriteString("\nadjudication: ")
	switch {
	case a.Waiting != "":
		b.WriteString("waiting, " + a.Waiting + "\n")
	case a.Signed:
		fmt.Fprintf(&b, "signed, %d/%d disputes resolved, sha256 %s\n", a.Resolved, a.Disputes, a.SHA256)
	default:
		fmt.Fprintf(&b, "%d/%d disputes resolved\n", a.Resolved, a.Disputes)
	}
	if a.Problem != "" {
		fmt.Fprintf(&b, "  PROBLEM %s\n", a.Problem)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
