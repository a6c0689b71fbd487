package adjudication

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"verdict/blinding"
)

// gradesSheet is a canonical sheet holding grades.
func gradesSheet(t *testing.T, grades []Grade) []byte {
	t.Helper()
	s := Sheet{Format: SheetFormat, Signer: Signer{Name: "ann", Role: "rater"}, TimeUTC: "2026-01-01T00:00:00Z",
		Grades: grades, ItemTimes: []ItemTime{{Item: "item-1", SpentMS: 5}}}
	data, err := blinding.MarshalCanonical(&s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// defaultSheet decodes data as parseSheet does, without the direct
// reading of the grades array (the default decoding only).
func defaultSheet(file string, data []byte) (*Sheet, error) {
	return parseKind[Sheet](file, func(v any) error { return blinding.UnmarshalStrict(file, data, v) }, SheetFormat)
}

// TestSheetGradesReadDirectly: a canonical sheet's grades are read
// straight from its bytes (canonicalGrades takes the array) when every
// string is plain, and parseSheet gives the default decoding's sheet, or
// its refusal word for word, for canonical sheets with and without notes,
// notes with escapes or other scripts, no grades, and for bytes edited
// into another layout, an unknown or missing member, a duplicate member,
// a number where a string stands and invalid UTF-8.
func TestSheetGradesReadDirectly(t *testing.T) {
	plain := []Grade{
		{Field: Field{Item: "item-1", Kind: KindObligation, Target: "O1"}, Value: "addressed"},
		{Field: Field{Item: "item-1", Kind: KindObligation, Target: "O2"}, Value: "missed", Note: "left out <the> & part"},
		{Field: Field{Item: "item-2", Kind: KindObligation, Target: "O1"}, Value: "addressed"},
	}
	escaped := append(append([]Grade(nil), plain...), Grade{Field: Field{Item: "item-3", Kind: KindObligation, Target: "O1"}, Value: "missed", Note: "a \"quoted\"\nline"})
	unicode := append(append([]Grade(nil), plain...), Grade{Field: Field{Item: "item-3", Kind: KindObligation, Target: "O1"}, Value: "missed", Note: "schön \u2028"})
	cases := []struct {
		name   string
		data   []byte
		direct bool // the array is read directly
	}{
		{"plain", gradesSheet(t, plain), true},
		{"empty", gradesSheet(t, []Grade{}), true},
		{"nil grades", gradesSheet(t, nil), false},
		{"escaped note", gradesSheet(t, escaped), false},
		{"unicode note", gradesSheet(t, unicode), false},
	}
	base := gradesSheet(t, plain)
	edit := func(name, old, new string, direct bool) {
		if !bytes.Contains(base, []byte(old)) {
			t.Fatalf("%s: %q not in the sheet", name, old)
		}
		cases = append(cases, struct {
			name   string
			data   []byte
			direct bool
		}{name, bytes.Replace(base, []byte(old), []byte(new), 1), direct})
	}
	edit("member order", `"kind": "obligation",`+"\n      "+`"target": "O1"`, `"target": "O1",`+"\n      "+`"kind": "obligation"`, false)
	edit("unknown member", `"value": "addressed"`, `"value": "addressed",`+"\n      "+`"extra": "x"`, false)
	edit("missing member", `"target": "O1",`+"\n      ", ``, false)
	edit("duplicate member", `"value": "addressed"`, `"value": "addressed",`+"\n      "+`"value": "missed"`, false)
	edit("number", `"target": "O1"`, `"target": 1`, false)
	edit("layout", `"item": "item-2"`, `"item":  "item-2"`, false)
	edit("invalid UTF-8", `"item": "item-2"`, "\"item\": \"item-\xff\"", false)
	edit("empty note", `"note": "left out <the> & part"`, `"note": ""`, false)
	edit("escape", `"item": "item-2"`, `"item": "item-\u0032"`, false)
	edit("space after the array", "\n  ]", "\n  ] ", true)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			at := bytes.Index(c.data, []byte(`"grades"`)) + len(`"grades"`)
			_, _, direct := canonicalGrades(c.data[at:])
			if direct != c.direct {
				t.Errorf("read directly: %v, want %v", direct, c.direct)
			}
			got, gotErr := parseSheet("sheet.json", c.data)
			want, wantErr := defaultSheet("sheet.json", c.data)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("refusal %v, default decoding %v", gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sheet %+v, default decoding %+v", got, want)
			}
		})
	}
}

// TestSheetGradesManyItems: a sheet of many grades is read directly into
// the default decoding's grades, each repeated string held once.
func TestSheetGradesManyItems(t *testing.T) {
	var grades []Grade
	for i := range 500 {
		for _, tg := range []string{"O1", "O2", "O3"} {
			grades = append(grades, Grade{Field: Field{Item: fmt.Sprintf("item-%03d", i), Kind: KindObligation, Target: tg}, Value: "addressed"})
		}
	}
	data := gradesSheet(t, grades)
	got, err := parseSheet("sheet.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := defaultSheet("sheet.json", data)
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the grades read directly differ from the default decoding")
	}
	if !strings.Contains(string(data), `"item": "item-499"`) || len(got.Grades) != 1500 {
		t.Fatalf("%d grades", len(got.Grades))
	}
}

// TestSpliceSheetIsWholeDecoding: a sheet read with its grades array
// spliced out (spliceSheet) is the sheet the whole decoding gives, and
// every sheet the splice does not take is decoded whole, with the whole
// decoding's refusal word for word: bytes edited outside the grades array
// (the header, item_times, after the object), a second grades member, a
// grades member nested in another member at the top level's indentation,
// and an array in the canonical layout followed by a space. The head
// VerifyRecord reads from the spliced bytes is the one of the whole bytes.
func TestSpliceSheetIsWholeDecoding(t *testing.T) {
	plain := []Grade{
		{Field: Field{Item: "item-1", Kind: KindObligation, Target: "O1"}, Value: "addressed"},
		{Field: Field{Item: "item-1", Kind: KindObligation, Target: "O2"}, Value: "missed", Note: "left out"},
	}
	base := gradesSheet(t, plain)
	nested := bytes.Replace(base, []byte(`"signer": {`), []byte(`"signer": {`+"\n  "+`"grades": []`+",\n    "), 1)
	cases := []struct {
		name    string
		data    []byte
		spliced bool
	}{
		{"canonical", base, true},
		{"no grades", gradesSheet(t, []Grade{}), true},
		{"header layout", bytes.Replace(base, []byte(`"format": `), []byte(`"format":  `), 1), false},
		{"header unknown member", bytes.Replace(base, []byte(`"format": `), []byte(`"extra": 1,`+"\n  "+`"format": `), 1), false},
		{"item_times edited", bytes.Replace(base, []byte(`"spent_ms": 5`), []byte(`"spent_ms": 05`), 1), false},
		{"item_times negative", bytes.Replace(base, []byte(`"spent_ms": 5`), []byte(`"spent_ms": -5`), 1), true},
		{"second grades member", bytes.Replace(base, []byte("\n}\n"), []byte(",\n  \"grades\": []\n}\n"), 1), false},
		{"grades nested in signer", nested, false},
		{"trailing data", append(bytes.Clone(base), "{}"...), false},
		{"space after the array", bytes.Replace(base, []byte("\n  ]"), []byte("\n  ] "), 1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, rest, ok := spliceSheet("sheet.json", c.data)
			if ok != c.spliced {
				t.Fatalf("spliced %v, want %v", ok, c.spliced)
			}
			whole, wholeErr := parseSheetWhole("sheet.json", c.data)
			got, gotErr := parseSheet("sheet.json", c.data)
			if fmt.Sprint(gotErr) != fmt.Sprint(wholeErr) {
				t.Fatalf("refusal %v, whole decoding %v", gotErr, wholeErr)
			}
			if !reflect.DeepEqual(got, whole) {
				t.Fatalf("sheet %+v, whole decoding %+v", got, whole)
			}
			if !ok {
				return
			}
			if !reflect.DeepEqual(s, whole) {
				t.Fatalf("spliced sheet %+v, whole decoding %+v", s, whole)
			}
			type head struct {
				Format string `json:"format"`
				Signer Signer `json:"signer"`
			}
			var hs, hw head
			recordHead(rest, &hs)
			recordHead(c.data, &hw)
			if hs != hw || hs.Format != SheetFormat {
				t.Fatalf("head of the spliced bytes %+v, of the whole bytes %+v", hs, hw)
			}
		})
	}
}
