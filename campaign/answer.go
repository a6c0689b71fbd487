package campaign

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"verdict/verr"

	"github.com/go-json-experiment/json/jsontext"
)

// RuleLedgerSeparate names the rule that keeps a valid final answer when
// only B's reconciliation record is malformed.
const RuleLedgerSeparate = "CONTRACT §4: if final is valid but only B's reconciliation is malformed, score final semantics normally and set protocol_gate=false"

// DecodeAnswer decodes one session's raw answer bytes for role and decides
// the final answer and B's reconciliation record separately (CONTRACT §4).
//
// It returns (response, nil, nil) when DecodeResponse accepts the whole
// answer. For role review-b, when the whole answer is refused but
//   - the bytes are one JSON object with exactly the members "final" and
//     "reconciliation", each once (no byte order mark, no trailing data,
//     well-formed JSON), and
//   - the final object alone is valid (the same document with
//     reconciliation null decodes under the D/A contract),
//
// it returns the response with Reconciliation nil and the refusal of the
// reconciliation record as ledger (the first refusal of the whole answer,
// whose pointer lies under /reconciliation; a null record is
// ReasonReconciliationRole). The final answer is then scored normally and
// only that review's protocol gate fails. In every other case it returns
// nil, nil and the refusal of the whole answer (a valid scored failure,
// EVALUATOR-CONTROLS C16).
func DecodeAnswer(data []byte, file string, role Role) (resp *Response, ledger *verr.Error, err error) {
	return decoder{}.answer(data, file, role)
}

// answer is DecodeAnswer on d.
func (d decoder) answer(data []byte, file string, role Role) (resp *Response, ledger *verr.Error, err error) {
	resp, err = d.response(data, file, role)
	if err == nil || role != RoleReviewB {
		return resp, nil, err
	}
	var whole *verr.Error
	if !errors.As(err, &whole) {
		return nil, nil, err
	}
	final, ok := topLevelFinal(data)
	if !ok {
		return nil, nil, err
	}
	doc := make([]byte, 0, len(final)+40)
	doc = append(doc, `{"final":`...)
	doc = append(doc, final...)
	doc = append(doc, `,"reconciliation":null}`...)
	alone, ferr := d.response(doc, file, RoleReviewA)
	if ferr != nil {
		return nil, nil, err // the final answer itself is refused: the whole answer fails
	}
	ledger = whole
	ledger.Rule = RuleLedgerSeparate + "; " + whole.Rule
	return alone, ledger, nil
}

// topLevelFinal returns the raw bytes of the "final" member when data is
// one well-formed JSON object whose members are exactly "final" and
// "reconciliation", each once, with nothing before (no byte order mark)
// or after it. Duplicate names and invalid UTF-8 inside the members are
// left to the strict decoding of each member.
func topLevelFinal(data []byte) ([]byte, bool) {
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
		return nil, false
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	var names []string
	var final []byte
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		n := name.String() // the token is valid only until the next read
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if n != "final" && n != "reconciliation" || slices.Contains(names, n) {
			return nil, false
		}
		names = append(names, n)
		if n == "final" {
			final = bytes.Clone(v)
		}
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '}' || len(names) != 2 {
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	return final, true
}
