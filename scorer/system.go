package scorer

import (
	"cmp"
	"fmt"
	"slices"

	"verdict/campaign"
	"verdict/verr"
)

// SystemTitle is a system's display name in reports ("Native", "Madar
// stable core", "Serena"; CONTRACT §6 table).
func SystemTitle(s campaign.SystemName) string {
	switch s {
	case campaign.SystemNative:
		return "Native"
	case campaign.SystemMadar:
		return "Madar stable core"
	case campaign.SystemSerena:
		return "Serena"
	}
	return string(s)
}

// Reasons of the system-comparison scorer.
const (
	// ReasonUnknownSystem: a workflow or setup charge names a system other
	// than native, madar or serena.
	ReasonUnknownSystem verr.Reason = "unknown-system"
	// ReasonDuplicateWorkflow: two workflows share system, task and
	// repetition.
	ReasonDuplicateWorkflow verr.Reason = "duplicate-workflow"
	// ReasonObligationNotRepositoryAnswerable: a workflow's packet support
	// names an obligation that is not one of its task's repository-
	// answerable obligations (CONTRACT §6: packet-supported coverage is
	// over the frozen repository-answerable denominator).
	ReasonObligationNotRepositoryAnswerable verr.Reason = "obligation-not-repository-answerable"
)

// SystemCharge is one measured charge: comparative cost (reference token
// cost plus metered MCP cost) and elapsed time, each exact or unknown,
// never an invented zero (CONTRACT §5–§6).
type SystemCharge struct {
	Cost Money `json:"cost"`
	Time Nanos `json:"time_ns"`
}

// zeroCharge is a known zero charge (nothing was charged).
func zeroCharge() SystemCharge { return SystemCharge{Cost: Of[PicoUSD](0), Time: Of[Nanosecond](0)} }

// Add returns the sum of both charges; unknown parts stay unknown.
func (c SystemCharge) Add(o SystemCharge) SystemCharge {
	return SystemCharge{Cost: c.Cost.Add(o.Cost), Time: c.Time.Add(o.Time)}
}

// SetupCharge is one cold setup, index, startup, readiness or refresh
// charge of a system (CONTRACT §6 "Charge full cold setup ... for each
// system and repository"; COMPARATOR-SELECTION.md "Runtime and cost
// boundary"). The declared Serena initial_instructions call is one of them
// (kind "initial_instructions"), never evidence.
type SetupCharge struct {
	System campaign.SystemName `json:"system"`
	// Repository is the repository the charge prepared; "" for a
	// system-wide one-time charge (package download and installation).
	Repository string `json:"repository"`
	// Workflow is the workflow the charge is attributed to (the first of
	// its system on its repository: its 12 minutes include the charge);
	// "" for a charge attributed to no workflow, which still counts in the
	// system's whole-suite total.
	Workflow string `json:"workflow"`
	// Kind names the charge: install, configure, index, startup,
	// readiness, refresh, initial_instructions, ...
	Kind string `json:"kind"`
	SystemCharge
}

// SystemWorkflowKey names one system workflow, in its input
// (SystemWorkflowInput) and in its score (SystemWorkflowScore): the
// workflow, its system, task and repository, repetition and place.
type SystemWorkflowKey struct {
	// ID is the workflow ID "W<n>".
	ID         string              `json:"id"`
	System     campaign.SystemName `json:"system"`
	Task       string              `json:"task"`
	Repository string              `json:"repository"`
	Repetition int                 `json:"repetition"`
	// Position is the 1-based place of the system in its repetition's
	// provider order (the six permutations are balanced).
	Position int `json:"position"`
}

// SystemWorkflowInput is one complete system workflow (CONTRACT §6): one
// investigation session and its review session, of one system on one task
// and repetition. Review is scored by ScoreRun against the task's frozen
// obligations, whose Answerable means repository-answerable here: its Arm
// is the review protocol the first experiment selected (the same for all
// three systems), its Outcome is answered, valid_failure (review timeout,
// malformed or refused) or investigation_failure (review not launched).
type SystemWorkflowInput struct {
	SystemWorkflowKey `json:",inline"`
	Review            RunInput `json:"review"`
	// InvestigationSession is the investigation session ID "S<n>".
	InvestigationSession string `json:"investigation_session"`
	// PacketSupported lists the repository-answerable obligations that the
	// truth checker found answerable from this workflow's returned raw
	// observation packet; nil when not determined (coverage unknown).
	PacketSupported []string `json:"packet_supported"`
	// Investigation and ReviewCharge are the two sessions' charges (a
	// review not launched is a known zero); Operations counts the
	// workflow's ordinary + MCP operations.
	Investigation SystemCharge `json:"investigation"`
	ReviewCharge  SystemCharge `json:"review_charge"`
	Operations    int          `json:"operations"`
}

// SystemThresholds is the numerical policy of CONTRACT §6, exact and
// inclusive: the absolute floors of CONTRACT §4 with R_sys for R, and the
// comparative bounds of Madar against Native and Serena.
type SystemThresholds struct {
	// Tasks (6) and Repetitions (2) are the planned sample per system.
	Tasks       int `json:"tasks"`
	Repetitions int `json:"repetitions"`
	// Floors holds the task-median (0.80) and macro (0.90) R_sys floors.
	Floors Thresholds `json:"floors"`
	// MaxTotalVsNative (0.85): Madar's whole-suite cost and time divided
	// by Native's; "at least 15% better".
	MaxTotalVsNative Fraction `json:"max_total_vs_native"`
	// MaxAggregateVsSerena (1.05): Madar's whole-suite cost and time
	// divided by Serena's.
	MaxAggregateVsSerena Fraction `json:"max_aggregate_vs_serena"`
	// MaxMacroLossVsSerena (0.05): Serena's macro-average task-median
	// R_sys minus Madar's.
	MaxMacroLossVsSerena Fraction `json:"max_macro_loss_vs_serena"`
	// MaxTaskMedian (1.15) and MaxPaired (1.25): each task-median and
	// each paired complete-workflow ratio of Madar against either
	// comparator, for cost and for time.
	MaxTaskMedian Fraction `json:"max_task_median"`
	MaxPaired     Fraction `json:"max_paired"`
}

// ContractSystemThresholds returns the CONTRACT §6 policy.
func ContractSystemThresholds() SystemThresholds {
	return SystemThresholds{Tasks: 6, Repetitions: 2,
		Floors:           Thresholds{Tasks: 6, Repetitions: 2, TaskMedianR: Frac(4, 5), MacroMedianR: Frac(9, 10), MinGain: Frac(0, 1), MaxTaskLoss: Frac(0, 1)},
		MaxTotalVsNative: Frac(17, 20), MaxAggregateVsSerena: Frac(21, 20), MaxMacroLossVsSerena: Frac(1, 20),
		MaxTaskMedian: Frac(23, 20), MaxPaired: Frac(5, 4)}
}

// SystemScoreInput is the whole input of EvaluateSystems: the tasks with
// their frozen obligations (Answerable = repository-answerable; the others
// are the separately frozen U set), every workflow in execution order,
// every setup charge, and the execution prerequisites.
type SystemScoreInput struct {
	CampaignID string      `json:"campaign_id"`
	Synthetic  bool        `json:"synthetic"`
	Tasks      []TaskInput `json:"tasks"`
	// Workflows are in manifest order; Setup charges name the workflow
	// they are attributed to.
	Workflows     []SystemWorkflowInput `json:"workflows"`
	Setup         []SetupCharge         `json:"setup"`
	Prerequisites []Prerequisite        `json:"prerequisites"`
	Thresholds    SystemThresholds      `json:"thresholds"`
}

// SystemWorkflowScore is one scored workflow.
type SystemWorkflowScore struct {
	SystemWorkflowKey    `json:",inline"`
	InvestigationSession string `json:"investigation_session"`
	// RSys is correctly addressed repository-answerable obligations / all
	// repository-answerable obligations of the task: the one frozen
	// denominator shared by the three systems, whatever each returned.
	RSys Fraction `json:"r_sys"`
	// PacketSupported is the packet-supported coverage: repository-
	// answerable obligations answerable from this workflow's packet / all
	// repository-answerable obligations; nil when not determined.
	PacketSupported *Fraction `json:"packet_supported"`
	// TruthfulUnknowns counts the repository-answerable obligations whose
	// settled grade is truthful_unknown (Review.TruthfulUnknowns, from the
	// settled grades only): U credit only, never correctly addressed, so
	// they never raise R_sys (CONTRACT §6). 0 for a failed review.
	TruthfulUnknowns int `json:"truthful_unknowns"`
	// Review is the review's run score (R there is R_sys).
	Review RunScore `json:"review"`
	// Cold is true for a workflow that carries attributed setup charges
	// (the first of its system on its repository).
	Cold bool `json:"cold"`
	// Warm is investigation + review; ColdSetup the setup charges this
	// workflow carries (known zero when none); Complete = Warm + ColdSetup.
	Warm       SystemCharge `json:"warm"`
	ColdSetup  SystemCharge `json:"cold_setup"`
	Complete   SystemCharge `json:"complete"`
	Operations int          `json:"operations"`
}

// SystemTaskScore is one system's aggregate over one task's repetitions.
type SystemTaskScore struct {
	Task       string `json:"task"`
	Repository string `json:"repository"`
	Eligible   bool   `json:"eligible"`
	Runs       int    `json:"runs"`
	// RSys lists each repetition's R_sys in repetition order.
	RSys       []Fraction `json:"r_sys"`
	MedianRSys *Fraction  `json:"median_r_sys"`
	MinRSys    *Fraction  `json:"min_r_sys"`
	// MedianU is over the task's separately frozen U set; nil without one.
	MedianU                    *Fraction `json:"median_u"`
	MedianPacketSupported      *Fraction `json:"median_packet_supported"`
	CriticalCompletionFailures int       `json:"critical_completion_failures"`
	SourceGateFailures         int       `json:"source_gate_failures"`
	InvestigationFailures      int       `json:"investigation_failures"`
	ValidFailures              int       `json:"valid_failures"`
	// MedianCost and MedianTime are the task medians of complete-workflow
	// cost and time (half a unit for two repetitions).
	MedianCost Fractional[PicoUSD]    `json:"median_cost"`
	MedianTime Fractional[Nanosecond] `json:"median_time_ns"`
}

// ColdFirstTask is the complete charge of a system's first workflow on a
// repository, cold setup included, never amortised (CONTRACT §6).
type ColdFirstTask struct {
	Repository string       `json:"repository"`
	Task       string       `json:"task"`
	Repetition int          `json:"repetition"`
	Charge     SystemCharge `json:"charge"`
}

// SystemScore is one system's scorecard.
type SystemScore struct {
	System campaign.SystemName `json:"system"`
	Tasks  []SystemTaskScore   `json:"tasks"`
	// MacroMedianRSys is the mean of the eligible tasks' median R_sys.
	MacroMedianRSys *Fraction `json:"macro_median_r_sys"`
	// UncertaintyCredited/UncertaintyCases count the separately frozen U
	// set over all this system's workflows.
	UncertaintyCredited int `json:"uncertainty_credited"`
	UncertaintyCases    int `json:"uncertainty_cases"`
	// TruthfulUnknowns is Σ workflow TruthfulUnknowns: repository-
	// answerable obligations the system's answers truthfully left
	// unknown (U credit only, never R_sys).
	TruthfulUnknowns int `json:"truthful_unknowns"`
	// PacketSupported is Σ packet-supported obligations / Σ repository-
	// answerable obligations over the system's workflows; nil when any
	// workflow's packet support was not determined.
	PacketSupported       *Fraction `json:"packet_supported"`
	Workflows             int       `json:"workflows"`
	InvestigationFailures int       `json:"investigation_failures"`
	ValidFailures         int       `json:"valid_failures"`
	// Setup is every setup charge of the system; ColdFirst the first
	// workflow per repository; Warm Σ warm workflow charges; Suite the
	// whole-suite total Warm + Setup (setup counts even when no task
	// completes).
	Setup     SystemCharge    `json:"setup"`
	ColdFirst []ColdFirstTask `json:"cold_first"`
	Warm      SystemCharge    `json:"warm"`
	Suite     SystemCharge    `json:"suite"`
	// Floors are the absolute source/safety and final-plan floors with
	// R_sys for R, and the oracle gate; MeetsRequiredQuality is their AND.
	Floors               []DecisionGate `json:"floors"`
	MeetsRequiredQuality bool           `json:"meets_required_quality"`
}

// SystemPair is one paired result of Madar against a comparator on one
// task and repetition (CONTRACT §6 "direct paired results").
type SystemPair struct {
	Task       string   `json:"task"`
	Repetition int      `json:"repetition"`
	MadarRSys  Fraction `json:"madar_r_sys"`
	OtherRSys  Fraction `json:"other_r_sys"`
	// DeltaRSys is Madar's minus the comparator's R_sys.
	DeltaRSys Fraction `json:"delta_r_sys"`
	// MadarCritical and OtherCritical report a critical failure (critical
	// completion failed or a critical wrong or invented claim).
	MadarCritical bool `json:"madar_critical"`
	OtherCritical bool `json:"other_critical"`
	// CostRatio and TimeRatio are Madar / comparator complete workflow.
	CostRatio Ratio `json:"cost_ratio"`
	TimeRatio Ratio `json:"time_ratio"`
}

// SystemTaskComparison is one task's median ratios of Madar against a
// comparator.
type SystemTaskComparison struct {
	Task            string    `json:"task"`
	DeltaMedianRSys *Fraction `json:"delta_median_r_sys"`
	CostRatio       Ratio     `json:"cost_ratio"`
	TimeRatio       Ratio     `json:"time_ratio"`
}

// SystemComparison is Madar against one comparator: paired results, task
// medians, whole-suite ratios and the macro quality difference.
type SystemComparison struct {
	Comparator campaign.SystemName    `json:"comparator"`
	Pairs      []SystemPair           `json:"pairs"`
	Tasks      []SystemTaskComparison `json:"tasks"`
	// SuiteCostRatio and SuiteTimeRatio are Madar's whole-suite total
	// (setup included) / the comparator's.
	SuiteCostRatio Ratio `json:"suite_cost_ratio"`
	SuiteTimeRatio Ratio `json:"suite_time_ratio"`
	// MacroLoss is the comparator's macro R_sys minus Madar's (positive:
	// Madar loses quality).
	MacroLoss *Fraction `json:"macro_loss"`
}

// The outcomes of the system comparison (CONTRACT §6), beside the first
// experiment's; DecisionExecutionInvalid is shared.
const (
	// DecisionMadarAdvantage: every gate passes; a Madar-specific
	// advantage on this sample.
	DecisionMadarAdvantage DecisionKind = "madar-advantage"
	// DecisionComparatorSimpler: Madar does not pass every gate and
	// Serena or Native gives the required quality more simply and cheaply
	// (meets every floor at no more whole-suite cost and time than Madar):
	// recommend replacement/integration or the generic review practice
	// rather than more Madar product development.
	DecisionComparatorSimpler DecisionKind = "comparator-simpler-cheaper"
	// DecisionNoMadarAdvantage: a gate fails (each is named) and no
	// comparator qualifies as simpler and cheaper.
	DecisionNoMadarAdvantage DecisionKind = "no-madar-advantage"
)

// SystemOutcomes lists every decision EvaluateSystems can take.
func SystemOutcomes() []DecisionKind {
	return []DecisionKind{DecisionMadarAdvantage, DecisionComparatorSimpler, DecisionNoMadarAdvantage, DecisionExecutionInvalid}
}

// SystemDecision is the comparison's outcome with every failing gate and
// failed prerequisite named.
type SystemDecision struct {
	DecisionCore `json:",inline"`
	// SimplerCheaper lists the comparators that meet every floor at no
	// more whole-suite cost and time than Madar (Native first).
	SimplerCheaper []campaign.SystemName `json:"simpler_cheaper"`
}

// SystemScorecard is EvaluateSystems' result (CONTRACT §6).
type SystemScorecard struct {
	CampaignID    string                `json:"campaign_id"`
	Synthetic     bool                  `json:"synthetic"`
	Thresholds    SystemThresholds      `json:"thresholds"`
	Workflows     []SystemWorkflowScore `json:"workflows"`
	Systems       []SystemScore         `json:"systems"`
	Comparisons   []SystemComparison    `json:"comparisons"`
	Setup         []SetupCharge         `json:"setup"`
	Prerequisites []Prerequisite        `json:"prerequisites"`
	Gates         []DecisionGate        `json:"gates"`
	Decision      SystemDecision        `json:"decision"`
}

// System returns the scorecard of s, or nil.
func (sc *SystemScorecard) System(s campaign.SystemName) *SystemScore {
	for i := range sc.Systems {
		if sc.Systems[i].System == s {
			return &sc.Systems[i]
		}
	}
	return nil
}

func knownSystem(s campaign.SystemName) bool { return slices.Contains(campaign.SystemNames, s) }

// EvaluateSystems scores every workflow (ScoreRun for the review, R_sys
// over the frozen repository-answerable denominator), aggregates each
// system's tasks, charges and floors, compares Madar with Native and
// Serena, evaluates every gate independently and takes the decision
// (CONTRACT §6). It refuses, with a *verr.Error, an unknown system, a
// duplicate workflow, a workflow of an unknown task, a run that cannot be
// scored (ScoreRun: a settled truthful_unknown outside the task's
// obligations among them) and packet support naming an obligation that is
// not repository-answerable.
func EvaluateSystems(in SystemScoreInput) (*SystemScorecard, error) {
	sc := &SystemScorecard{CampaignID: in.CampaignID, Synthetic: in.Synthetic, Thresholds: in.Thresholds,
		Setup: slices.Clone(in.Setup), Prerequisites: slices.Clone(in.Prerequisites)}
	if sc.Setup == nil {
		sc.Setup = []SetupCharge{}
	}
	tasks := slices.Clone(in.Tasks)
	slices.SortFunc(tasks, func(a, b TaskInput) int { return naturalCompare(a.ID, b.ID) })
	byTask := map[string]*TaskInput{}
	for i := range tasks {
		byTask[tasks[i].ID] = &tasks[i]
	}
	for i, s := range in.Setup {
		if !knownSystem(s.System) {
			return nil, verr.Newf(ReasonUnknownSystem, "", fmt.Sprintf("/setup/%d/system", i), "CONTRACT §6", "setup charge names system %q", s.System)
		}
	}
	type wk struct {
		sys  campaign.SystemName
		task string
		rep  int
	}
	seen, seenID := map[wk]bool{}, map[string]bool{}
	for i, w := range in.Workflows {
		ptr := fmt.Sprintf("/workflows/%d", i)
		if !knownSystem(w.System) {
			return nil, verr.Newf(ReasonUnknownSystem, "", ptr+"/system", "CONTRACT §6", "workflow names system %q", w.System)
		}
		k := wk{w.System, w.Task, w.Repetition}
		if seen[k] {
			return nil, verr.Newf(ReasonDuplicateWorkflow, "", ptr, "CONTRACT §6", "second workflow of %s on %s repetition %d", w.System, w.Task, w.Repetition)
		}
		seen[k] = true
		t, ok := byTask[w.Task]
		if !ok {
			return nil, verr.Newf(ReasonUnexpectedGrade, "", ptr+"/task", "CONTRACT §6", "workflow for unknown task %q", w.Task)
		}
		if w.ID == "" || seenID[w.ID] {
			return nil, verr.Newf(ReasonDuplicateWorkflow, "", ptr+"/id", "CONTRACT §6", "workflow ID %q is empty or repeated", w.ID)
		}
		seenID[w.ID] = true
		ws, err := scoreSystemWorkflow(t, w, ptr)
		if err != nil {
			return nil, err
		}
		ws.Warm = w.Investigation.Add(w.ReviewCharge)
		ws.ColdSetup = zeroCharge()
		for _, c := range in.Setup {
			if c.Workflow != "" && c.Workflow == w.ID {
				if c.System != w.System {
					return nil, verr.Newf(ReasonUnknownSystem, "", ptr+"/id", "CONTRACT §6", "a %s setup charge is attributed to %s workflow %s", c.System, w.System, w.ID)
				}
				ws.Cold = true
				ws.ColdSetup = ws.ColdSetup.Add(c.SystemCharge)
			}
		}
		ws.Complete = ws.Warm.Add(ws.ColdSetup)
		sc.Workflows = append(sc.Workflows, ws)
	}
	for _, s := range campaign.SystemNames {
		sc.Systems = append(sc.Systems, systemScore(s, tasks, sc.Workflows, in.Setup, in.Thresholds))
	}
	for _, c := range []campaign.SystemName{campaign.SystemNative, campaign.SystemSerena} {
		sc.Comparisons = append(sc.Comparisons, compareSystems(sc, c))
	}
	decideSystems(sc, tasks)
	slices.SortStableFunc(sc.Workflows, func(a, b SystemWorkflowScore) int {
		if c := naturalCompare(a.Task, b.Task); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Repetition, b.Repetition); c != 0 {
			return c
		}
		return cmp.Compare(a.Position, b.Position)
	})
	return sc, nil
}

// ReasonNoSystemInput: a system comparison was handed no system score
// input.
const ReasonNoSystemInput verr.Reason = "no-system-input"

// EvaluateSystemComparison is the system comparison's Evaluate behind the
// Design interface: EvaluateSystems on in.Systems, returned as a Scorecard
// whose Systems holds the system scorecard and whose prerequisites, gates
// and decision are the comparison's (so EvaluateDesign checks the decision
// against SystemOutcomes). A nil in.Systems is refused with
// ReasonNoSystemInput.
func EvaluateSystemComparison(in ScoreInput) (*Scorecard, error) {
	if in.Systems == nil {
		return nil, &verr.Error{Reason: ReasonNoSystemInput, Rule: "CONTRACT §6", Detail: "a system comparison was scored without its system score input"}
	}
	ss, err := EvaluateSystems(*in.Systems)
	if err != nil {
		return nil, err
	}
	return &Scorecard{CampaignID: ss.CampaignID, Synthetic: ss.Synthetic, Phase: in.Phase, Runs: []RunScore{}, Tasks: []TaskScore{},
		Pairs: []PairOutcome{}, Repositories: []RepositorySummary{}, Prerequisites: ss.Prerequisites, Gates: ss.Gates,
		Decision: Decision{DecisionCore: ss.Decision.DecisionCore},
		Systems:  ss}, nil
}

// scoreSystemWorkflow scores one workflow's review against the task's
// obligations and derives R_sys, packet-supported coverage and the
// truthful unknowns (from the review's settled grades: ScoreRun).
func scoreSystemWorkflow(t *TaskInput, w SystemWorkflowInput, ptr string) (SystemWorkflowScore, error) {
	// A system comparison's review: a settled truthful_unknown earns U
	// credit only, never R_sys (CONTRACT §6), whoever built the input.
	w.Review.SystemComparison = true
	rs, err := ScoreRun(t.Obligations, w.Review)
	if err != nil {
		return SystemWorkflowScore{}, err
	}
	ws := SystemWorkflowScore{SystemWorkflowKey: w.SystemWorkflowKey, InvestigationSession: w.InvestigationSession, RSys: rs.R, TruthfulUnknowns: rs.TruthfulUnknowns,
		Review: rs, Operations: w.Operations}
	if w.PacketSupported != nil {
		answerable := map[string]bool{}
		for _, o := range t.Obligations {
			if o.Answerable {
				answerable[o.ID] = true
			}
		}
		set := map[string]bool{}
		for j, id := range w.PacketSupported {
			if !answerable[id] {
				return ws, verr.Newf(ReasonObligationNotRepositoryAnswerable, "", fmt.Sprintf("%s/packet_supported/%d", ptr, j), "CONTRACT §6",
					"%s is not a repository-answerable obligation of %s", id, t.ID)
			}
			set[id] = true
		}
		f := Frac(int64(len(set)), rs.R.Den())
		ws.PacketSupported = &f
	}
	return ws, nil
}
