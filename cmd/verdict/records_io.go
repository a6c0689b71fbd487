package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// addAllowedSignersFlag adds --allowed-signers to c, stored in *p; its help
// says that the config key allowed_signers (environment
// VERDICT_ALLOWED_SIGNERS) is the default, which allowedSigners applies.
func addAllowedSignersFlag(c *cobra.Command, p *string, help string) {
	c.Flags().StringVar(p, "allowed-signers", "", help+" (config: allowed_signers)")
}

// allowedSigners returns flag when set, else the config key allowed_signers
// (a verdict.yaml key or VERDICT_ALLOWED_SIGNERS); "" when neither is set
// (or the app, run in-process by demo, has no configuration).
func allowedSigners(a *app, flag string) string {
	if flag != "" || a.cfg == nil {
		return flag
	}
	return a.configPath("allowed_signers")
}

// trustedSigners returns the allowed_signers file every command checks
// signers against: --allowed-signers (flag), else the config key
// allowed_signers (allowedSigners). It is never inferred from a bundle's,
// sheet's or ratings directory: whoever can write there could add their own
// key and have a forged record verify. With neither it refuses
// (adjudication.ReasonAllowedSignersMissing, exit 1).
func trustedSigners(a *app, flag string) (string, error) {
	if p := allowedSigners(a, flag); p != "" {
		return p, nil
	}
	return "", adjudication.AllowedSignersMissing()
}

// trustedSigning is the first check of a command that signs over
// verified records: the allowed_signers file (trustedSigners, refused
// when there is none), then the signing flags and time
// (signingFlags.resolve).
func trustedSigning(a *app, flag string, f *signingFlags) (string, time.Time, error) {
	allowed, err := trustedSigners(a, flag)
	if err != nil {
		return "", time.Time{}, refusal(a, err)
	}
	at, err := f.resolve(a)
	if err != nil {
		return "", time.Time{}, err
	}
	return allowed, at, nil
}

// checkSigner is adjudication.CheckNewSigner for a signing command: the
// signer name, role f.role (the record kind's role want) and key checked
// against allowed_signers (as, read from allowedPath, which a refusal by
// allowed_signers names as its file).
func checkSigner(as []adjudication.AllowedSigner, allowedPath string, f signingFlags, want adjudication.Role, key ssh.PublicKey) error {
	err := adjudication.CheckNewSigner(as, f.name, adjudication.Role(f.role), want, key)
	var ve *verr.Error
	if errors.As(err, &ve) && (ve.Reason == adjudication.ReasonSignerNotAllowed || ve.Reason == adjudication.ReasonKeyNotAllowedForRole) {
		ve.File = allowedPath
	}
	return err
}

// signingFlags are the identity flags every signing command takes.
type signingFlags struct {
	key, name, role, at string
}

func addSigningFlags(c *cobra.Command, f *signingFlags, role string) {
	c.Flags().StringVar(&f.key, "key", "", "SSH private key file, or a .pub key held by ssh-agent (config: key)")
	c.Flags().StringVar(&f.name, "name", "", "signer name; the allowed_signers principal (config: name)")
	c.Flags().StringVar(&f.role, "role", role, "signer role: "+role)
	c.Flags().StringVar(&f.at, "time", "", "signing time, RFC 3339 (default: now; fixtures pass a fixed time)")
}

// fill takes the key and the name from the config where the flags leave
// them out.
func (f *signingFlags) fill(a *app) {
	if f.key == "" {
		f.key = a.configPath("key")
	}
	if f.name == "" {
		f.name = a.cfg.GetString("name")
	}
}

// required is requiredFlags for a signing command: the given flags, then
// --key and --name (from the flags or the config, signingFlags.fill), so
// that one usage error names every required flag left out.
func (f *signingFlags) required(a *app, cmd string, given ...flagGiven) error {
	f.fill(a)
	return requiredFlags(cmd, append(given, flagGiven{"--key", f.key != ""}, flagGiven{"--name", f.name != ""})...)
}

// flagGiven is one required flag of a command and whether it was given.
type flagGiven struct {
	flag string
	ok   bool
}

// requiredFlags is the usage error of command cmd that names, in one
// message, every required flag not given; nil when all are.
func requiredFlags(cmd string, given ...flagGiven) error {
	var miss []string
	for _, g := range given {
		if !g.ok {
			miss = append(miss, g.flag)
		}
	}
	if len(miss) == 0 {
		return nil
	}
	return usagef("%s: required and not given: %s", cmd, strings.Join(miss, ", "))
}

func (f *signingFlags) resolve(a *app) (time.Time, error) {
	f.fill(a)
	if f.key == "" || f.name == "" {
		return time.Time{}, usagef("--key and --name are required (or key and name in the config)")
	}
	if f.at == "" {
		return time.Now().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, f.at)
	if err != nil {
		return time.Time{}, usagef("--time %q: %v", f.at, err)
	}
	return t.UTC(), nil
}

// writeJSON writes v to w in verdict's one JSON output form
// (campaign.EncodeJSON).
func writeJSON(w io.Writer, v any) error { return campaign.EncodeJSON(w, v) }

// writtenRecord is the --format json output of freeze, resolve and reveal:
// the SYNTHETIC notice of a synthetic record, the record written, the
// SHA-256 of its bytes, its detached signature and its signer.
type writtenRecord struct {
	Notice    string              `json:"notice,omitempty"`
	Synthetic bool                `json:"synthetic"`
	Record    string              `json:"record"`
	SHA256    string              `json:"sha256"`
	Signature string              `json:"signature"`
	Signer    adjudication.Signer `json:"signer"`
	// Admission is reveal's note on the campaign's admission (omitted by
	// freeze and resolve, which are given no campaign).
	Admission *admissionNote `json:"admission,omitempty"`
}

// printSigned prints what freeze and resolve report of the record they
// signed in namespace and wrote at out with bytes data: with --format
// json its writtenRecord; else the SYNTHETIC notice of a synthetic
// record, then what (what the record holds), its signer, its SHA-256 and
// its detached signature.
func printSigned(a *app, format string, synthetic bool, out string, data []byte, signer adjudication.Signer, namespace, what string) error {
	if format == "json" {
		return writeJSON(a.stdout, written(synthetic, out, data, signer))
	}
	if synthetic {
		fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
	}
	fmt.Fprintf(a.stdout, "%s by %s (%s) into %s\nsha256 %s\nsigned %s with %s in namespace %s\n",
		what, signer.Name, signer.Role, out, blinding.Digest(data), out+".sig", signer.KeyFingerprint, namespace)
	return nil
}

// written is the writtenRecord of a record written at out with bytes data.
func written(synthetic bool, out string, data []byte, signer adjudication.Signer) writtenRecord {
	return writtenRecord{Notice: syntheticNotice(synthetic), Synthetic: synthetic, Record: out,
		SHA256: blinding.Digest(data), Signature: out + ".sig", Signer: signer}
}

// openRefusal is the error of a command that could not open a journal
// or decision log: one another process holds (adjudication.ErrLocked)
// is refused on stdout with held, what that process is and holds
// ("verdict rate has this journal"), and fails journal-locked; anything
// else is a refusal.
func openRefusal(a *app, err error, held string) error {
	if adjudication.ErrLocked(err) {
		fmt.Fprintln(a.stdout, "REFUSED: "+err.Error()+" (another "+held+" open)")
		return failed("journal-locked")
	}
	return refusal(a, err)
}

// closeInto closes c (a journal or decision log the command wrote) and
// sets *err to the close error when the command had none: a failed close
// of a written file is reported, never dropped.
func closeInto(err *error, c io.Closer) {
	if cerr := c.Close(); *err == nil && cerr != nil {
		*err = cerr
	}
}

// ReasonBundleMissing: a command that signs over rating sheets (resolve,
// reveal) finds no bundle file beside a sheet whose SHA-256 is the
// sheet's bundle_digest, so it cannot check that the sheet grades every
// field of its bundle.
const ReasonBundleMissing verr.Reason = "bundle-missing"

// sheetBundles returns the bundles the rating sheets among files are
// cross-checked against (adjudication.VerifyOptions.Bundles: unknown
// items and fields, completeness): the files given, then every
// bundle-*.json in a sheet's directory (where verdict blind writes the
// bundles beside the sheets), keyed by the SHA-256 of their bytes. It
// returns nil (no bundle cross-check) unless every sheet's bundle_digest
// is found; with required, a sheet whose bundle is not found is refused
// (ReasonBundleMissing). A bundle file that does not load is refused
// with LoadBundle's reason.
func sheetBundles(given []string, files []adjudication.RecordFile, required bool) (map[string]*blinding.Bundle, error) {
	out := map[string]*blinding.Bundle{}
	load := func(p string) error {
		b, d, err := blinding.LoadBundle(p)
		if err != nil {
			return err
		}
		out[d] = b
		return nil
	}
	for _, p := range given {
		if err := load(p); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		var head struct {
			Format       string `json:"format"`
			BundleDigest string `json:"bundle_digest"`
		}
		if json.Unmarshal(f.Data, &head) != nil || head.Format != adjudication.SheetFormat {
			continue
		}
		if out[head.BundleDigest] == nil {
			dir := filepath.Dir(f.Name)
			if !seen[dir] {
				seen[dir] = true
				paths, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json"))
				sort.Strings(paths)
				for _, p := range paths {
					if err := load(p); err != nil {
						return nil, err
					}
				}
			}
		}
		if out[head.BundleDigest] == nil {
			if required {
				return nil, verr.Newf(ReasonBundleMissing, f.Name, "/bundle_digest", "DESIGN Roles: a rater grades every final answer, then freezes and signs",
					"no bundle with SHA-256 %s (given with --bundle or beside the sheet as bundle-*.json): the sheet cannot be checked against its bundle", head.BundleDigest)
			}
			return nil, nil
		}
	}
	return out, nil
}
