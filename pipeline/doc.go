// Package pipeline owns verdict's one orchestration of the campaign: Check
// (strict load, structural findings, admission), Admit (admission with the
// replay of a planned dispatch sequence), Blind (the rater bundles and the
// sealed map) and Score (verify the signed records, settle every field,
// unblind, score, report).
//
// The commands of cmd/verdict, the SYNTHETIC demo and `verdict controls`
// call these functions and nothing else to run a campaign, so that what a
// control observes is what a user sees. The package reads files but never
// renders and never parses flags: it returns data and typed refusals
// (*verr.Error with reason codes), and the caller decides how to print
// them and which exit code they mean.
package pipeline
