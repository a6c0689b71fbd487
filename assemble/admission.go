package assemble

import (
	"slices"

	"verdict/campaign"
	"verdict/scorer"
)

// ImportAdmission runs admission's execution-validity rules
// (scorer.ExecutionValidity, whose receipt rules are scorer.ReceiptIssues:
// the very functions `verdict check` runs) on the campaign in dir as it
// will read once prior (earlier sessions of a batch) and im are written
// and bound (AfterImport), and returns, as errors, every finding this
// import brings: those on im's session and those on another session that
// compare it with im's (a session im overlaps, a response ID im repeats).
//
// Every rule whose inputs are present is decided now: the host against the
// manifest, overlap with every session that has run (of any run), the
// order against a sibling that has run, a response ID already recorded.
// Only a finding that compares the session with a sibling still planned
// waits (scorer.ValidityFinding.With names a planned session: a review
// whose draft is not imported yet, an arm imported before the arm declared
// first), so the sessions of a run may be imported in any order. A
// campaign that would not load is returned as the load's refusals: such a
// campaign cannot be admitted either.
func ImportAdmission(dir string, im *Imported, prior ...*Imported) ([]error, error) {
	after, err := AfterImport(dir, append(slices.Clone(prior), im)...)
	if err != nil {
		return nil, err
	}
	c, err := campaign.Load(after)
	if err != nil {
		return []error{err}, nil
	}
	id := im.Receipt.SessionID
	v := scorer.ExecutionValidity(c)
	var out []error
	for _, f := range v.Findings {
		if f.Session != id && f.With != id {
			continue
		}
		if f.With != "" && slices.Contains(v.Planned, f.With) {
			continue
		}
		out = append(out, f.Error())
	}
	return out, nil
}
