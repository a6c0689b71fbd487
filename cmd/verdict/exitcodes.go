package main

import (
	"errors"

	"verdict/scorer"
	"verdict/verr"
)

// The process exit codes of every verdict command, decided in main only
// (exitCode) from what the command returned. exitCodesHelp is their one
// table, printed by `verdict help` and copied in the README.
const (
	// exitOK: the command did its work. score: the decision is
	// all-gates-pass, or no-decision (development round 1 is inspected,
	// never decided: not a failure), or for a system comparison
	// madar-advantage (CONTRACT §6: every gate passes). check: the
	// campaign is admitted.
	exitOK = 0
	// exitFailed: the input was refused, or the command's report says a
	// gate or admission failed. score: quality-improves-gate-fails,
	// no-gain or execution-invalid; no-madar-advantage or
	// comparator-simpler-cheaper for a system comparison.
	exitFailed = 1
	// exitUsage: an unknown command or flag, a missing or malformed flag
	// value.
	exitUsage = 2
	// exitIncomplete: the campaign is in progress: sessions the manifest
	// lists are still planned (not started) and nothing else is wrong
	// (campaign-incomplete). check reports INCOMPLETE, score and every
	// other command that needs a complete campaign refuses it with this
	// code, so a runner's script can tell "wait" from "wrong".
	exitIncomplete = 3
)

// exitCodesHelp is the one table of exit codes (see the constants).
const exitCodesHelp = `Exit codes (the same in every command):
  0  success. score: decision all-gates-pass, or no-decision (development
     round 1 is inspected, never decided); a system comparison:
     madar-advantage; check: ADMITTED
  1  refused or failed: the input was refused, or the report says what
     failed. score: decision quality-improves-gate-fails, no-gain or
     execution-invalid; a system comparison: no-madar-advantage or
     comparator-simpler-cheaper; check: REFUSED or NOT ADMITTED
  2  usage error: an unknown command or flag, a missing or malformed value
  3  incomplete: sessions the manifest lists are still planned and nothing
     else is wrong (campaign-incomplete). check: INCOMPLETE; score and the
     other commands that need a complete campaign refuse it with 3`

// decisionExit is score's exit code for a decision kind.
func decisionExit(k scorer.DecisionKind) int {
	switch k {
	case scorer.DecisionAllGatesPass, scorer.DecisionNoDecision, scorer.DecisionMadarAdvantage:
		return exitOK
	default:
		return exitFailed
	}
}

// onlyIncomplete reports whether every refusal in err is
// campaign-incomplete (a campaign in progress, nothing else wrong).
func onlyIncomplete(err error) bool {
	errs := verr.Flatten(err)
	if len(errs) == 0 {
		return false
	}
	for _, e := range errs {
		var ve *verr.Error
		if !errors.As(e, &ve) || ve.Reason != scorer.ReasonCampaignIncomplete {
			return false
		}
	}
	return true
}
