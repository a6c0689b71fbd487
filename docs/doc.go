// Package docs holds verdict's documents: the campaign format
// (campaign-format.md), the system-comparison scoring choices
// (system-scoring.md) and our rule-by-rule summary of contract 741-v1.0
// (contract.md). It has no code; its test checks that every citation of
// the contract in the source tree (a CONTRACT section, a part of
// PROMPTS.md, an EVALUATOR-CONTROLS control, a CLI-HANDOFF item, a part of
// COMPARATOR-SELECTION.md) has a heading in contract.md.
package docs
