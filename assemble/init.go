package assemble

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// Refusals of starting a campaign (InitCampaign).
const (
	// ReasonInitDesign: the tasks given cannot make an admissible campaign
	// of the phase (task count, repositories, two tasks per repository,
	// category balance), a task is malformed, or a flag names an unknown
	// phase, category or identity. Each refusal carries the admission
	// rule it anticipates.
	ReasonInitDesign verr.Reason = "init-design"
)

const ruleInit = "CONTRACT §2, §3, §5 phase design: tasks, repositories, categories, repetitions and counterbalanced orders"

// Pinned execution identities of contract 741-v1.0 ("Pin the installed
// consumer as Codex CLI 0.149.0, gpt-5.6-sol, reasoning medium"): what a
// new campaign starts with. The requested model is an alias, not a
// snapshot; every other identity is unknown until the runner records it.
const (
	PinnedConsumer        = "Codex CLI 0.149.0"
	PinnedModel           = "gpt-5.6-sol"
	PinnedReasoningEffort = "medium"
	// PinnedPriceCardID names the contract's reference rate card, checked
	// 5 September 2026 (CONTRACT §5).
	PinnedPriceCardID = "codex-work-reference-2026-09-05"
)

// InitTask is one task of a new campaign, in frozen (seeded) order; its ID
// is T<n> by position.
type InitTask struct {
	Repository string
	Category   campaign.Category
}

// InitRequest is what InitCampaign needs to start a campaign.
type InitRequest struct {
	// Phase is the campaign's phase; it fixes the design the runs follow.
	Phase campaign.Phase
	// CampaignID is campaign_id (default: "<phase>-<directory name>").
	CampaignID string
	// Seed is the frozen seed (64 lowercase hex digits), "new" to draw one
	// from the system's random source, or "" to leave it null.
	Seed string
	// Tasks are the tasks in frozen order. With Previous and no Tasks, the
	// previous round's tasks are kept.
	Tasks []InitTask
	// Identities sets manifest identities by their MissingIdentities name
	// ("execution.host", "execution.model_snapshot",
	// "execution.tariff_verified", ...; the "execution." prefix may be
	// left out). Booleans are "true" or "false".
	Identities map[string]string
	// Previous is the directory of the round before this one (a
	// development-round-2 campaign names its round 1, an evaluation its
	// round 2): previous_round binds its manifest's SHA-256, and its
	// execution identities and prompt texts are the starting point.
	Previous string
	// PreviousReport is the round-2 report.json whose decision admitted
	// evaluation (evaluation only).
	PreviousReport string
	// Synthetic marks the campaign synthetic (made-up tasks, runs or
	// answers, for trials and tests): the manifest's synthetic member,
	// which every report, bundle and record then carries. A round after a
	// synthetic round is synthetic too (CONTRACT §5 round discipline
	// compares the flag).
	Synthetic bool
}

// InitResult is what InitCampaign wrote: the files (prompt texts, then
// manifest.json), the runs it scaffolded, and what is still missing.
type InitResult struct {
	Files []Written `json:"files"`
	// Manifest are manifest.json's bytes.
	Manifest []byte `json:"-"`
	// Runs are the scaffolded runs, in dispatch order.
	Runs []campaign.Run `json:"runs"`
	// Seed is the seed recorded ("" when null).
	Seed string `json:"seed"`
	// Missing lists every identity the manifest still leaves null or
	// unverified, by name (scorer.MissingIdentities), and Pending every
	// other admission rule it does not meet yet (round discipline), as
	// `verdict check` will report them.
	Missing []string       `json:"missing"`
	Pending []verr.Problem `json:"pending"`
}

var seedHex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// designReasons are the admission reasons of the phase design that
// InitCampaign refuses rather than leaving for check.
var designReasons = []verr.Reason{
	scorer.ReasonTaskCount, scorer.ReasonRepositoryCount, scorer.ReasonTasksPerRepository, scorer.ReasonCategoryBalance,
	scorer.ReasonRepetitionCount, scorer.ReasonRepetitionNumbering, scorer.ReasonOrderBalance, scorer.ReasonTaskOrders,
	scorer.ReasonRunUnknownTask, scorer.ReasonRunNoTask,
}

// ScaffoldRuns returns the runs a phase requires for tasks (IDs T1..Tn in
// order): one triplet per task in a development round, three repetitions
// per task in evaluation. Runs are in dispatch order, repetition by
// repetition and task by task, and session IDs S1, S2, ... follow that
// order: the shared draft, then the review dispatched first, then the
// other. Orders are counterbalanced: in evaluation task i's repetition r
// is A-first when i+r is odd (every task gets both orders, 12 A-first and
// 12 B-first over 8 tasks); in development round 1 odd-numbered tasks
// run A-first and even-numbered ones B-first, and round 2 swaps them, so
// each development task runs in both orders across the two rounds.
// Every run's replaces is null.
func ScaffoldRuns(phase campaign.Phase, tasks int) []campaign.Run {
	reps := 1
	if phase == campaign.PhaseEvaluation {
		reps = 3
	}
	var runs []campaign.Run
	n := 0
	next := func() string { n++; return "S" + strconv.Itoa(n) }
	for r := 1; r <= reps; r++ {
		for i := range tasks {
			aFirst := (i+r)%2 == 1
			if phase == campaign.PhaseDevelopmentRound2 {
				aFirst = !aFirst
			}
			run := campaign.Run{Task: "T" + strconv.Itoa(i+1), Repetition: r, Order: campaign.OrderBFirst}
			run.Sessions.Draft = next()
			if aFirst {
				run.Order = campaign.OrderAFirst
				run.Sessions.ReviewA, run.Sessions.ReviewB = next(), next()
			} else {
				run.Sessions.ReviewB, run.Sessions.ReviewA = next(), next()
			}
			runs = append(runs, run)
		}
	}
	return runs
}

// InitCampaign starts the campaign directory dir (created when absent) of
// the request's phase: the frozen prompt texts under prompts/ (or the
// previous round's, which may carry B's one revision), and manifest.json
// with the contract's frozen documents, response schema digest, pinned
// consumer, model alias, effort and reference price card, the tasks, the
// runs the phase requires (ScaffoldRuns) and the prompt files bound by
// SHA-256. Every identity it cannot know stays null; the result lists them
// and every round-discipline rule not met yet.
//
// It refuses, writing nothing: tasks that cannot make the phase's design
// (ReasonInitDesign, with the admission reason in the detail), an unknown
// phase, category or identity name, a malformed seed, a previous round
// that cannot be read, and a prompt or manifest.json already in dir with
// other bytes (ReasonFileDiffers: a started campaign is never replaced;
// the same bytes again are left as they are).
func InitCampaign(dir string, req InitRequest) (*InitResult, error) {
	bad := func(ptr, format string, a ...any) error {
		return verr.Newf(ReasonInitDesign, campaign.ManifestFile, ptr, ruleInit, format, a...)
	}
	switch req.Phase {
	case campaign.PhaseDevelopmentRound1, campaign.PhaseDevelopmentRound2, campaign.PhaseEvaluation:
	default:
		return nil, bad("/phase", "phase %q is not development-round-1, development-round-2 or evaluation", req.Phase)
	}
	m := campaign.Manifest{
		ContractVersion:      campaign.ContractVersion,
		Synthetic:            req.Synthetic,
		Phase:                req.Phase,
		CampaignID:           req.CampaignID,
		FrozenDocuments:      campaign.FrozenDocuments(),
		ResponseSchemaSHA256: campaign.ResponseSchemaSHA256(),
		Prompts: campaign.PromptFiles{
			Common: "prompts/common.txt", Draft: "prompts/draft.txt", ReviewA: "prompts/review-a.txt", ReviewB: "prompts/review-b.txt",
			FinalSchema: "prompts/final-schema.txt", ReconciliationSchema: "prompts/reconciliation-schema.txt",
		},
	}
	card := scorer.ContractPriceCard()
	card.ID = PinnedPriceCardID
	m.Execution = campaign.Execution{ConsumerVersion: ptrTo(PinnedConsumer), Model: ptrTo(PinnedModel), ReasoningEffort: ptrTo(PinnedReasoningEffort), PriceCard: &card}
	if m.CampaignID == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		m.CampaignID = string(req.Phase) + "-" + filepath.Base(abs)
	}
	if strings.TrimSpace(m.CampaignID) != m.CampaignID || m.CampaignID == "" {
		return nil, bad("/campaign_id", "campaign ID %q must be non-empty and trimmed", m.CampaignID)
	}
	prompts := map[string][]byte{}
	for _, k := range campaign.PromptKeys() {
		prompts[k] = campaign.FrozenPrompt(k)
	}
	if req.Previous != "" {
		if err := fromPrevious(&m, prompts, req); err != nil {
			return nil, err
		}
	} else if req.Phase != campaign.PhaseDevelopmentRound1 {
		// Left null: check lists previous-round-missing.
		m.PreviousRound = nil
	}
	if len(req.Tasks) > 0 || req.Previous == "" {
		m.Tasks = nil
		for i, t := range req.Tasks {
			if !repositoryName.MatchString(t.Repository) || strings.Contains(t.Repository, "..") {
				return nil, bad(fmt.Sprintf("/tasks/%d/repository", i), "task %d: repository %q is not OWNER/NAME", i+1, t.Repository)
			}
			if !slices.Contains(categories, t.Category) {
				return nil, bad(fmt.Sprintf("/tasks/%d/category", i), "task %d: category %q is not one of %s", i+1, t.Category, joinCategories())
			}
			m.Tasks = append(m.Tasks, campaign.TaskEntry{ID: "T" + strconv.Itoa(i+1), Repository: t.Repository, Category: t.Category})
		}
	}
	m.Runs = ScaffoldRuns(req.Phase, len(m.Tasks))
	for _, e := range scorer.ManifestAdmission(&campaign.Campaign{Manifest: m}) {
		if slices.Contains(designReasons, e.Reason) {
			return nil, bad(e.Pointer, "%s: %s (admission would refuse it: %s)", e.Reason, e.Detail, e.Rule)
		}
	}
	switch {
	case req.Seed == "new":
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		m.Seed = hex.EncodeToString(b[:])
	case req.Seed == "" || seedHex.MatchString(req.Seed):
		m.Seed = req.Seed
	default:
		return nil, bad("/seed", "seed %q is not 64 lowercase hex digits (or \"new\")", req.Seed)
	}
	for _, name := range slices.Sorted(maps.Keys(req.Identities)) {
		if err := setIdentity(&m, name, req.Identities[name]); err != nil {
			return nil, err
		}
	}

	files := make([]fileBytes, 0, len(prompts)+1)
	for _, k := range campaign.PromptKeys() {
		p := m.Prompts.PromptPath(k)
		files = append(files, fileBytes{p, prompts[k]})
		m.Files = append(m.Files, campaign.FileDigest{Path: p, SHA256: blinding.Digest(prompts[k])})
	}
	slices.SortFunc(m.Files, func(a, b campaign.FileDigest) int { return strings.Compare(a.Path, b.Path) })
	raw, err := campaign.MarshalJSON(&m)
	if err != nil {
		return nil, err
	}
	if m.Seed == "" {
		if raw, err = replaceMember(raw, "seed", []byte("null")); err != nil {
			return nil, err
		}
	}
	files = append(files, fileBytes{campaign.ManifestFile, raw})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	written, err := writeNew(dir, files, ruleInit)
	if err != nil {
		return nil, err
	}
	res := &InitResult{Files: written, Manifest: raw, Runs: m.Runs, Seed: m.Seed, Missing: scorer.MissingIdentities(&m), Pending: []verr.Problem{}}
	for _, e := range scorer.RoundIssues(&m) {
		res.Pending = append(res.Pending, verr.ProblemOf(e))
	}
	if res.Missing == nil {
		res.Missing = []string{}
	}
	return res, nil
}

var categories = []campaign.Category{campaign.CategoryBehaviorExplanation, campaign.CategoryChangeImpactPlan, campaign.CategoryCorrectnessBoundary, campaign.CategoryExplicitUncertainty}

func joinCategories() string {
	s := make([]string, len(categories))
	for i, c := range categories {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

func ptrTo[T any](v T) *T { return &v }

// identityFields are the settable identities of ex by key (the
// MissingIdentities name without "execution."): text ones and booleans.
func identityFields(ex *campaign.Execution) (map[string]**string, map[string]**bool) {
	strs := map[string]**string{
		"consumer_version": &ex.ConsumerVersion, "executable_sha256": &ex.ExecutableSHA256, "model": &ex.Model,
		"model_snapshot": &ex.ModelSnapshot, "reasoning_effort": &ex.ReasoningEffort, "tokenizer": &ex.Tokenizer,
		"host": &ex.Host, "permission_policy": &ex.PermissionPolicy,
	}
	bools := map[string]**bool{"tariff_verified": &ex.TariffVerified, "reservation_enforced": &ex.ReservationEnforced, "oracle_frozen": &ex.OracleFrozen}
	return strs, bools
}

// identityValue is the identity key of ex as text ("" when null).
func identityValue(ex *campaign.Execution, key string) string {
	strs, bools := identityFields(ex)
	if p, ok := strs[key]; ok && *p != nil {
		return **p
	}
	if p, ok := bools[key]; ok && *p != nil {
		return strconv.FormatBool(**p)
	}
	return ""
}

// IdentityLiteral returns the value of identity path ("execution.KEY",
// as BindChange.Path names it) as the JSON literal manifest.json holds:
// null for "", a boolean identity bare (true, false), any other quoted.
func IdentityLiteral(path, value string) string {
	if value == "" {
		return "null"
	}
	_, bools := identityFields(&campaign.Execution{})
	if _, ok := bools[strings.TrimPrefix(path, "execution.")]; ok {
		return value
	}
	return strconv.Quote(value)
}

// setIdentity sets one identity of m by its MissingIdentities name.
func setIdentity(m *campaign.Manifest, name, value string) error {
	key := strings.TrimPrefix(name, "execution.")
	strs, bools := identityFields(&m.Execution)
	ptr := "/execution/" + key
	if p, ok := strs[key]; ok {
		if strings.TrimSpace(value) != value || value == "" {
			return verr.Newf(ReasonInitDesign, campaign.ManifestFile, ptr, campaign.RuleManifest, "identity %s: %q must be non-empty and trimmed", name, value)
		}
		*p = ptrTo(value)
		return nil
	}
	if p, ok := bools[key]; ok {
		b, err := strconv.ParseBool(value)
		if err != nil || (value != "true" && value != "false") {
			return verr.Newf(ReasonInitDesign, campaign.ManifestFile, ptr, campaign.RuleManifest, "identity %s: %q is not true or false", name, value)
		}
		*p = ptrTo(b)
		return nil
	}
	var names []string
	for k := range strs {
		names = append(names, "execution."+k)
	}
	for k := range bools {
		names = append(names, "execution."+k)
	}
	slices.Sort(names)
	return verr.Newf(ReasonInitDesign, campaign.ManifestFile, "/execution", campaign.RuleManifest, "unknown identity %q; settable: %s", name, strings.Join(names, ", "))
}

// fromPrevious starts m from the round before it: previous_round binds
// its manifest's SHA-256 (and, for evaluation, the round-2 report's), and
// its execution identities, tasks and prompt texts carry over (B's
// instruction may then be revised once, before round 2).
func fromPrevious(m *campaign.Manifest, prompts map[string][]byte, req InitRequest) error {
	raw, err := readRegular(filepath.Join(req.Previous, campaign.ManifestFile))
	if err != nil {
		return &verr.Error{Reason: scorer.ReasonPreviousRoundRefused, File: filepath.Join(req.Previous, campaign.ManifestFile), Rule: ruleInit, Detail: err.Error(), Err: err}
	}
	var prev campaign.Manifest
	if err := jsonv2.Unmarshal(raw, &prev, jsonv2.RejectUnknownMembers(false)); err != nil {
		return &verr.Error{Reason: scorer.ReasonPreviousRoundRefused, File: filepath.Join(req.Previous, campaign.ManifestFile), Rule: ruleInit, Detail: err.Error(), Err: err}
	}
	m.Execution = prev.Execution
	m.Tasks = prev.Tasks
	m.Synthetic = m.Synthetic || prev.Synthetic
	pr := &campaign.PreviousRound{Phase: prev.Phase, CampaignID: prev.CampaignID, ManifestSHA256: blinding.Digest(raw)}
	if req.PreviousReport != "" {
		rep, err := readRegular(req.PreviousReport)
		if err != nil {
			return &verr.Error{Reason: scorer.ReasonPreviousReportMissing, File: req.PreviousReport, Rule: ruleInit, Detail: err.Error(), Err: err}
		}
		pr.ReportSHA256 = ptrTo(blinding.Digest(rep))
	}
	m.PreviousRound = pr
	for _, k := range campaign.PromptKeys() {
		p := prev.Prompts.PromptPath(k)
		if p == "" {
			continue
		}
		b, err := readRegular(filepath.Join(req.Previous, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return &verr.Error{Reason: scorer.ReasonPreviousRoundRefused, File: p, Rule: ruleInit, Detail: err.Error(), Err: err}
		}
		prompts[k] = b
	}
	return nil
}
