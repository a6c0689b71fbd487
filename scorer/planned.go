package scorer

import (
	"fmt"
	"strings"

	"verdict/campaign"
	"verdict/internal/plural"
	"verdict/verr"
)

// RulePlanned is the rule cited for a campaign whose manifest lists
// sessions that have not started.
const RulePlanned = "CONTRACT §5 every start ends in a response/error/interruption receipt; a planned session has not started"

// Reason codes of planned sessions (a campaign in progress).
const (
	// ReasonCampaignIncomplete: the manifest lists sessions that are
	// planned, not started (Planned). The campaign is not admitted for
	// scoring and `verdict score` refuses it; the planned sessions are not
	// invalid executions, and `verdict admit --plan` plans their dispatch.
	ReasonCampaignIncomplete verr.Reason = "campaign-incomplete"
	// ReasonSessionPlanned: a value of a planned session's accounting is
	// unknown because the session has not run (never zero).
	ReasonSessionPlanned verr.Reason = "session-planned"
)

// Planned reports whether a session the manifest lists is planned, not
// started: the campaign holds neither its receipt nor its response file
// (s is nil when the campaign holds nothing of it). Any record of a start
// — a receipt of any status, or a response file — means it started, and a
// start without a terminal receipt stays an invalid execution
// (missing-terminal-receipt, EVALUATOR-CONTROLS C15).
func Planned(s *campaign.Session) bool {
	return s == nil || (s.Receipt == nil && s.RawSHA256 == "" && s.Raw == nil)
}

// PlannedSessions lists the planned sessions of c (Planned) in manifest
// order: draft, review A, review B of each run.
func PlannedSessions(c *campaign.Campaign) []string {
	var out []string
	byRun := sessionsByRun(c)
	for i, run := range c.Manifest.Runs {
		ids := [3]string{run.Sessions.Draft, run.Sessions.ReviewA, run.Sessions.ReviewB}
		for j, s := range byRun[i] {
			if Planned(s) {
				out = append(out, ids[j])
			}
		}
	}
	return out
}

// IncompleteError is the campaign-incomplete refusal (file manifest.json,
// pointer /runs) naming the planned sessions (at most ten, then a count),
// or nil when none is planned.
func IncompleteError(planned []string) *verr.Error {
	if len(planned) == 0 {
		return nil
	}
	shown := planned
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(" and %d more", len(planned)-10)
	}
	return verr.Newf(ReasonCampaignIncomplete, campaign.ManifestFile, "/runs", RulePlanned, "%s not started (%s%s): the campaign is in progress, not admitted for scoring; a planned session is not an invalid execution",
		plural.Count(len(planned), "planned session has", "planned sessions have"), strings.Join(shown, ", "), more)
}
