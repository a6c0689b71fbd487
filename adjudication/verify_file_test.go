package adjudication_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"verdict/adjudication"
)

// TestVerifyRecordFileIsVerifyRecord checks that streaming a record from
// its file gives exactly VerifyRecord's check on the same bytes: the
// chain's records, and signed records that are not canonical, not JSON,
// of an unknown or differently cased format, or with a changed byte.
func TestVerifyRecordFileIsVerifyRecord(t *testing.T) {
	c := buildChain(t)
	as := allowedSigners(t)
	ann := key(t, "rater-ann")
	signed := func(name string, data []byte) adjudication.RecordFile {
		sig, err := adjudication.SignBytes(data, ann, adjudication.NamespaceRating)
		if err != nil {
			t.Fatal(err)
		}
		return adjudication.RecordFile{Name: name, Data: data, Sig: sig}
	}
	sheet := c.sheets[0].Data
	files := append(c.files(),
		signed("reformatted", bytes.ReplaceAll(sheet, []byte("\n  "), []byte("\n   "))),
		signed("not-json", append(bytes.Clone(sheet), '}')),
		signed("trailing", append(bytes.Clone(sheet), []byte("{}")...)),
		signed("upper-format", bytes.Replace(sheet, []byte(`"format"`), []byte(`"FORMAT"`), 1)),
		signed("unknown-member", bytes.Replace(sheet, []byte(`"format"`), []byte(`"extra": 1, "format"`), 1)),
		signed("array-format", bytes.Replace(sheet, []byte(`"format": "`+adjudication.SheetFormat+`"`), []byte(`"format": []`), 1)),
		signed("no-object", []byte(`[1, 2]`)),
		signed("empty", nil),
	)
	changed := c.sheets[1]
	changed.Name = "changed"
	changed.Data = bytes.Replace(bytes.Clone(changed.Data), []byte(`"value": "`), []byte(`"value": "X`), 1)
	unsigned := c.adj
	unsigned.Name, unsigned.Sig = "unsigned", nil
	files = append(files, changed, unsigned)
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		if err := os.WriteFile(path, f.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		f.Name = path
		want := adjudication.VerifyRecord(as, f)
		got := adjudication.VerifyRecordFile(as, path, f.Sig)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: streamed check\n%+v\nwant\n%+v", f.Name, got, want)
		}
	}
	// The chain still verifies through CrossCheck.
	var checks []adjudication.Check
	for _, f := range c.files() {
		path := filepath.Join(dir, f.Name)
		checks = append(checks, adjudication.VerifyRecordFile(as, path, f.Sig))
	}
	for _, ch := range adjudication.CrossCheck(checks, c.bundles()) {
		if !ch.OK {
			t.Errorf("%s: %s: %s", ch.File, ch.Reason, ch.Detail)
		}
	}
}
