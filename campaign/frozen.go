package campaign

import (
	"embed"
	"slices"
)

// The frozen identities of contract 741-v1.0 ("Frozen document identities"
// table, CONTRACT §5, PROMPTS.md). Their rules live in the scorer's
// manifest admission; this file holds the values.

// frozenDocuments are the five documents of the "Frozen document
// identities" table with their SHA-256, sorted by name. The digests are of
// the original local UTF-8 documents; verdict does not ship those
// documents (their byte-exact text is not available to it), so it binds
// and checks the table's digests.
var frozenDocuments = []FrozenDocument{
	{Name: "CLI-HANDOFF.md", SHA256: "05ca39542d7089c41a454f77a0ad5a280ea243661db9cc5e974792fd58960c40"},
	{Name: "COMPARATOR-SELECTION.md", SHA256: "b1a155e356108a934a272582601a6a3cb6182f7ae03cfe7100f3a7f2415b3b27"},
	{Name: "CONTRACT.md", SHA256: "a44a574b0024d7dac11261988fbeda99b0593c526e40da2818b7c18a457bc57b"},
	{Name: "EVALUATOR-CONTROLS.md", SHA256: "4f3a1ae40f3b2d649dff2bafc17b8cf5f61a3d404add009b9b49caa119b96884"},
	{Name: "PROMPTS.md", SHA256: "7b68b1685e744c3ea4345c05c29ff85f94b19ba3ad54a09601333041889b894a"},
}

// FrozenDocuments returns a copy of the five frozen documents of contract
// 741-v1.0 with their SHA-256 ("Frozen document identities"), sorted by
// name: exactly what a 741-v1.0 manifest binds in frozen_documents.
func FrozenDocuments() []FrozenDocument { return slices.Clone(frozenDocuments) }

//go:embed frozen/*.txt
var frozenPrompts embed.FS

// frozenPromptFiles names the embedded frozen text of each prompt key.
var frozenPromptFiles = map[string]string{
	PromptCommon:               "frozen/common.txt",
	PromptDraft:                "frozen/draft.txt",
	PromptReviewA:              "frozen/review-a.txt",
	PromptReviewB:              "frozen/review-b.txt",
	PromptFinalSchema:          "frozen/final-schema.txt",
	PromptReconciliationSchema: "frozen/reconciliation-schema.txt",
	PromptInvestigator:         "frozen/investigator.txt",
}

// PromptKeys lists the prompt keys of PromptFiles in manifest order
// (common, draft, review_a, review_b, final_schema, reconciliation_schema).
func PromptKeys() []string {
	return []string{PromptCommon, PromptDraft, PromptReviewA, PromptReviewB, PromptFinalSchema, PromptReconciliationSchema}
}

// FrozenPrompt returns the frozen PROMPTS.md text (v1.0) of a prompt key
// (PromptCommon … PromptReconciliationSchema): the bytes a 741-v1.0
// manifest binds for that key, except B's instruction after its one
// permitted revision (CONTRACT §5). It returns nil for an unknown key.
func FrozenPrompt(key string) []byte {
	name, ok := frozenPromptFiles[key]
	if !ok {
		return nil
	}
	b, err := frozenPrompts.ReadFile(name)
	if err != nil {
		panic("campaign: frozen prompt " + name + " is not embedded") // cannot happen: the directory is embedded
	}
	return b
}

// PromptPath returns the manifest's path of a prompt key; "" for an
// unknown key.
func (p PromptFiles) PromptPath(key string) string {
	switch key {
	case PromptCommon:
		return p.Common
	case PromptDraft:
		return p.Draft
	case PromptReviewA:
		return p.ReviewA
	case PromptReviewB:
		return p.ReviewB
	case PromptFinalSchema:
		return p.FinalSchema
	case PromptReconciliationSchema:
		return p.ReconciliationSchema
	}
	return ""
}
