package campaign

// The frozen provider identities of CONTRACT §6 and COMPARATOR-SELECTION.md.
// A system-comparison manifest must record exactly these; any difference
// is refused at load (ReasonSystemIdentity): "A configuration mismatch stops
// admission; do not patch either provider to make the comparison pass."

// MadarCoreTools is Madar's frozen core allowlist (CONTRACT §6).
var MadarCoreTools = []string{"retrieve", "impact", "call_chain", "community_overview", "pr_impact", "graph_stats", "graph_summary"}

// SerenaTools is Serena's frozen seven-tool allowlist (CONTRACT §6,
// COMPARATOR-SELECTION.md), initial_instructions first.
var SerenaTools = []string{SerenaInitialInstructions, "get_symbols_overview", "find_symbol", "find_referencing_symbols", "find_declaration", "find_implementations", "search_for_pattern"}

// FrozenProvider returns the provider identity CONTRACT §6 pins for a
// system (package, version and source commit; the integrity string is
// the preflight's to record), or nil for Native, which has no provider.
func FrozenProvider(name SystemName) *Provider {
	switch name {
	case SystemMadar:
		return &Provider{Package: "@lubab/madar", Version: "0.32.1", SourceCommit: "06b373a447acfce895412ac10eb4e5228c5df0b7"}
	case SystemSerena:
		return &Provider{Package: "serena-agent", Version: "1.7.1.dev0", SourceCommit: "13ac8c5b1d51873bd148aea440dcb22f85d3a439"}
	}
	return nil
}

// FrozenMCPTools returns the exact MCP allowlist of a system (empty for Native).
func FrozenMCPTools(name SystemName) []string {
	switch name {
	case SystemMadar:
		return MadarCoreTools
	case SystemSerena:
		return SerenaTools
	}
	return []string{}
}

// FrozenToolProfile returns Madar's MADAR_TOOL_PROFILE ("core"), or "" for
// a system without a profile.
func FrozenToolProfile(name SystemName) string {
	if name == SystemMadar {
		return "core"
	}
	return ""
}
