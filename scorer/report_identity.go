package scorer

import (
	"cmp"
	"slices"

	"verdict/campaign"
)

// ArmsSentence is report page 1's one sentence on what A and B are
// (CONTRACT §2; PROMPTS.md Ordinary review A, Reconciliation review B).
const ArmsSentence = "Review A is an ordinary review of the shared draft D; review B reviews the same draft with the same task, packet and budgets but must also give every evidence item exactly one disposition (used, excluded or unresolved) linked to the obligations and final actions it bears on."

// SourceCommit is one repository at one commit that packet excerpts were
// taken from, with the tasks whose packets cite it (CONTRACT §3).
type SourceCommit struct {
	Repository string `json:"repository"`
	// Commit is the full commit ID the excerpts name; "" when an excerpt
	// names none (then the report says unknown).
	Commit string   `json:"commit"`
	Tasks  []string `json:"tasks"`
}

// CampaignIdentity is report page 1: what was run, by what and where, as
// the manifest's execution identities record it (CONTRACT §5 Consumer pin,
// Reference pricing), the source commits of the packets, the synthetic
// flag and the sentence on A and B. A value the manifest leaves null is
// null here, never guessed; the verdict build is in the provenance.
type CampaignIdentity struct {
	Synthetic       bool                `json:"synthetic"`
	ContractVersion string              `json:"contract_version"`
	Arms            string              `json:"arms"`
	Model           *string             `json:"model"`
	ModelSnapshot   *string             `json:"model_snapshot"`
	ReasoningEffort *string             `json:"reasoning_effort"`
	Consumer        *string             `json:"consumer"`
	ConsumerSHA256  *string             `json:"consumer_executable_sha256"`
	Tokenizer       *string             `json:"tokenizer"`
	Host            *string             `json:"host"`
	PriceCard       *campaign.PriceCard `json:"price_card"`
	TariffVerified  *bool               `json:"tariff_verified"`
	SourceCommits   []SourceCommit      `json:"source_commits"`
}

// IdentityOf reads report page 1 from a loaded campaign: the execution
// identities of its manifest and every (repository, commit) its packets'
// excerpts name, sorted, each with its sorted tasks.
func IdentityOf(c *campaign.Campaign) CampaignIdentity {
	m := c.Manifest
	ex := m.Execution
	id := CampaignIdentity{Synthetic: m.Synthetic, ContractVersion: m.ContractVersion, Arms: ArmsSentence,
		Model: ex.Model, ModelSnapshot: ex.ModelSnapshot, ReasoningEffort: ex.ReasoningEffort,
		Consumer: ex.ConsumerVersion, ConsumerSHA256: ex.ExecutableSHA256, Tokenizer: ex.Tokenizer, Host: ex.Host,
		PriceCard: ex.PriceCard, TariffVerified: ex.TariffVerified, SourceCommits: []SourceCommit{}}
	type key struct{ repo, commit string }
	tasks := map[key][]string{}
	for _, t := range c.Tasks {
		for _, it := range t.Packet.Items {
			k := key{it.Repository, it.Commit}
			if ts := tasks[k]; len(ts) == 0 || ts[len(ts)-1] != t.Entry.ID {
				tasks[k] = append(ts, t.Entry.ID)
			}
		}
	}
	for k, ts := range tasks {
		slices.SortFunc(ts, compareIDs)
		id.SourceCommits = append(id.SourceCommits, SourceCommit{Repository: k.repo, Commit: k.commit, Tasks: slices.Compact(ts)})
	}
	slices.SortFunc(id.SourceCommits, func(a, b SourceCommit) int {
		return cmp.Or(cmp.Compare(a.Repository, b.Repository), cmp.Compare(a.Commit, b.Commit))
	})
	return id
}
