package scorer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"verdict/campaign"
	"verdict/verr"
)

// Rules cited by manifest admission.
const (
	RuleSelection   = "CONTRACT §2 selection and counterbalancing"
	RuleCustody     = "CONTRACT §3 task custody"
	RuleDevelopment = "CONTRACT §5 development rounds"
	RuleIdentities  = "CONTRACT §5, §7 execution identities"
)

// Reason codes of manifest admission (CONTRACT §2–§3, §5, §7). Each
// violation has its own code.
const (
	// ReasonSeedMissing: no frozen seed (64 hex digits) is recorded.
	ReasonSeedMissing verr.Reason = "seed-missing"
	// ReasonTaskCount: evaluation needs 8 tasks, development 4.
	ReasonTaskCount verr.Reason = "task-count"
	// ReasonRepositoryCount: evaluation needs 4 repositories, development 2.
	ReasonRepositoryCount verr.Reason = "repository-count"
	// ReasonTasksPerRepository: every repository has exactly two tasks.
	ReasonTasksPerRepository verr.Reason = "tasks-per-repository"
	// ReasonCategoryBalance: evaluation has two tasks of each category.
	ReasonCategoryBalance verr.Reason = "category-balance"
	// ReasonRepetitionCount: evaluation has 3 repetitions per task; each
	// development round one triplet per task.
	ReasonRepetitionCount verr.Reason = "repetition-count"
	// ReasonRepetitionNumbering: a task's compared repetitions are not 1..n
	// (a task and repetition run twice without runs[].replaces is refused
	// by the loader, duplicate-run).
	ReasonRepetitionNumbering verr.Reason = "repetition-numbering"
	// ReasonOrderBalance: evaluation has 12 A-first and 12 B-first pairs.
	ReasonOrderBalance verr.Reason = "order-balance"
	// ReasonTaskOrders: an evaluation task lacks one of the two orders.
	ReasonTaskOrders verr.Reason = "task-orders"
	// ReasonRunUnknownTask: a run names a task the manifest does not list.
	ReasonRunUnknownTask verr.Reason = "run-unknown-task"
	// ReasonRunNoTask: a task has no run.
	ReasonRunNoTask verr.Reason = "task-without-run"
	// ReasonPacketSize: a packet does not hold 6–12 evidence items.
	ReasonPacketSize verr.Reason = "packet-size"
	// ReasonObligationCount: a truth file does not hold 4–8 obligations.
	ReasonObligationCount verr.Reason = "obligation-count"
	// ReasonAnswerableObligations: fewer than two answerable obligations.
	ReasonAnswerableObligations verr.Reason = "answerable-obligations"
	// ReasonMissingIdentity: an execution identity is null (or a required
	// verification is false); listed by name (CONTRACT §7 "Missing fields
	// fail admission").
	ReasonMissingIdentity verr.Reason = "missing-identity"
)

var seedPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// hexSHA256 returns the lowercase hex SHA-256 of b.
func hexSHA256(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// MissingIdentities lists, by manifest JSON name, every identity a real
// execution must bind that the manifest leaves unset (CONTRACT §5, §7):
// a null execution field, a verification flag (tariff_verified,
// reservation_enforced, oracle_frozen) that is null or false, a missing
// seed, response schema digest, frozen documents, prompt binding, tasks or
// runs. The order is fixed (manifest field order). A synthetic campaign
// that binds labelled synthetic values lists nothing.
func MissingIdentities(m *campaign.Manifest) []string {
	out := missingSharedIdentities(m.Seed, m.FrozenDocuments, m.ResponseSchemaSHA256, m.Execution)
	for _, f := range []struct{ name, v string }{
		{"prompts.common", m.Prompts.Common}, {"prompts.draft", m.Prompts.Draft},
		{"prompts.review_a", m.Prompts.ReviewA}, {"prompts.review_b", m.Prompts.ReviewB},
		{"prompts.final_schema", m.Prompts.FinalSchema}, {"prompts.reconciliation_schema", m.Prompts.ReconciliationSchema},
	} {
		if f.v == "" {
			out = append(out, f.name)
		}
	}
	if len(m.Tasks) == 0 {
		out = append(out, "tasks")
	}
	if len(m.Runs) == 0 {
		out = append(out, "runs")
	}
	return out
}

// missingSharedIdentities lists the missing identities both designs'
// manifests share: the seed, the frozen documents, the response schema
// digest and every execution identity.
func missingSharedIdentities(seed string, docs []campaign.FrozenDocument, schemaSHA256 string, ex campaign.Execution) []string {
	var out []string
	if !seedPattern.MatchString(seed) {
		out = append(out, "seed")
	}
	if len(docs) == 0 {
		out = append(out, "frozen_documents")
	}
	if !seedPattern.MatchString(schemaSHA256) {
		out = append(out, "response_schema_sha256")
	}
	for _, f := range []struct {
		name string
		v    *string
	}{
		{"execution.consumer_version", ex.ConsumerVersion},
		{"execution.executable_sha256", ex.ExecutableSHA256},
		{"execution.model", ex.Model},
		{"execution.model_snapshot", ex.ModelSnapshot},
		{"execution.reasoning_effort", ex.ReasoningEffort},
		{"execution.tokenizer", ex.Tokenizer},
		{"execution.host", ex.Host},
		{"execution.permission_policy", ex.PermissionPolicy},
	} {
		if f.v == nil || *f.v == "" {
			out = append(out, f.name)
		}
	}
	if ex.PriceCard == nil {
		out = append(out, "execution.price_card")
	}
	for _, f := range []struct {
		name string
		v    *bool
	}{
		{"execution.tariff_verified", ex.TariffVerified},
		{"execution.reservation_enforced", ex.ReservationEnforced},
		{"execution.oracle_frozen", ex.OracleFrozen},
	} {
		if f.v == nil || !*f.v {
			out = append(out, f.name)
		}
	}
	return out
}

// identityPointer maps a MissingIdentities name to its JSON pointer.
func identityPointer(name string) string {
	b := []byte("/" + name)
	for i := range b {
		if b[i] == '.' {
			b[i] = '/'
		}
	}
	return string(b)
}

// ManifestAdmission checks the manifest's design against CONTRACT §2–§3
// and §5 and returns one *verr.Error per violation, each with its own
// reason code, in a fixed order: identities, seed, tasks and repositories,
// categories, runs and orders, then packets and truth per task. An
// admitted manifest returns nil.
func ManifestAdmission(c *campaign.Campaign) []*verr.Error {
	m := &c.Manifest
	var out []*verr.Error
	add := func(r verr.Reason, file, pointer, rule, format string, a ...any) {
		out = append(out, verr.Newf(r, file, pointer, rule, format, a...))
	}
	for _, name := range MissingIdentities(m) {
		if name == "seed" {
			continue // reported once below with its own code
		}
		add(ReasonMissingIdentity, campaign.ManifestFile, identityPointer(name), RuleIdentities, "execution identity %s is not bound", name)
	}
	out = append(out, FrozenIdentityIssues(c)...)
	out = append(out, RoundIssues(m)...)
	out = append(out, RevisionLeaks(c)...)
	if !seedPattern.MatchString(m.Seed) {
		add(ReasonSeedMissing, campaign.ManifestFile, "/seed", RuleSelection, "no frozen seed recorded before task selection")
	}

	wantTasks, wantRepos := 8, 4
	rule := RuleSelection
	if m.Phase != campaign.PhaseEvaluation {
		wantTasks, wantRepos, rule = 4, 2, RuleDevelopment
	}
	if len(m.Tasks) != wantTasks {
		add(ReasonTaskCount, campaign.ManifestFile, "/tasks", rule, "%s has %d tasks, needs %d", m.Phase, len(m.Tasks), wantTasks)
	}
	perRepo := map[string]int{}
	var repos []string
	perCat := map[campaign.Category]int{}
	taskSet := map[string]bool{}
	for _, t := range m.Tasks {
		if perRepo[t.Repository] == 0 {
			repos = append(repos, t.Repository)
		}
		perRepo[t.Repository]++
		perCat[t.Category]++
		taskSet[t.ID] = true
	}
	if len(repos) != wantRepos {
		add(ReasonRepositoryCount, campaign.ManifestFile, "/tasks", RuleCustody, "%d repositories, needs %d", len(repos), wantRepos)
	}
	for _, r := range repos {
		if perRepo[r] != 2 {
			add(ReasonTasksPerRepository, campaign.ManifestFile, "/tasks", RuleCustody, "repository %s has %d tasks, needs exactly 2", r, perRepo[r])
		}
	}
	if m.Phase == campaign.PhaseEvaluation {
		for _, cat := range []campaign.Category{campaign.CategoryBehaviorExplanation, campaign.CategoryChangeImpactPlan, campaign.CategoryCorrectnessBoundary, campaign.CategoryExplicitUncertainty} {
			if perCat[cat] != 2 {
				add(ReasonCategoryBalance, campaign.ManifestFile, "/tasks", RuleCustody, "category %s has %d tasks, needs exactly 2", cat, perCat[cat])
			}
		}
	}

	// Runs: a replaced run (runs[].replaces) is not counted as a repetition.
	compared, _ := comparedRuns(m)
	reps := map[string][]int{}
	orders := map[string]map[campaign.Order]int{}
	total := map[campaign.Order]int{}
	for i, r := range m.Runs {
		if !taskSet[r.Task] {
			add(ReasonRunUnknownTask, campaign.ManifestFile, fmt.Sprintf("/runs/%d/task", i), RuleSelection, "run names task %s which the manifest does not list", r.Task)
		}
	}
	for _, i := range compared {
		r := m.Runs[i]
		reps[r.Task] = append(reps[r.Task], r.Repetition)
		if orders[r.Task] == nil {
			orders[r.Task] = map[campaign.Order]int{}
		}
		orders[r.Task][r.Order]++
		total[r.Order]++
	}
	wantReps := 3
	if m.Phase != campaign.PhaseEvaluation {
		wantReps = 1
	}
	for ti, t := range m.Tasks {
		rs := reps[t.ID]
		if len(rs) == 0 {
			add(ReasonRunNoTask, campaign.ManifestFile, fmt.Sprintf("/tasks/%d", ti), RuleSelection, "task %s has no run", t.ID)
			continue
		}
		if len(rs) != wantReps {
			add(ReasonRepetitionCount, campaign.ManifestFile, "/runs", rule, "task %s has %d repetitions, %s needs %d", t.ID, len(rs), m.Phase, wantReps)
		}
		sorted := slices.Clone(rs)
		slices.Sort(sorted)
		okNum := true
		if m.Phase == campaign.PhaseEvaluation {
			for k, v := range sorted {
				okNum = okNum && v == k+1
			}
		} else {
			sorted = slices.Compact(sorted)
			okNum = len(sorted) == len(rs)
		}
		if !okNum {
			add(ReasonRepetitionNumbering, campaign.ManifestFile, "/runs", RuleSelection, "task %s repetitions %v are not 1..%d", t.ID, rs, len(rs))
		}
		if m.Phase == campaign.PhaseEvaluation && (orders[t.ID][campaign.OrderAFirst] == 0 || orders[t.ID][campaign.OrderBFirst] == 0) {
			add(ReasonTaskOrders, campaign.ManifestFile, "/runs", RuleSelection, "task %s lacks an order: %d A-first, %d B-first", t.ID, orders[t.ID][campaign.OrderAFirst], orders[t.ID][campaign.OrderBFirst])
		}
	}
	if m.Phase == campaign.PhaseEvaluation && (total[campaign.OrderAFirst] != 12 || total[campaign.OrderBFirst] != 12) {
		add(ReasonOrderBalance, campaign.ManifestFile, "/runs", RuleSelection, "%d A-first and %d B-first pairs; needs 12 and 12", total[campaign.OrderAFirst], total[campaign.OrderBFirst])
	}

	for _, t := range c.Tasks {
		if n := len(t.Packet.Items); n < 6 || n > 12 {
			add(ReasonPacketSize, campaign.PacketPath(t.Entry.ID), "/items", RuleCustody, "packet has %d evidence items, needs 6–12", n)
		}
		obs := t.Truth.Obligations
		if n := len(obs); n < 4 || n > 8 {
			add(ReasonObligationCount, campaign.TruthPath(t.Entry.ID), "/obligations", RuleCustody, "truth has %d obligations, needs 4–8", n)
		}
		ans := 0
		for _, o := range obs {
			if o.Answerable {
				ans++
			}
		}
		if ans < 2 {
			add(ReasonAnswerableObligations, campaign.TruthPath(t.Entry.ID), "/obligations", "CONTRACT §4 all tasks at least two answerable obligations", "%d answerable obligations, needs at least 2", ans)
		}
	}
	return out
}

// MissingIdentitiesJSON lists the missing identities of manifest bytes
// that the strict loader refused, so that a proposed live manifest whose
// placeholders are null (seed, tasks …) is still reported identity by
// identity (CONTRACT §7, CLI-HANDOFF "missing real identities visibly
// refused"). The decoding is lenient on purpose — null, absent and
// unknown members are tolerated — and it is never used to admit anything.
// It returns an error only when data is not a JSON object.
func MissingIdentitiesJSON(data []byte) ([]string, error) {
	var m campaign.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return MissingIdentities(&m), nil
}
