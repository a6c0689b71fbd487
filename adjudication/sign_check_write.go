package adjudication

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"golang.org/x/crypto/ssh"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// RecordRefusal is a new signed record that Verify would refuse (its
// reason code and sentence); nothing was written.
type RecordRefusal struct {
	Out    string
	Reason string
	Detail string
}

// Error implements error.
func (r *RecordRefusal) Error() string {
	return fmt.Sprintf("%s would not verify, nothing written: %s: %s", r.Out, r.Reason, r.Detail)
}

// NewRecordRefusal verifies a record about to be written (out, data, sig)
// together with the records it names (inputs) against allowed, exactly as
// verify and score will, and returns the refusal when the new record
// would be refused there: a signer whose key may not sign this kind of
// record, or an adjudicator who rated the sheets. It returns nil when the
// record verifies.
func NewRecordRefusal(allowed []AllowedSigner, inputs []RecordFile, out string, data, sig []byte) *RecordRefusal {
	files := append(slices.Clone(inputs), RecordFile{Name: out, Data: data, Sig: sig})
	checks := Verify(allowed, files, VerifyOptions{})
	if ch := checks[len(checks)-1]; !ch.OK {
		return &RecordRefusal{Out: out, Reason: string(ch.Reason), Detail: ch.Detail}
	}
	return nil
}

// SignCheckWrite signs record v in namespace ns with key (a key file's
// signer or a forwarded agent's: SignRecord), checks that the new record
// verifies with its inputs against allowed (NewRecordRefusal) and only
// then writes it and its .sig at out (WriteSigned: a crash leaves both
// or neither). It returns the record bytes; a refusal is a
// *RecordRefusal and nothing is written.
func SignCheckWrite(v any, key ssh.Signer, ns string, allowed []AllowedSigner, inputs []RecordFile, out string) ([]byte, error) {
	data, sig, err := SignRecord(v, key, ns)
	if err != nil {
		return nil, err
	}
	if r := NewRecordRefusal(allowed, inputs, out, data, sig); r != nil {
		return nil, r
	}
	if err := WriteSigned(out, data, sig); err != nil {
		return nil, err
	}
	return data, nil
}

// FreezeSheet freezes the open journal j of bundle b (bundleDigest, the
// digest LoadBundle returned) into the rating sheet of rater name (in
// role, which NewSheet requires to be RoleRater) signed with key at time at, checked against allowed and written at out: the
// one freeze of `verdict freeze`, `verdict rate` and `verdict serve`.
// The journal takes no entry while the sheet is built (Journal.Freeze),
// so the sheet's journal_digest is the digest of the journal's bytes as
// read here. It returns the sheet and its bytes; on any error nothing is
// written and the journal takes entries again.
func FreezeSheet(j *Journal, b *blinding.Bundle, bundleDigest, name string, role Role, key ssh.Signer, at time.Time, allowed []AllowedSigner, out string) (*Sheet, []byte, error) {
	var sheet *Sheet
	var data []byte
	err := j.Freeze(func(st State) error {
		jb, err := campaign.ReadRegular(j.Path(), campaign.FileJournal)
		if err != nil {
			return err
		}
		if sheet, err = NewSheet(b, bundleDigest, blinding.Digest(jb), st, name, role, key.PublicKey(), at); err != nil {
			return err
		}
		data, err = SignCheckWrite(sheet, key, NamespaceRating, allowed, nil, out)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return sheet, data, nil
}

// ReadRecordFile reads the signed record at path and its detached
// signature path+".sig" (Sig is nil when the .sig does not exist), each
// through the bounded regular-file reader.
func ReadRecordFile(path string) (RecordFile, error) {
	data, err := campaign.ReadRegular(path, campaign.FileRecord)
	if err != nil {
		return RecordFile{}, err
	}
	sig, err := campaign.ReadRegular(path+".sig", campaign.FileSignature)
	if errors.Is(err, fs.ErrNotExist) {
		sig = nil
	} else if err != nil {
		return RecordFile{}, err
	}
	return RecordFile{Name: path, Data: data, Sig: sig}, nil
}

// LoadAllowedSigners reads and parses the allowed_signers file at path
// (ParseAllowedSigners); an empty path is AllowedSignersMissing, and a
// path that names no file is ReasonAllowedSignersMissing naming it (the
// error wraps fs.ErrNotExist).
func LoadAllowedSigners(path string) ([]AllowedSigner, error) {
	if path == "" {
		return nil, AllowedSignersMissing()
	}
	data, err := campaign.ReadRegular(path, campaign.FileAllowedSigners)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &verr.Error{Reason: ReasonAllowedSignersMissing, File: path, Rule: ruleTrustRoot, Err: err,
			Detail: "the allowed_signers file named (--allowed-signers, the config key allowed_signers or VERDICT_ALLOWED_SIGNERS) does not exist"}
	}
	if err != nil {
		return nil, err
	}
	return ParseAllowedSigners(path, data)
}
