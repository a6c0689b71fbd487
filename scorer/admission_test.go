package scorer

import (
	"os"
	"slices"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

func admissionReasons(c *campaign.Campaign) []verr.Reason {
	var out []verr.Reason
	for _, e := range ManifestAdmission(c) {
		out = append(out, e.Reason)
	}
	return out
}

func TestManifestAdmissionPasses(t *testing.T) {
	for _, tc := range []struct {
		phase campaign.Phase
		tasks int
		reps  int
	}{{campaign.PhaseEvaluation, 8, 3}, {campaign.PhaseDevelopmentRound1, 4, 1}, {campaign.PhaseDevelopmentRound2, 4, 1}} {
		if r := admissionReasons(testCampaign(tc.phase, tc.tasks, tc.reps)); len(r) != 0 {
			t.Errorf("%s: %v", tc.phase, r)
		}
	}
}

func TestManifestAdmissionEachViolation(t *testing.T) {
	cases := []struct {
		name  string
		phase campaign.Phase
		tasks int
		reps  int
		mut   func(c *campaign.Campaign)
		want  verr.Reason
	}{
		{"seed missing", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Manifest.Seed = "" }, ReasonSeedMissing},
		{"seven tasks", campaign.PhaseEvaluation, 7, 3, nil, ReasonTaskCount},
		{"three repositories", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			c.Manifest.Tasks[6].Repository, c.Manifest.Tasks[7].Repository = "synthetic/repo1", "synthetic/repo2"
		}, ReasonRepositoryCount},
		{"three tasks in one repository", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			c.Manifest.Tasks[2].Repository = "synthetic/repo1"
		}, ReasonTasksPerRepository},
		{"category imbalance", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			c.Manifest.Tasks[0].Category = campaign.CategoryChangeImpactPlan
		}, ReasonCategoryBalance},
		{"two repetitions", campaign.PhaseEvaluation, 8, 2, nil, ReasonRepetitionCount},
		{"order imbalance", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			c.Manifest.Runs[0].Order = flip(c.Manifest.Runs[0].Order)
		}, ReasonOrderBalance},
		{"task with one order", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			// swap orders between T1 and T2 runs keeps 12/12 but leaves T1 single-order.
			for i, r := range c.Manifest.Runs {
				if r.Task == "T1" {
					c.Manifest.Runs[i].Order = campaign.OrderAFirst
				}
				if r.Task == "T2" {
					c.Manifest.Runs[i].Order = campaign.OrderBFirst
				}
			}
		}, ReasonTaskOrders},
		{"repetition numbering", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Manifest.Runs[0].Repetition = 7 }, ReasonRepetitionNumbering},
		{"run of unknown task", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Manifest.Runs[0].Task = "T99" }, ReasonRunUnknownTask},
		{"development five tasks", campaign.PhaseDevelopmentRound1, 5, 1, nil, ReasonTaskCount},
		{"development round 2 two triplets", campaign.PhaseDevelopmentRound2, 4, 2, nil, ReasonRepetitionCount},
		{"packet of five", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Tasks[0].Packet.Items = c.Tasks[0].Packet.Items[:5] }, ReasonPacketSize},
		{"packet of thirteen", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			for len(c.Tasks[0].Packet.Items) < 13 {
				c.Tasks[0].Packet.Items = append(c.Tasks[0].Packet.Items, c.Tasks[0].Packet.Items[0])
			}
		}, ReasonPacketSize},
		{"three obligations", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Tasks[1].Truth.Obligations = c.Tasks[1].Truth.Obligations[:3] }, ReasonObligationCount},
		{"one answerable", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) {
			c.Tasks[1].Truth.Obligations[1].Answerable, c.Tasks[1].Truth.Obligations[2].Answerable = false, false
		}, ReasonAnswerableObligations},
		{"missing identity", campaign.PhaseEvaluation, 8, 3, func(c *campaign.Campaign) { c.Manifest.Execution.ModelSnapshot = nil }, ReasonMissingIdentity},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testCampaign(tc.phase, tc.tasks, tc.reps)
			if tc.mut != nil {
				tc.mut(c)
			}
			got := admissionReasons(c)
			if !slices.Contains(got, tc.want) {
				t.Fatalf("want %s in %v", tc.want, got)
			}
		})
	}
}

func flip(o campaign.Order) campaign.Order {
	if o == campaign.OrderAFirst {
		return campaign.OrderBFirst
	}
	return campaign.OrderAFirst
}

func TestMissingIdentitiesNamed(t *testing.T) {
	m := &campaign.Manifest{Execution: campaign.Execution{TariffVerified: bp(false)}}
	got := MissingIdentities(m)
	want := []string{"seed", "frozen_documents", "response_schema_sha256",
		"execution.consumer_version", "execution.executable_sha256", "execution.model", "execution.model_snapshot",
		"execution.reasoning_effort", "execution.tokenizer", "execution.host", "execution.permission_policy",
		"execution.price_card", "execution.tariff_verified", "execution.reservation_enforced", "execution.oracle_frozen",
		"prompts.common", "prompts.draft", "prompts.review_a", "prompts.review_b", "prompts.final_schema", "prompts.reconciliation_schema", "tasks", "runs"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q", got)
	}
	if got := MissingIdentities(&testCampaign(campaign.PhaseEvaluation, 8, 3).Manifest); len(got) != 0 {
		t.Fatalf("%q", got)
	}
}

func TestMissingIdentitiesOfLiveManifest(t *testing.T) {
	b, err := os.ReadFile("../fixtures/live/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := MissingIdentitiesJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"seed", "execution.executable_sha256", "execution.model_snapshot", "execution.tokenizer", "execution.host",
		"execution.permission_policy", "execution.tariff_verified", "execution.reservation_enforced", "execution.oracle_frozen", "tasks", "runs"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q", got)
	}
}
