package blinding

import (
	"slices"
	"strings"

	"verdict/campaign"
)

// ProviderLeakTokens are the words that name a compared system or its
// evidence provider in a system comparison's answers (CONTRACT §6; issue
// "raters grade system answers blinded exactly as today"): the provider
// names, their server kinds and packages, and Madar's tool profile. A
// rater who reads one knows which system answered.
var ProviderLeakTokens = []string{
	"madar", "@lubab/madar", "madar_tool_profile", "serena", "serena-agent", "oraios",
	"lsp", "language server", "language-server", "typescript-language-server", "tsserver",
	"mcp", "mcp server", "mcp tool", "model context protocol",
}

// SystemLeakTokens returns BaseLeakTokens, ProviderLeakTokens and the
// system comparison's own revealing values: every session ID of its
// workflows, the manifest's model, snapshot, consumer version and price
// card, each system's provider package and version, and the tool names of
// each frozen allowlist. A tool name that is one ordinary English word
// ("retrieve", "impact") is matched only as a tool is named: followed by
// "(", " tool" or " call", or preceded by "mcp "; a name with "_" or "-"
// ("find_symbol", "call_chain") is matched anywhere as a word.
func SystemLeakTokens(m *campaign.SystemManifest) []string {
	out := slices.Concat(BaseLeakTokens, ProviderLeakTokens)
	for _, w := range m.Workflows {
		out = append(out, w.Sessions.Investigation, w.Sessions.Review)
	}
	out = append(out, executionTokens(m.Execution)...)
	for _, s := range m.Systems {
		if s.Provider != nil {
			out = append(out, s.Provider.Package, s.Provider.Package+"@"+s.Provider.Version)
		}
		for _, t := range s.MCPTools {
			if strings.ContainsAny(t, "_-") {
				out = append(out, t)
				continue
			}
			out = append(out, t+"(", t+" tool", t+" call", "mcp "+t)
		}
	}
	return out
}
