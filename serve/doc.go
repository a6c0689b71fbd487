// Package serve owns `verdict serve`: an SSH server (charm.land/wish v2
// with its Bubble Tea middleware) through which raters, the adjudicator
// and the coordinator reach a ratings directory from their own machines,
// and `verdict status`, the coordinator's progress view of the same
// directory.
//
// What it owns:
//
//   - The served directory's rule (CheckServedDir): a directory that holds
//     a sealed map (the rule of `blind --map-out`, ReasonMapInRaterFolder),
//     a campaign (manifest.json), a reveal record or a private key is
//     refused before the server listens, and so is one without a bundle.
//   - The host key (HostKey): read, or created ed25519 with mode 0600 when
//     missing; its SHA-256 fingerprint is printed at start.
//   - Who connects as what (Identify): public-key authentication only.
//     The connecting key must have an allowed_signers line; its principal
//     is the signer name and its namespaces= option the role, exactly as
//     signing checks it (adjudication.CheckSigner): verdict-rating is a
//     rater (the rate program on bundle-<principal>.json only),
//     verdict-adjudication the adjudicator (the adjudicate program once
//     both sheets are frozen, a waiting screen before), verdict-reveal the
//     coordinator (the status screen). A command (exec) is refused with
//     one line (ReasonCommand); every other SSH request (subsystems such
//     as SFTP, port forwarding, passwords, keyboard-interactive) is
//     refused by the protocol.
//   - Signing through the forwarded agent (agentSigner): freezing a sheet
//     (adjudication.FreezeSheet) and signing the adjudication
//     (adjudication.SignCheckWrite) ask the client's forwarded ssh-agent
//     for a signature by the key the person connected with, in the
//     record's namespace; the record is written with
//     adjudication.WriteSigned exactly as `verdict freeze` writes it.
//   - One live connection per person (sessions): a second connection of
//     the same principal is told who holds the seat; it takes the seat
//     over only when the holder has sent nothing for Config.TakeoverAfter.
//   - The progress report (Status): per rater fields graded of required,
//     items done, flagged items, time spent, last activity, frozen or not
//     and the sheet's SHA-256 once frozen; the adjudication's disputes
//     resolved of total. It never holds a grade value or a note.
//
// It holds no copy of journal, freeze or verify logic: journals, decision
// logs, sheets and the adjudication are opened, written and checked by
// package adjudication with the same locks and fsyncs as the local
// commands, so a dropped connection or a killed server loses no saved
// grade, and reconnecting resumes where the journal stands.
package serve
