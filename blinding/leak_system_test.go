package blinding_test

import (
	"encoding/json"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
)

// TestSystemLeakTokens: the provider vocabulary (Madar, Serena, LSP, MCP
// and the tool names of both frozen allowlists) is found in a system
// answer, however it is spelled, and ordinary text, including the ordinary
// words "retrieve" and "impact", is not.
func TestSystemLeakTokens(t *testing.T) {
	m := &campaign.SystemManifest{Systems: []campaign.System{
		{Name: campaign.SystemNative},
		{Name: campaign.SystemMadar, Provider: campaign.FrozenProvider(campaign.SystemMadar), MCPTools: campaign.FrozenMCPTools(campaign.SystemMadar)},
		{Name: campaign.SystemSerena, Provider: campaign.FrozenProvider(campaign.SystemSerena), MCPTools: campaign.FrozenMCPTools(campaign.SystemSerena)},
	}, Workflows: []campaign.Workflow{{ID: "W1", Sessions: campaign.WorkflowSessions{Investigation: "S1", Review: "S2"}}}}
	sc := blinding.NewScanner(blinding.SystemLeakTokens(m))
	scan := func(text string) []blinding.Finding {
		doc, _ := json.Marshal(map[string]any{"items": []any{map[string]any{"id": "item-1", "final": map[string]any{"claims": []any{map[string]any{"text": text}}}}}})
		return sc.ScanJSON("r", doc)
	}
	leaks := []string{
		"Madar's graph showed the caller.", "Found with Serena.", "The LSP returned two references.",
		"find_referencing_symbols lists three callers.", "call_chain shows the path.", "The retrieve tool returned nothing.",
		"impact(\"parse\") lists the dependants.", "via the MCP server", "Ｓｅｒｅｎａ found it", "get_symbols_overview of src/a.ts",
		"initial_instructions said to use symbols", "graph_summary", "the tsserver answer", "session S2 said so",
	}
	for _, text := range leaks {
		if len(scan(text)) == 0 {
			t.Errorf("provider leak %q is not flagged", text)
		}
	}
	ordinary := append([]string{
		"The change has an impact on every caller of parse.",
		"retrieve the record before writing it",
		"Search the repository for other callers of parse.",
	}, fixtures.OrdinaryTexts...)
	for _, text := range ordinary {
		if fs := scan(text); len(fs) != 0 {
			t.Errorf("ordinary text %q is flagged: %v", text, fs)
		}
	}
}
