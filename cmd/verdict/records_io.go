package main

import (
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
)

// readRecordFile reads a record and its detached FILE.sig (Sig nil when
// the signature file does not exist).
func readRecordFile(path string) (adjudication.RecordFile, error) {
	data, err := campaign.ReadRegular(path, campaign.FileRecord)
	if err != nil {
		return adjudication.RecordFile{}, err
	}
	sig, err := campaign.ReadRegular(path+".sig", campaign.FileSignature)
	if errors.Is(err, fs.ErrNotExist) {
		sig = nil
	} else if err != nil {
		return adjudication.RecordFile{}, err
	}
	return adjudication.RecordFile{Name: path, Data: data, Sig: sig}, nil
}

// addAllowedSignersFlag adds --allowed-signers to c, stored in *p; its help
// says that the config key allowed_signers (environment
// VERDICT_ALLOWED_SIGNERS) is the default, which allowedSigners applies.
func addAllowedSignersFlag(c *cobra.Command, p *string, help string) {
	c.Flags().StringVar(p, "allowed-signers", "", help+" (config: allowed_signers)")
}

// allowedSigners returns flag when set, else the config key allowed_signers
// (a verdict.yaml key or VERDICT_ALLOWED_SIGNERS); "" when neither is set.
func allowedSigners(a *app, flag string) string {
	if flag != "" {
		return flag
	}
	return a.cfg.GetString("allowed_signers")
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

func (f *signingFlags) resolve(a *app) (time.Time, error) {
	if f.key == "" {
		f.key = a.cfg.GetString("key")
	}
	if f.name == "" {
		f.name = a.cfg.GetString("name")
	}
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

// printWritten prints the JSON form of a record written at out with bytes
// data (writtenRecord).
func printWritten(a *app, synthetic bool, out string, data []byte, signer adjudication.Signer) error {
	return writeJSON(a.stdout, written(synthetic, out, data, signer))
}

// written is the writtenRecord of a record written at out with bytes data.
func written(synthetic bool, out string, data []byte, signer adjudication.Signer) writtenRecord {
	return writtenRecord{Notice: syntheticNotice(synthetic), Synthetic: synthetic, Record: out,
		SHA256: blinding.Digest(data), Signature: out + ".sig", Signer: signer}
}

// closeInto closes c (a journal or decision log the command wrote) and
// sets *err to the close error when the command had none: a failed close
// of a written file is reported, never dropped.
func closeInto(err *error, c io.Closer) {
	if cerr := c.Close(); *err == nil && cerr != nil {
		*err = cerr
	}
}
