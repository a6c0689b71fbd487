package adjudication

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hiddeco/sshsig"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// VerifyRecordFile is VerifyRecord on the record stored in the file at
// path, with its detached signature bytes sig (nil when the .sig is
// missing). The file is read as a stream, once per step (digest,
// signature, format and signer, strict decoding, canonical comparison),
// and never held whole: two rating sheets of a 10,000-session campaign
// are tens of megabytes each. Every read must give the bytes first
// digested and verified; a file that changes meanwhile is refused
// (ReasonBadSignature, or ReasonMalformedRecord wrapping
// blinding.ReasonChangedWhileRead). A file that cannot be read is refused
// with ReasonMalformedRecord.
func VerifyRecordFile(allowed []AllowedSigner, path string, sig []byte) Check {
	return verifyRecord(allowed, path, sig, &streamRecord{name: path, open: func() (io.ReadCloser, error) { return campaign.OpenRegular(path, campaign.FileRecord) }})
}

// streamRecord is a recordSource read from open, once per use; d is the
// digest of the first read, which every later read must reproduce.
type streamRecord struct {
	name string
	open blinding.Opener
	d    string
}

func (s *streamRecord) digest() (string, error) {
	d, err := blinding.DigestFrom(s.open)
	s.d = d
	return d, err
}

func (s *streamRecord) verify(sig *sshsig.Signature) error {
	r, err := s.open()
	if err != nil {
		return err
	}
	defer r.Close()
	h := sha256.New()
	if err := sshsig.Verify(io.TeeReader(r, h), sig, sig.PublicKey, sig.HashAlgorithm, sig.Namespace); err != nil {
		return err
	}
	if _, err := io.Copy(h, r); err != nil {
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != s.d {
		return &verr.Error{Reason: blinding.ReasonChangedWhileRead, File: s.name, Rule: ruleRecords,
			Detail: "the file's bytes changed while it was being verified"}
	}
	return nil
}

// head gives encoding/json.Unmarshal's result on the whole record without
// holding it: the top-level members are read one at a time, every array
// member (the grades or resolutions) is skipped and stands as null, and
// the small object left is decoded with encoding/json. An array can only
// leave a head member as it was (null does the same), and bytes that are
// not one valid JSON value leave v zero, as Unmarshal's validity scan does.
func (s *streamRecord) head(v any) {
	r, err := s.open()
	if err != nil {
		return
	}
	defer r.Close()
	dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return
		}
		if obj.Len() > 1 {
			obj.WriteByte(',')
		}
		obj.Write(name)
		obj.WriteByte(':')
		if dec.PeekKind() == '[' {
			if err := dec.SkipValue(); err != nil {
				return
			}
			obj.WriteString("null")
			continue
		}
		val, err := dec.ReadValue()
		if err != nil {
			return
		}
		obj.Write(val)
	}
	if _, err := dec.ReadToken(); err != nil {
		return
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return
	}
	obj.WriteByte('}')
	_ = json.Unmarshal(obj.Bytes(), v)
}

func (s *streamRecord) parse(v any) error {
	return blinding.UnmarshalStrictFrom(s.name, s.open, s.d, v)
}
