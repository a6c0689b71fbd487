package adjudication

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/hiddeco/sshsig"
)

// The armour lines of an SSH signature (PROTOCOL.sshsig "Armored format").
const (
	armorBegin = "-----BEGIN SSH SIGNATURE-----"
	armorEnd   = "-----END SSH SIGNATURE-----"
)

// Unarmor decodes an armored SSH signature with the rules of
// `ssh-keygen -Y verify` (OpenSSH sshsig_dearmor), so that verdict accepts
// exactly the .sig files ssh-keygen accepts:
//   - the file starts with the begin line, at byte 0, ended by LF (not
//     CR LF, which OpenSSH 9.2 refuses);
//   - the body runs to the first LF followed by the end line; whatever
//     follows the end line is ignored, as ssh-keygen ignores it;
//   - the body holds no NUL byte;
//   - the body is base64 in which white space (space, tab, LF, VT, FF, CR)
//     is skipped anywhere, padding is complete and the bits past the last
//     whole byte are zero;
//   - the decoded blob is one SSHSIG signature with no trailing byte.
//
// So junk before the begin line is refused, and so is a begin line not
// followed by a line end. Errors are plain sentences; the caller wraps them
// as ReasonSignatureMalformed.
func Unarmor(b []byte) (*sshsig.Signature, error) {
	rest, ok := bytes.CutPrefix(b, []byte(armorBegin))
	if !ok {
		return nil, errors.New("the file does not start with the line " + armorBegin)
	}
	// OpenSSH 9.2 requires LF here; later releases also take CR LF. Taking
	// LF only keeps every accepted file acceptable to both.
	rest, ok = bytes.CutPrefix(rest, []byte("\n"))
	if !ok {
		return nil, errors.New("the begin line is not ended by LF (a CR LF line end is refused by ssh-keygen 9.2)")
	}
	end := bytes.Index(rest, []byte("\n"+armorEnd))
	if end < 0 {
		return nil, errors.New("no line " + armorEnd)
	}
	body := rest[:end]
	if bytes.IndexByte(body, 0) >= 0 {
		return nil, errors.New("the armoured body holds a NUL byte")
	}
	blob, err := decodeArmorBase64(body)
	if err != nil {
		return nil, err
	}
	return sshsig.ParseSignature(blob)
}

// decodeArmorBase64 decodes body as OpenSSH's b64_pton does: C isspace
// bytes are skipped anywhere, every other byte must be base64 or padding,
// and the encoding is strict (complete padding, zero trailing bits).
func decodeArmorBase64(body []byte) ([]byte, error) {
	clean := make([]byte, 0, len(body))
	for _, c := range body {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			continue
		}
		clean = append(clean, c)
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(clean)))
	n, err := base64.StdEncoding.Strict().Decode(out, clean)
	if err != nil {
		return nil, fmt.Errorf("the armoured body is not base64: %v", err)
	}
	return out[:n], nil
}
