package campaign

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSchemaDigests(t *testing.T) {
	d := SchemaDigests()
	if len(d) != 5 {
		t.Fatalf("got %d schemas", len(d))
	}
	if !slices.IsSortedFunc(d, func(a, b SchemaDigest) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatal("digests not sorted")
	}
	for _, x := range d {
		if len(x.SHA256) != 64 || strings.ToLower(x.SHA256) != x.SHA256 {
			t.Fatalf("bad digest %+v", x)
		}
	}
	if ResponseSchemaSHA256() != d[3].SHA256 || d[3].Name != SchemaResponse {
		t.Fatal("response digest mismatch")
	}
}

// TestSchemasMatchTypes checks that every object schema lists exactly the
// JSON members of its Go type, requires all of them (nullable ones
// included) and forbids additional properties.
func TestSchemasMatchTypes(t *testing.T) {
	type pair struct {
		schema, def string
		typ         any
	}
	pairs := []pair{
		{SchemaResponse, "", Response{}},
		{SchemaResponse, "final", Final{}},
		{SchemaResponse, "claim", Claim{}},
		{SchemaResponse, "action", Action{}},
		{SchemaResponse, "verification", Verification{}},
		{SchemaResponse, "uncertainty", Uncertainty{}},
		{SchemaResponse, "exclusion", Exclusion{}},
		{SchemaResponse, "citation", Citation{}},
		{SchemaResponse, "reconciliation", Reconciliation{}},
		{SchemaResponse, "ledger_obligation", LedgerObligation{}},
		{SchemaResponse, "disposition", Disposition{}},
		{SchemaPacket, "", Packet{}},
		{SchemaPacket, "item", EvidenceItem{}},
		{SchemaTruth, "", Truth{}},
		{SchemaTruth, "obligation", TruthObligation{}},
		{SchemaManifest, "", Manifest{}},
		{SchemaManifest, "frozen_document", FrozenDocument{}},
		{SchemaManifest, "execution", Execution{}},
		{SchemaManifest, "price_card", PriceCard{}},
		{SchemaManifest, "prompts", PromptFiles{}},
		{SchemaManifest, "task", TaskEntry{}},
		{SchemaManifest, "run", Run{}},
		{SchemaManifest, "file", FileDigest{}},
		{SchemaReceipt, "", Receipt{}},
		{SchemaReceipt, "meter", Meter{}},
	}
	docs := map[string]map[string]any{}
	for _, n := range schemaNames {
		raw, err := SchemaBytes(n)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Fatalf("%s: not draft 2020-12", n)
		}
		docs[n] = m
	}
	for _, p := range pairs {
		obj := docs[p.schema]
		if p.def != "" {
			obj = obj["$defs"].(map[string]any)[p.def].(map[string]any)
		}
		var props, req []string
		for k := range obj["properties"].(map[string]any) {
			props = append(props, k)
		}
		for _, k := range obj["required"].([]any) {
			req = append(req, k.(string))
		}
		slices.Sort(props)
		slices.Sort(req)
		// A member whose Go tag says omitempty is the one kind of optional
		// member (a receipt's priced_modifiers, absent when the log
		// reports none): listed in properties, not required.
		var fields, required []string
		rt := reflect.TypeOf(p.typ)
		for i := 0; i < rt.NumField(); i++ {
			tag, opt, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			fields = append(fields, tag)
			if opt != "omitempty" {
				required = append(required, tag)
			}
		}
		slices.Sort(fields)
		slices.Sort(required)
		if !slices.Equal(props, fields) || !slices.Equal(req, required) {
			t.Errorf("%s#%s vs %s:\n props %v\n req   %v\n go    %v", p.schema, p.def, rt.Name(), props, req, fields)
		}
		if obj["additionalProperties"] != false {
			t.Errorf("%s#%s allows additional properties", p.schema, p.def)
		}
	}
}
