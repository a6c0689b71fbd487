package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/internal/visible"
	"verdict/pipeline"
	"verdict/verr"
)

// newSignersCmd is `verdict signers add|list`: the allowed_signers file
// every signed record is verified against, written by verdict in the one
// form verification reads.
func newSignersCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "signers add NAME ROLE PUBKEY | signers list",
		Short: "Write and list the allowed_signers file that signed records are verified against",
		Long: `Signers keeps the allowed_signers file (ssh-keygen's ALLOWED SIGNERS format)
that freeze, resolve, reveal, verify and score check every signature against.
verdict reads a line's namespaces="..." as the roles its key may sign in:

  rater        verdict-rating        rating sheets
  adjudicator  verdict-adjudication  the adjudication
  coordinator  verdict-reveal        the reveal record

The file is ALLOWED-SIGNERS (--allowed-signers, else the config key
allowed_signers, else ./allowed_signers). Keep it where only the
coordinator writes, never in the ratings directory, and give every command
that checks a signature its path (--allowed-signers, or the config key
allowed_signers): no command looks for it beside the records it checks.`,
	}
	var path string
	c.PersistentFlags().StringVar(&path, "allowed-signers", "", "the allowed_signers file (config: allowed_signers; default ./allowed_signers)")
	file := func() string {
		if p := allowedSigners(a, path); p != "" {
			return p
		}
		return "allowed_signers"
	}

	add := &cobra.Command{
		Use:   "add NAME ROLE PUBKEY",
		Short: "Let NAME sign ROLE's records with the public key PUBKEY (a .pub file or the key text)",
		Long: `Add appends one line, NAME namespaces="NS" KEY, that lets NAME sign the
records of ROLE (rater, adjudicator or coordinator) with the public key
PUBKEY: a public key file (ssh-keygen's NAME.pub) or the key text itself
("ssh-ed25519 AAAA..."). Every line already in the file is kept as it is;
the file is created when absent, written under a lock (FILE.lock) and
replaced atomically, and the line written is parsed back and checked as
verification checks a signer.

Refusals (exit 1, the file unchanged):
  signer-key-reused    the key is already listed for another person or role
                       (two raters on one key, a rater's key adjudicating)
  signer-name-reused   the name is already listed for another role or with
                       another key (one person, one key, one role)
  bad-signer-role      ROLE is not rater, adjudicator or coordinator
  bad-signer-name      NAME is empty or holds space, comma, quote, *, ?, !
  key-unreadable       PUBKEY is neither a public key file nor key text
  bad-allowed-signers  the existing file has a line verdict cannot read
  output-locked        another verdict command is writing the file

Adding a grant the file already holds changes nothing (exit 0).

Exit codes: 0 added or already listed; 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(3),
	}
	addFormat := formatFlag(add, "text", "json")
	add.RunE = func(cmd *cobra.Command, args []string) error {
		key, err := readPublicKey(args[2])
		if err != nil {
			return refusal(a, err)
		}
		line, added, err := adjudication.AddSignerFile(file(), args[0], adjudication.Role(args[1]), key)
		if err != nil {
			return refusal(a, err)
		}
		if *addFormat == "json" {
			return writeJSON(a.stdout, struct {
				File        string `json:"file"`
				Added       bool   `json:"added"`
				Line        string `json:"line"`
				Fingerprint string `json:"fingerprint"`
			}{file(), added, line, adjudication.Fingerprint(key)})
		}
		if added {
			fmt.Fprintf(a.stdout, "added to %s: %s\n", file(), line)
		} else {
			fmt.Fprintf(a.stdout, "already in %s: %s\n", file(), line)
		}
		return nil
	}

	list := &cobra.Command{
		Use:   "list",
		Short: "List who may sign which records, with each key's fingerprint",
		Long: `List prints one row per principal of each allowed_signers line: the line
number, the name, the roles its namespaces allow (a namespace that is no
verdict role is shown as it is; a line without namespaces signs nothing),
the key type and its SHA-256 fingerprint (as ssh-keygen -l prints it).

Exit codes: 0 listed; 1 the file is missing or does not parse; 2 usage error.`,
		Args: cobra.NoArgs,
	}
	listFormat := formatFlag(list, "text", "json")
	list.RunE = func(cmd *cobra.Command, args []string) error {
		allowed, err := pipeline.ReadAllowedSigners(file())
		if err != nil {
			return refusal(a, err)
		}
		grants := adjudication.Grants(allowed)
		if grants == nil {
			grants = []adjudication.SignerGrant{}
		}
		if *listFormat == "json" {
			return writeJSON(a.stdout, struct {
				File    string                     `json:"file"`
				Signers []adjudication.SignerGrant `json:"signers"`
			}{file(), grants})
		}
		w := a.stdout
		fmt.Fprintf(w, "%s: %d signer(s)\n", file(), len(grants))
		fmt.Fprintf(w, "%-5s %-16s %-24s %s\n", "line", "name", "roles", "key")
		for _, g := range grants {
			roles := make([]string, len(g.Namespaces))
			for i, ns := range g.Namespaces {
				roles[i] = ns
				if g.Roles[i] != "" {
					roles[i] = g.Roles[i]
				}
			}
			r := strings.Join(roles, ",")
			if r == "" {
				r = "(none: signs nothing)"
			}
			fmt.Fprintf(w, "%-5d %-16s %-24s %s %s\n", g.Line, visible.Text(g.Principal), visible.Text(r), g.KeyType, g.Fingerprint)
		}
		return nil
	}
	c.AddCommand(add, list)
	return c
}

// readPublicKey returns the public key arg names: the key text itself
// ("ssh-ed25519 AAAA... [comment]") or a public key file holding it.
// Anything else is adjudication.ReasonKeyUnreadable.
func readPublicKey(arg string) (ssh.PublicKey, error) {
	if k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(arg)); err == nil {
		return k, nil
	}
	data, err := campaign.ReadRegular(arg, campaign.FileKey)
	if err != nil {
		return nil, &verr.Error{Reason: adjudication.ReasonKeyUnreadable, File: arg, Rule: "DESIGN Signed records", Detail: err.Error(), Err: err}
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil, &verr.Error{Reason: adjudication.ReasonKeyUnreadable, File: arg, Rule: "DESIGN Signed records", Detail: "not an SSH public key (give the .pub file): " + err.Error(), Err: err}
	}
	return k, nil
}
