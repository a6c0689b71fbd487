package adjudication_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/verr"
)

// TestGradesFileUnknownKindListsKinds: a grades file whose grade names a
// kind outside the GRADES vocabulary is refused (malformed-grades) with the
// 0-based JSON pointer, the 1-based grade position and every valid kind;
// CheckGrade's refusal of an unknown kind lists them too.
func TestGradesFileUnknownKindListsKinds(t *testing.T) {
	data := `[{"item":"I1","kind":"claim","target":"C1","value":"supported"},{"item":"I1","kind":"support","target":"C1","value":"supported"}]`
	_, err := adjudication.DecodeGradesFile("g.json", []byte(data))
	var ce *verr.Error
	if !errors.As(err, &ce) || !errors.Is(err, adjudication.ReasonMalformedGrades) || ce.Pointer != "/1/kind" {
		t.Fatalf("%v, want malformed-grades at /1/kind", err)
	}
	for _, want := range []string{"grade 2:", `"support"`, adjudication.KindList()} {
		if !strings.Contains(ce.Detail, want) {
			t.Errorf("detail %q lacks %q", ce.Detail, want)
		}
	}
	for _, k := range adjudication.Kinds {
		if !strings.Contains(adjudication.KindList(), string(k)) {
			t.Errorf("KindList lacks %s", k)
		}
	}
	b := testBundles(t).Bundles[0]
	g := adjudication.Grade{Field: adjudication.Field{Item: b.Items[0].ID, Kind: "support", Target: "C1"}, Value: "supported"}
	if err := adjudication.CheckGrade(b, g); !errors.Is(err, adjudication.ReasonUnknownField) || !strings.Contains(err.Error(), "valid kinds: "+adjudication.KindList()) {
		t.Errorf("CheckGrade: %v", err)
	}
}

// TestGradesFilePositionsOneBased: refusal details name the grade by its
// 1-based position while the JSON pointer keeps the 0-based index.
func TestGradesFilePositionsOneBased(t *testing.T) {
	for _, c := range []struct{ data, pointer, detail string }{
		{`[{"item":"I1","kind":"claim","target":"C1","value":"supported","spent_ms":-1}]`, "/0/spent_ms", "grade 1:"},
		{`[{"item":"I1","kind":"claim","target":"C1","value":"supported"},{"item":"I1","kind":"claim","target":"C2","value":"x","extra":1}]`, "/1/extra", "grade 2:"},
	} {
		_, err := adjudication.DecodeGradesFile("g.json", []byte(c.data))
		var ce *verr.Error
		if !errors.As(err, &ce) || ce.Pointer != c.pointer || !strings.HasPrefix(ce.Detail, c.detail) {
			t.Errorf("%v, want pointer %s and detail starting %q", err, c.pointer, c.detail)
		}
	}
}

// TestTemplateDecodesAndCoversBundle: Template lists every required field
// of the bundle in bundle order with empty values, and the template (as
// written by `verdict grade --template`) decodes as a grades file.
func TestTemplateDecodesAndCoversBundle(t *testing.T) {
	b := testBundles(t).Bundles[0]
	tpl := adjudication.Template(b)
	fs := adjudication.BundleFields(b)
	if len(tpl) != len(fs) || len(tpl) == 0 {
		t.Fatalf("template has %d entries, bundle %d fields", len(tpl), len(fs))
	}
	for i, g := range tpl {
		if g.Grade().Field != fs[i] || g.Value != "" || g.Note != "" || g.SpentMS != 0 {
			t.Fatalf("entry %d = %+v, want %v with empty value", i, g, fs[i])
		}
	}
	data, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	back, err := adjudication.DecodeGradesFile("t.json", data)
	if err != nil || len(back) != len(tpl) {
		t.Fatalf("template does not decode: %v", err)
	}
}
