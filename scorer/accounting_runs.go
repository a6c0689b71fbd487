package scorer

import "verdict/campaign"

// runKey identifies a repetition of a task.
type runKey struct {
	task string
	rep  int
}

// comparedRuns returns the indexes of manifest runs used for comparison and
// the set of superseded run indexes: when several runs share a task and
// repetition, the last one that replaces another (runs[].replaces) is
// compared and the others are superseded (billed, not compared;
// CONTRACT §5 "preserving and charging the original attempt").
func comparedRuns(m *campaign.Manifest) (compared []int, superseded map[int]bool) {
	superseded = map[int]bool{}
	groups := map[runKey][]int{}
	var order []runKey
	for i, r := range m.Runs {
		k := runKey{r.Task, r.Repetition}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	chosen := map[int]bool{}
	for _, k := range order {
		idx := groups[k]
		pick := idx[0]
		for _, i := range idx {
			if m.Runs[i].Replaces != nil {
				pick = i
			}
		}
		chosen[pick] = true
		for _, i := range idx {
			if i != pick {
				superseded[i] = true
			}
		}
	}
	for i := range m.Runs {
		if chosen[i] {
			compared = append(compared, i)
		}
	}
	return compared, superseded
}

// sessionsByRun maps each manifest run index to its D, A and B sessions
// (nil when the loader produced no session for that ID).
func sessionsByRun(c *campaign.Campaign) map[int][3]*campaign.Session {
	byID := map[string][]*campaign.Session{}
	for _, s := range c.Sessions {
		byID[s.ID] = append(byID[s.ID], s)
	}
	out := map[int][3]*campaign.Session{}
	for i, r := range c.Manifest.Runs {
		pick := func(id string, role campaign.Role) *campaign.Session {
			for _, s := range byID[id] {
				if s.Role == role && s.Run.Task == r.Task && s.Run.Repetition == r.Repetition {
					return s
				}
			}
			if len(byID[id]) > 0 {
				return byID[id][0]
			}
			return nil
		}
		out[i] = [3]*campaign.Session{
			pick(r.Sessions.Draft, campaign.RoleDraft),
			pick(r.Sessions.ReviewA, campaign.RoleReviewA),
			pick(r.Sessions.ReviewB, campaign.RoleReviewB),
		}
	}
	return out
}

// missingSession returns the account of a session listed in the manifest
// for which the campaign holds nothing (no receipt): unknown throughout.
func missingSession(id string, r campaign.Run, role campaign.Role) *campaign.Session {
	return &campaign.Session{ID: id, Role: role, Run: r}
}
