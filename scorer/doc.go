// Package scorer owns the automatic half of the verdict: the structural
// validator of responses (PROMPTS.md "Additional constraints",
// EVALUATOR-CONTROLS C09, C12, C13), receipts accounting and admission
// (CONTRACT §4–§5), consensus of the signed human grades, per-run, per-task
// and per-repository scoring, the gates, the decision (CONTRACT §4) and
// report rendering. It does no I/O beyond reading what it is handed.
package scorer
