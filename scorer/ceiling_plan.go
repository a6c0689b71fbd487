package scorer

import (
	"fmt"
	"regexp"

	"github.com/go-json-experiment/json"

	"verdict/campaign"
	"verdict/verr"
)

// PlanFormat is the required value of a plan file's "format" member.
const PlanFormat = "verdict-admission-plan/1"

// ReasonPlanMalformed: the admission plan file breaks its format.
const ReasonPlanMalformed verr.Reason = "plan-malformed"

// ReasonCampaignRefused: the campaign itself was refused by the strict
// loader, so no dispatch can be admitted against it.
const ReasonCampaignRefused verr.Reason = "campaign-refused"

// Plan is an admission plan file (PLAN.json) for `verdict admit`: the
// dispatch sequence to replay and the consumption already spent outside
// the campaign's receipts (preparation, adjudication; CONTRACT §5 counts
// them against the same ceilings). Format, every member required, no
// other member, no duplicate member, UTF-8:
//
//	{
//	  "format": "verdict-admission-plan/1",
//	  "prior_consumption": {"sessions": 0, "replacement_sessions": 0, "wall_ns": 0,
//	    "input_tokens": 0, "output_tokens": 0,
//	    "reference_micro_usd": 0, "actual_micro_usd": 0},
//	  "dispatches": [
//	    {"id": "P1", "task": "T1", "repetition": 1, "role": "draft", "replacement": false}
//	  ]
//	}
//
// Counts are non-negative integers; wall_ns is nanoseconds; the two
// amounts are micro-USD. Dispatch IDs are "P<n>" and unique; task is
// "T<n>"; repetition ≥ 1; role is draft, review-a or review-b;
// replacement marks a session of the one permitted replacement triplet.
// A system comparison's dispatch (CONTRACT §6) names its workflow instead
// of task and repetition, and its stage as role:
//
//	{"id": "P1", "workflow": "W3", "role": "investigation", "replacement": false}
//
// Admit decides the rerun rules of each dispatch before any budget.
type Plan struct {
	Prior      Budget
	Dispatches []Dispatch
}

type planFile struct {
	Format *string     `json:"format"`
	Prior  *priorFile  `json:"prior_consumption"`
	Disp   *[]dispFile `json:"dispatches"`
}

type priorFile struct {
	Sessions            *int64 `json:"sessions"`
	ReplacementSessions *int64 `json:"replacement_sessions"`
	WallNS              *int64 `json:"wall_ns"`
	InputTokens         *int64 `json:"input_tokens"`
	OutputTokens        *int64 `json:"output_tokens"`
	ReferenceMicroUSD   *int64 `json:"reference_micro_usd"`
	ActualMicroUSD      *int64 `json:"actual_micro_usd"`
}

type dispFile struct {
	ID          *string `json:"id"`
	Workflow    *string `json:"workflow"`
	Task        *string `json:"task"`
	Repetition  *int    `json:"repetition"`
	Role        *string `json:"role"`
	Replacement *bool   `json:"replacement"`
}

var (
	planWorkflowID = regexp.MustCompile(`^W[1-9][0-9]*$`)
	planDispatchID = regexp.MustCompile(`^P[1-9][0-9]*$`)
	planTaskID     = regexp.MustCompile(`^T[1-9][0-9]*$`)
)

// ParsePlan strictly decodes a plan file (see Plan). Every violation is a
// *verr.Error with ReasonPlanMalformed, the file and a JSON pointer.
func ParsePlan(data []byte, file string) (*Plan, error) {
	bad := func(ptr, format string, a ...any) error {
		return verr.Newf(ReasonPlanMalformed, file, ptr, "verdict admission plan format", format, a...)
	}
	var f planFile
	if err := json.Unmarshal(data, &f, json.RejectUnknownMembers(true)); err != nil {
		return nil, bad("", "%v", err)
	}
	if f.Format == nil || *f.Format != PlanFormat {
		return nil, bad("/format", "format must be %q", PlanFormat)
	}
	if f.Prior == nil {
		return nil, bad("/prior_consumption", "missing member")
	}
	p := &Plan{}
	pr := f.Prior
	for _, x := range []struct {
		name string
		v    *int64
		dst  *int64
		mul  int64
	}{
		{"sessions", pr.Sessions, &p.Prior.Sessions, 1},
		{"replacement_sessions", pr.ReplacementSessions, &p.Prior.ReplacementSessions, 1},
		{"wall_ns", pr.WallNS, &p.Prior.WallNS, 1},
		{"input_tokens", pr.InputTokens, &p.Prior.InputTokens, 1},
		{"output_tokens", pr.OutputTokens, &p.Prior.OutputTokens, 1},
		{"reference_micro_usd", pr.ReferenceMicroUSD, &p.Prior.ReferencePico, PicoPerMicroUSD},
		{"actual_micro_usd", pr.ActualMicroUSD, &p.Prior.ActualPico, PicoPerMicroUSD},
	} {
		if x.v == nil {
			return nil, bad("/prior_consumption/"+x.name, "missing member")
		}
		if *x.v < 0 || *x.v > 1<<62/x.mul {
			return nil, bad("/prior_consumption/"+x.name, "must be a non-negative integer in range")
		}
		*x.dst = *x.v * x.mul
	}
	if f.Disp == nil {
		return nil, bad("/dispatches", "missing member")
	}
	seen := map[string]bool{}
	for i, d := range *f.Disp {
		ptr := fmt.Sprintf("/dispatches/%d", i)
		if d.Workflow != nil {
			// A system comparison's dispatch (CONTRACT §6) names its
			// workflow and stage instead of a run.
			switch {
			case d.ID == nil || d.Role == nil || d.Replacement == nil:
				return nil, bad(ptr, "id, workflow, role and replacement are all required")
			case d.Task != nil || d.Repetition != nil:
				return nil, bad(ptr, "a dispatch names either a workflow or a task and repetition, not both")
			case !planWorkflowID.MatchString(*d.Workflow):
				return nil, bad(ptr+"/workflow", "workflow %q is not W<n>", *d.Workflow)
			}
		} else {
			switch {
			case d.ID == nil || d.Task == nil || d.Repetition == nil || d.Role == nil || d.Replacement == nil:
				return nil, bad(ptr, "id, task, repetition, role and replacement are all required")
			case !planTaskID.MatchString(*d.Task):
				return nil, bad(ptr+"/task", "task %q is not T<n>", *d.Task)
			case *d.Repetition < 1:
				return nil, bad(ptr+"/repetition", "repetition must be ≥ 1")
			}
		}
		switch {
		case !planDispatchID.MatchString(*d.ID):
			return nil, bad(ptr+"/id", "id %q is not P<n>", *d.ID)
		case seen[*d.ID]:
			return nil, bad(ptr+"/id", "duplicate dispatch id %s", *d.ID)
		}
		role := campaign.Role(*d.Role)
		dis := Dispatch{ID: *d.ID, Role: role, Replacement: *d.Replacement}
		if d.Workflow != nil {
			if role != campaign.RoleInvestigation && role != campaign.RoleReview {
				return nil, bad(ptr+"/role", "role %q of a workflow dispatch is not investigation or review", *d.Role)
			}
			dis.Workflow = *d.Workflow
		} else {
			if role != campaign.RoleDraft && role != campaign.RoleReviewA && role != campaign.RoleReviewB {
				return nil, bad(ptr+"/role", "role %q is not draft, review-a or review-b", *d.Role)
			}
			dis.Task, dis.Repetition = *d.Task, *d.Repetition
		}
		seen[*d.ID] = true
		p.Dispatches = append(p.Dispatches, dis)
	}
	return p, nil
}

// RefuseAll is the replay of a plan against a campaign the strict loader
// refused: every dispatch is refused with ReasonCampaignRefused (and the
// campaign's missing identities listed), since nothing can be admitted
// against an inadmissible manifest. ceilings are the campaign design's
// (Shape.Ceilings).
func RefuseAll(plan []Dispatch, prior, ceilings Budget, identities []string, detail string) AdmissionReplay {
	out := AdmissionReplay{Ceilings: ceilings, Prior: prior, Identities: identities,
		Prohibited: []verr.Reason{ReasonCampaignRefused}}
	if len(identities) > 0 {
		out.Prohibited = append(out.Prohibited, ReasonMissingIdentity)
	}
	for _, d := range plan {
		out.Decisions = append(out.Decisions, DispatchDecision{Dispatch: d, Reason: ReasonCampaignRefused,
			Reasons: out.Prohibited, Detail: detail, Before: prior, Remaining: out.Ceilings.Minus(prior)})
		out.Refused++
	}
	return out
}
