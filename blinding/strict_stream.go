package blinding

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"verdict/verr"

	jsonv2 "github.com/go-json-experiment/json"
)

// ReasonChangedWhileRead: a document read more than once as a stream gave
// other bytes on a later read than the ones first digested (it was
// replaced or edited while it was being verified).
const ReasonChangedWhileRead verr.Reason = "changed-while-read"

// Opener returns a new reader of one document's exact bytes from their
// start each time it is called (a file opened again, or a bytes.Reader).
type Opener func() (io.ReadCloser, error)

// DigestFrom reads one document from open to its end and returns the
// lowercase hex SHA-256 of its bytes (Digest of them), or the read error.
func DigestFrom(open Opener) (string, error) {
	r, err := open()
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// UnmarshalStrictFrom is UnmarshalStrict on a document read from open as
// a stream: it is decoded from one read and compared with its canonical
// form (MarshalCanonical of the decoded value) on a second, and never held
// whole (a rating sheet of a 10,000-session campaign is tens of
// megabytes). digest is the SHA-256 (hex) the caller has already checked
// (a signature over the bytes); both reads must give exactly those bytes,
// else the error has ReasonChangedWhileRead, so the value decoded is the
// one verified. Other errors are UnmarshalStrict's: ReasonMalformedBundle
// (strict decoding) and ReasonNonCanonical, naming file.
func UnmarshalStrictFrom(file string, open Opener, digest string, v any) error {
	changed := func() error {
		return &verr.Error{Reason: ReasonChangedWhileRead, File: file, Rule: "canonical JSON",
			Detail: "the file's bytes changed while it was being read; its SHA-256 is no longer " + digest}
	}
	r, err := open()
	if err != nil {
		return err
	}
	h := sha256.New()
	err = jsonv2.UnmarshalRead(io.TeeReader(r, h), v, jsonv2.RejectUnknownMembers(true))
	r.Close()
	if err != nil {
		return &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	if hex.EncodeToString(h.Sum(nil)) != digest {
		return changed()
	}
	r, err = open()
	if err != nil {
		return err
	}
	defer r.Close()
	cmp := &readCompareWriter{h: sha256.New()}
	cmp.r = io.TeeReader(r, cmp.h)
	if err := streamCanonical(cmp, v); err != nil {
		return err
	}
	rest, err := io.Copy(cmp.h, r) // the bytes after the canonical text, if any
	if err != nil {
		return err
	}
	if hex.EncodeToString(cmp.h.Sum(nil)) != digest {
		return changed()
	}
	if cmp.differ || rest != 0 {
		return &verr.Error{Reason: ReasonNonCanonical, File: file, Rule: "canonical JSON",
			Detail: "file is not in canonical form (re-encoded bytes differ); it was edited or reformatted"}
	}
	return nil
}

// readCompareWriter compares the bytes written to it with the bytes read
// from r, read as far as written (every byte read also goes to h, the
// caller's digest of the whole read); differ records the first mismatch.
type readCompareWriter struct {
	r      io.Reader
	h      hash.Hash
	buf    []byte
	differ bool
}

func (c *readCompareWriter) Write(p []byte) (int, error) {
	if c.differ {
		return len(p), nil
	}
	if cap(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	b := c.buf[:len(p)]
	if _, err := io.ReadFull(c.r, b); err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			return 0, err
		}
		c.differ = true
		return len(p), nil
	}
	c.differ = !bytes.Equal(p, b)
	return len(p), nil
}
