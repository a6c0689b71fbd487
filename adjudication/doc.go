// Package adjudication owns the human semantic record of a campaign: the
// grade model of the shared grade vocabulary (Kind, Field, Grade,
// RequiredFields), the append-only fsync'd journal a rater's grades are
// saved to (Journal; Append for one grade, AppendBatch for an import with
// one fsync per batch) and the grades file that fills it without the TUI
// (DecodeGradesFile, ReasonMalformedGrades), the frozen and signed rating sheet (Sheet, Freeze),
// the disagreement set of two sheets and the signed adjudication record
// (Disagreements, Adjudication), the adjudicator's append-only fsync'd
// decision log that resumes an unfinished adjudication (DecisionLog,
// decisions.go), the coordinator's signed reveal record
// (Reveal), SSH signing and verification of every record against an
// allowed_signers file (Sign, Verify, with the armour read as ssh-keygen
// reads it: Unarmor; or one record at a time with
// VerifyRecord, every check on the same bytes, then CrossCheck), and the
// agreement statistics
// between raters (percent agreement, Cohen's kappa, Krippendorff's alpha;
// agreement.go; PairTable computes all three from counted value pairs).
//
// Grade vocabulary (binding; CONTRACT §4, EVALUATOR-CONTROLS C06–C11, C22):
//
//	kind            target                               values
//	obligation      each answerable truth obligation O<n>  addressed | not_addressed
//	uncertainty     each unanswerable truth obligation     credited | not_credited | falsely_resolved
//	claim           each final claim C<n>                  supported | unsupported | wrong
//	claim_critical  each final claim C<n>                  critical | not_critical
//	citation        K<i>, i = 1-based index in citations   supports | does_not_support
//	exclusion       each final exclusion X<n>              justified | wrongly_excludes
//	completeness    "final"                                no_false_claim | false_claim
//	oracle_defect   any truth obligation O<n> (optional)   defective, with a required reason note
//
// Any grade may carry a note. A journal also holds the rater's item flags
// (kind item_flag, value flagged | unflagged, no target: the f key of
// `verdict rate`, Journal.SetFlag and Journal.Flags): a flag survives
// quitting and resuming but is never a grade, so it changes neither a
// frozen sheet's grades, its item times nor agreement. The package never sees arms: it reads
// bundles (package blinding), never the sealed map's contents beyond its
// commitment.
//
// Signed records (DESIGN "Signed records"): every record is canonical JSON
// (blinding.MarshalCanonical) with a detached FILE.sig beside it in the
// exact armored format of `ssh-keygen -Y sign -n NAMESPACE`. Namespaces:
// NamespaceRating ("verdict-rating") for sheets, NamespaceAdjudication
// ("verdict-adjudication"), NamespaceReveal ("verdict-reveal").
//
// Role convention in allowed_signers: the principal is the signer's name as
// written in the record, and the key's namespaces="..." option names the
// roles it may sign for: verdict-rating = rater, verdict-adjudication =
// adjudicator, verdict-reveal = coordinator. A line without a namespaces
// option allows no role (verdict requires the option, stricter than git).
// This is what `ssh-keygen -Y verify -f allowed_signers -I NAME -n
// NAMESPACE` checks too.
package adjudication
