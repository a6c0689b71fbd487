package export

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/pipeline"
	"verdict/verr"
)

// Refusals of exporting grades.
const (
	// ReasonNotRevealed: unblinded columns (task, repetition, order, arm,
	// session) were asked for before a verified reveal exists.
	ReasonNotRevealed verr.Reason = "not-revealed"
	// ReasonSheetsMissing: the ratings directory does not hold exactly two
	// frozen rating sheets.
	ReasonSheetsMissing verr.Reason = "sheets-missing"
)

const ruleExport = "CONTRACT §5 raters never see arm, cost or time before the reveal; two frozen ratings, then adjudication"

// GradesRequest names what Grades reads.
type GradesRequest struct {
	// Campaign is the campaign directory (its manifest gives each run's
	// order for the unblinded columns).
	Campaign string
	// Ratings is the ratings directory: bundle-*.json, sheet-*.json,
	// adjudication.json and reveal.json, each record with its .sig.
	Ratings string
	// AllowedSigners is the coordinator's allowed_signers file, required
	// (never looked for inside Ratings: adjudication.ReasonAllowedSignersMissing
	// when empty). Map is the sealed map (default: inside Ratings).
	AllowedSigners, Map string
	// Unblinded asks for the unblinded columns; refused before a reveal.
	// Without it they are added exactly when a verified reveal exists.
	Unblinded bool
	// Blinded keeps the export blinded even after the reveal.
	Blinded bool
}

// Grades exports one row per graded field of the two frozen sheets: item,
// field kind and target, each rater's name, value, note and time spent on
// the field's item (Sheet.ItemTimes, milliseconds: a verified sheet has an
// entry for every item, 0 when its journal recorded none),
// whether the field was agreed, adjudicated or is still open, the final
// value and the adjudicator's note, and the SHA-256 of the sheets and the
// adjudication it comes from. The ratings directory is checked first as
// score checks it (pipeline.ReadRatings: the campaign's blinding derived
// again under the sealed map, each bundle the derived one, every record
// verified and each sheet checked against its bundle's fields); any
// refusal refuses the export with score's reason code.
// After a verified reveal that names those records and commits to the
// sealed map, the unblinded columns task, repetition, order, arm and
// session are added; asking for them before is ReasonNotRevealed.
func Grades(req GradesRequest) (*Table, error) {
	if req.Map == "" {
		req.Map = filepath.Join(req.Ratings, "sealed-map.json")
	}
	// The records that exist so far, checked as score checks them
	// (custody derived again from the campaign under the sealed map, each
	// sheet against its bundle's fields): export works before the
	// adjudication and the reveal.
	set, err := pipeline.ReadRatings(pipeline.DirFS(req.Campaign), pipeline.Ratings{Dir: req.Ratings, AllowedSigners: req.AllowedSigners, Map: req.Map})
	if err != nil {
		return nil, err
	}
	sheets, adj, adjSHA := set.Sheets, set.Adjudication, set.AdjudicationSHA256
	if len(sheets) != 2 {
		return nil, &verr.Error{Reason: ReasonSheetsMissing, File: req.Ratings, Rule: ruleExport,
			Detail: fmt.Sprintf("want two frozen rating sheets (sheet-*.json), found %d", len(sheets))}
	}
	two := adjudication.OrderSheets(sheets[0], sheets[1])
	// The reveal counts only when it names exactly these records and
	// commits to the sealed map given (the check score refuses on).
	var sealed *blinding.SealedMap
	revealed := set.Revealed(two[0].SHA256, two[1].SHA256)
	if revealed {
		sealed = set.Sealed
	}
	if req.Unblinded && !revealed {
		return nil, &verr.Error{Reason: ReasonNotRevealed, File: req.Ratings, Rule: ruleExport,
			Detail: "task, repetition, order, arm and session columns need a verified reveal that names both sheets and the adjudication and commits to the sealed map"}
	}
	unblind := revealed && !req.Blinded
	orders := map[string]campaign.Order{}
	if unblind {
		// The campaign the records were checked against (a reveal needs
		// the sealed map, so it was loaded and derived again).
		if set.Manifest != nil {
			for _, r := range set.Manifest.Runs {
				orders[r.Task+"/"+strconv.Itoa(r.Repetition)] = r.Order
			}
		}
	}
	// A system comparison's review is unblinded to its system (arm) and
	// the system's position in its block (order), by review session.
	var systems map[string]campaign.Workflow
	if unblind && set.SystemManifest != nil {
		systems = map[string]campaign.Workflow{}
		for _, w := range set.SystemManifest.Workflows {
			systems[w.Sessions.Review] = w
		}
	}
	t := gradesTable(two, adj, adjSHA, sealed, orders, systems, unblind)
	t.Synthetic = two[0].Sheet.Synthetic || two[1].Sheet.Synthetic
	return t, nil
}

func gradesTable(two [2]adjudication.FrozenSheet, adj *adjudication.Adjudication, adjSHA string, sealed *blinding.SealedMap, orders map[string]campaign.Order, systems map[string]campaign.Workflow, unblind bool) *Table {
	c := []string{"item", "kind", "target"}
	if unblind {
		c = append(c, "task", "repetition", "order", "arm", "session")
	}
	for _, n := range []string{"rater_1", "rater_2"} {
		c = append(c, n, n+"_value", n+"_note", n+"_item_time_spent_ms", n+"_item_time_spent_ms_unknown")
	}
	c = append(c, "settled", "final_value", "final_value_unknown", "adjudicator", "adjudicator_note", "sheet_1_sha256", "sheet_2_sha256", "adjudication_sha256")
	t := &Table{Columns: c}
	byField := [2]map[adjudication.Field]adjudication.Grade{{}, {}}
	var fields []adjudication.Field
	for i, s := range two {
		for _, g := range s.Sheet.Grades {
			if i == 0 {
				fields = append(fields, g.Field)
			}
			byField[i][g.Field] = g
		}
	}
	for _, g := range two[1].Sheet.Grades {
		if _, ok := byField[0][g.Field]; !ok {
			fields = append(fields, g.Field)
		}
	}
	slices.SortFunc(fields, func(a, b adjudication.Field) int {
		return cmp.Or(cmp.Compare(a.Item, b.Item), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Target, b.Target))
	})
	// Time is recorded per item (Sheet.ItemTimes), so every field of an
	// item shows the rater's time on that item.
	times := [2]map[string]int64{{}, {}}
	for i, s := range two {
		for _, it := range s.Sheet.ItemTimes {
			times[i][it.Item] = it.SpentMS
		}
	}
	resolved := map[adjudication.Field]adjudication.Resolution{}
	if adj != nil {
		for _, r := range adj.Resolutions {
			resolved[r.Field] = r
		}
	}
	items := map[string]blinding.MapItem{}
	if sealed != nil {
		for _, it := range sealed.Items {
			items[it.Item] = it
		}
	}
	for _, f := range fields {
		r := t.newRow()
		r.set("item", f.Item)
		r.set("kind", string(f.Kind))
		r.set("target", f.Target)
		if unblind {
			it := items[f.Item]
			r.set("task", it.Task)
			r.int("repetition", int64(it.Repetition))
			if w, ok := systems[it.Session]; ok {
				r.set("order", strconv.Itoa(w.Position))
				r.set("arm", string(w.System))
			} else {
				r.set("order", string(orders[it.Task+"/"+strconv.Itoa(it.Repetition)]))
				r.set("arm", armOf(it.Role))
			}
			r.set("session", it.Session)
		}
		var vals [2]string
		var has [2]bool
		for i, n := range []string{"rater_1", "rater_2"} {
			r.set(n, two[i].Sheet.Signer.Name)
			g, ok := byField[i][f]
			has[i] = ok
			if ok {
				vals[i] = g.Value
				r.set(n+"_value", g.Value)
				r.set(n+"_note", g.Note)
			} else {
				r.null(n + "_value")
			}
			if ms, ok := times[i][f.Item]; ok {
				r.int(n+"_item_time_spent_ms", ms)
			} else {
				r.unknown(n+"_item_time_spent_ms", "the frozen sheet records no time for this item", n+"_item_time_spent_ms")
			}
		}
		switch res, ok := resolved[f]; {
		case has[0] && has[1] && vals[0] == vals[1]:
			r.set("settled", "agreed")
			r.set("final_value", vals[0])
		case ok:
			r.set("settled", "adjudicated")
			r.set("final_value", res.Final)
			r.set("adjudicator", adj.Signer.Name)
			r.set("adjudicator_note", res.Note)
		default:
			r.set("settled", "open")
			r.unknown("final_value", "the raters disagree and no adjudication resolves this field yet", "final_value")
		}
		r.set("sheet_1_sha256", two[0].SHA256)
		r.set("sheet_2_sha256", two[1].SHA256)
		if adj != nil {
			r.set("adjudication_sha256", adjSHA)
		}
		r.done()
	}
	return t
}

// armOf is the arm letter of a review role.
func armOf(r campaign.Role) string {
	switch r {
	case campaign.RoleReviewA:
		return "A"
	case campaign.RoleReviewB:
		return "B"
	}
	return string(r)
}
