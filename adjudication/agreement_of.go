package adjudication

import (
	"encoding/json"
	"fmt"
	"slices"
)

// AgreementFieldsCounted states which fields the agreement statistics
// count; `verdict agreement` and report.json print it beside the numbers.
const AgreementFieldsCounted = "all fields: every field of the required kinds (obligation, uncertainty, claim, claim_critical, citation, exclusion, completeness) graded on either sheet, a field graded twice counting with its last grade and a field graded on one sheet only left unpaired; oracle-defect flags are not among them and have their own row, compared over every obligation and uncertainty field of every item (no flag, or a withdrawn one, is not_flagged)"

// NotFlagged stands for "no oracle-defect flag" (no flag, or a withdrawn
// one) in the oracle-defect agreement row.
const NotFlagged = "not_flagged"

// AgreementRow is one group of fields (all fields, one grade kind, the
// oracle-defect flags or one frozen obligation) with the number of fields
// in it and its three statistics (CONTRACT §5 "Two source-based ratings").
type AgreementRow struct {
	// Group is "all", a grade kind, or an obligation key (ID@digest).
	Group string `json:"group"`
	// Label is an obligation's text (shortened), "" otherwise.
	Label string `json:"label,omitempty"`
	// Fields counts the fields of the group, paired or not.
	Fields  int       `json:"fields"`
	Percent Statistic `json:"percent_agreement"`
	Kappa   Statistic `json:"cohens_kappa"`
	Alpha   Statistic `json:"krippendorff_alpha_nominal"`
	// Confusion is the two raters' values side by side; set for the rows
	// of one grade kind and for the oracle-defect flags (one vocabulary
	// each), nil for the pooled and by-obligation rows.
	Confusion *Confusion `json:"confusion,omitempty"`
}

// NotGraded stands for "no value on this sheet" in a Confusion: a field
// graded on one sheet only (unpaired, left out of the statistics).
const NotGraded = "not_graded"

// Confusion is the confusion matrix of two raters over one group of
// fields: Counts[i][j] is the number of fields rater 1 (the first sheet)
// gave Values[i] and rater 2 gave Values[j]. Values are the values either
// rater gave, sorted, NotGraded last when a field was graded on one sheet
// only. The diagonal is agreement.
type Confusion struct {
	Values []string  `json:"values"`
	Counts [][]int64 `json:"counts"`
}

// confusionOf builds the Confusion of a pair table.
func confusionOf(t PairTable) *Confusion {
	seen := map[string]bool{}
	for p := range t {
		seen[p[0]], seen[p[1]] = true, true
	}
	c := &Confusion{Values: []string{}, Counts: [][]int64{}}
	for v := range seen {
		if v != "" {
			c.Values = append(c.Values, v)
		}
	}
	slices.Sort(c.Values)
	if seen[""] {
		c.Values = append(c.Values, "")
	}
	for _, a := range c.Values {
		row := make([]int64, len(c.Values))
		for j, b := range c.Values {
			row[j] = t[[2]string{a, b}]
		}
		c.Counts = append(c.Counts, row)
	}
	for i, v := range c.Values {
		if v == "" {
			c.Values[i] = NotGraded
		}
	}
	return c
}

// Agreement is the one agreement definition of two frozen sheets: what
// `verdict agreement` prints and what report.json records. FieldsCounted
// is AgreementFieldsCounted.
type Agreement struct {
	FieldsCounted string `json:"fields_counted"`
	// All is every field of the required kinds (oracle-defect flags not
	// among them).
	All AgreementRow `json:"all_fields"`
	// ByKind has one row per required kind, in canonical order (Kinds
	// without KindOracleDefect), also for a kind with no field.
	ByKind []AgreementRow `json:"by_kind"`
	// OracleDefect compares the oracle-defect flags over every obligation
	// and uncertainty field of every item (NotFlagged when absent).
	OracleDefect AgreementRow `json:"oracle_defect"`
	// ByObligation groups the obligation and uncertainty fields of the
	// items that share one frozen obligation; empty without a grouping.
	ByObligation []AgreementRow `json:"by_obligation"`
}

// ObligationGroup returns the group key and label of an obligation or
// uncertainty field, or "" when the field belongs to no known obligation.
type ObligationGroup func(Field) (key, label string)

// AgreementOf computes the Agreement of the grades of two frozen sheets
// (a and b, as on the sheets; order does not matter). Fields are joined
// by JoinGrades and counted into one PairTable per group, so no per-field
// value list is held (a 10,000-session campaign has hundreds of thousands
// of fields). group, when not nil, adds the by-obligation rows.
func AgreementOf(a, b []Grade, group ObligationGroup) Agreement {
	type flagKey struct{ item, target string }
	flags := [2]map[flagKey]string{{}, {}}
	for i, gs := range [2][]Grade{a, b} {
		for _, g := range gs {
			if g.Kind == KindOracleDefect {
				flags[i][flagKey{g.Item, g.Target}] = g.Value // the last grade counts
			}
		}
	}
	flag := func(i int, f Field) string {
		if v := flags[i][flagKey{f.Item, f.Target}]; v != "" {
			return v
		}
		return NotFlagged
	}
	type counted struct {
		label  string
		fields int
		t      PairTable
	}
	add := func(c *counted, x, y string) {
		c.fields++
		c.t.Add(x, y)
	}
	all := &counted{t: PairTable{}}
	oracle := &counted{t: PairTable{}}
	byKind := map[Kind]*counted{}
	byOb := map[string]*counted{}
	JoinGrades(a, b, func(f Field, x, y Grade) {
		if f.Kind == KindOracleDefect {
			return
		}
		add(all, x.Value, y.Value)
		c := byKind[f.Kind]
		if c == nil {
			c = &counted{t: PairTable{}}
			byKind[f.Kind] = c
		}
		add(c, x.Value, y.Value)
		if f.Kind != KindObligation && f.Kind != KindUncertainty {
			return
		}
		add(oracle, flag(0, f), flag(1, f))
		if group == nil {
			return
		}
		if k, label := group(f); k != "" {
			o := byOb[k]
			if o == nil {
				o = &counted{label: label, t: PairTable{}}
				byOb[k] = o
			}
			add(o, x.Value, y.Value)
		}
	})
	row := func(name string, c *counted) AgreementRow {
		r := AgreementRow{Group: name}
		if c == nil {
			c = &counted{t: PairTable{}}
		}
		r.Label, r.Fields = c.label, c.fields
		r.Percent, r.Kappa, r.Alpha = c.t.Statistics()
		return r
	}
	withConfusion := func(r AgreementRow, c *counted) AgreementRow {
		t := PairTable{}
		if c != nil {
			t = c.t
		}
		r.Confusion = confusionOf(t)
		return r
	}
	out := Agreement{FieldsCounted: AgreementFieldsCounted, All: row("all", all), OracleDefect: withConfusion(row(string(KindOracleDefect), oracle), oracle), ByObligation: []AgreementRow{}}
	for _, k := range Kinds {
		if k != KindOracleDefect {
			out.ByKind = append(out.ByKind, withConfusion(row(string(k), byKind[k]), byKind[k]))
		}
	}
	keys := make([]string, 0, len(byOb))
	for k := range byOb {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out.ByObligation = append(out.ByObligation, row(k, byOb[k]))
	}
	return out
}

// MarshalJSON writes an undefined statistic without a value member (its
// reason says why), never as 0 (CONTRACT §5).
func (s Statistic) MarshalJSON() ([]byte, error) {
	type defined struct {
		Value   float64 `json:"value"`
		Defined bool    `json:"defined"`
		N       int     `json:"n"`
	}
	type undefined struct {
		Defined bool   `json:"defined"`
		Reason  string `json:"reason"`
		N       int    `json:"n"`
	}
	if s.Defined {
		return json.Marshal(defined{s.Value, true, s.N})
	}
	return json.Marshal(undefined{false, s.Reason, s.N})
}

// String renders the statistic to three decimals with its n, or
// "undefined (reason; n=N)".
func (s Statistic) String() string {
	if !s.Defined {
		return fmt.Sprintf("undefined (%s; n=%d)", s.Reason, s.N)
	}
	return fmt.Sprintf("%.3f (n=%d)", s.Value, s.N)
}
