// Command verdict runs blinded human semantic adjudication of LLM-agent
// answers and a deterministic scorer for evaluation contract 741-v1.0.
//
// Usage:
//
//	verdict <command> [flags]
//
// Exit codes: 0 success; 1 the input was refused or a gate failed (the
// report says which); 2 usage error.
//
// Configuration is read from verdict.yaml in $XDG_CONFIG_HOME/verdict (or
// --config FILE) and from VERDICT_* environment variables.
//
// Each command documents itself with "verdict help <command>".
package main
