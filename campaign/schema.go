package campaign

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"verdict/verr"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The embedded, reviewed JSON Schemas (draft 2020-12), one per file kind.
//
//go:embed schemas/*.json
var schemaFS embed.FS

// Schema names: the file name of each embedded schema under schemas/.
const (
	SchemaManifest = "manifest.json"
	SchemaPacket   = "packet.json"
	SchemaTruth    = "truth.json"
	SchemaResponse = "response.json"
	SchemaReceipt  = "receipt.json"
)

// schemaNames lists the embedded schemas of the fixed-evidence design in
// sorted order (SchemaDigests reports these).
var schemaNames = []string{SchemaManifest, SchemaPacket, SchemaReceipt, SchemaResponse, SchemaTruth}

// Schema names of the system-comparison design (CONTRACT §6).
const (
	SchemaSystemManifest    = "system-manifest.json"
	SchemaSystemTruth       = "system-truth.json"
	SchemaSystemReceipt     = "system-receipt.json"
	SchemaObservationLog    = "observation-log.json"
	SchemaObservationPacket = "observation-packet.json"
	SchemaSetup             = "setup.json"
)

// systemSchemaNames lists the system-comparison schemas in sorted order
// (SystemSchemaDigests reports these). They refer to $defs of the
// fixed-evidence schemas, so every schema compiles in one compiler.
var systemSchemaNames = []string{SchemaObservationLog, SchemaObservationPacket, SchemaSetup, SchemaSystemManifest, SchemaSystemReceipt, SchemaSystemTruth}

// SchemaDigest is the identity of one embedded JSON Schema: its file name
// (e.g. "response.json") and the SHA-256 of its exact bytes, 64 lowercase
// hex digits. `verdict check` prints these; the manifest binds the response
// schema's digest (PROMPTS.md "Exact response contract").
type SchemaDigest struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

type compiledSchemas struct {
	byName  map[string]*jsonschema.Schema
	digests []SchemaDigest
	// systemDigests are the system-comparison schemas' digests.
	systemDigests []SchemaDigest
	err           error
}

var (
	schemasOnce sync.Once
	schemas     compiledSchemas
)

// loadSchemas compiles every embedded schema once.
func loadSchemas() *compiledSchemas {
	schemasOnce.Do(func() {
		schemas.byName = map[string]*jsonschema.Schema{}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		all := slices.Concat(schemaNames, systemSchemaNames)
		for i, name := range all {
			raw, err := schemaFS.ReadFile("schemas/" + name)
			if err != nil {
				schemas.err = err
				return
			}
			sum := sha256.Sum256(raw)
			d := SchemaDigest{Name: name, SHA256: hex.EncodeToString(sum[:])}
			if i < len(schemaNames) {
				schemas.digests = append(schemas.digests, d)
			} else {
				schemas.systemDigests = append(schemas.systemDigests, d)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				schemas.err = fmt.Errorf("schema %s: %w", name, err)
				return
			}
			if err := c.AddResource(schemaURL(name), doc); err != nil {
				schemas.err = fmt.Errorf("schema %s: %w", name, err)
				return
			}
		}
		for _, name := range all {
			s, err := c.Compile(schemaURL(name))
			if err != nil {
				schemas.err = fmt.Errorf("schema %s: %w", name, err)
				return
			}
			schemas.byName[name] = s
		}
	})
	return &schemas
}

func schemaURL(name string) string { return "https://verdict.invalid/schemas/741-v1.0/" + name }

// SchemaDigests returns the name and SHA-256 of every embedded JSON Schema,
// sorted by name. It panics only if the embedded schemas are broken, which
// the package tests rule out.
func SchemaDigests() []SchemaDigest {
	s := loadSchemas()
	if s.err != nil {
		panic(s.err)
	}
	return slices.Clone(s.digests)
}

// SystemSchemaDigests returns the name and SHA-256 of every embedded
// system-comparison schema (CONTRACT §6), sorted by name; it panics only if
// the embedded schemas are broken, which the package tests rule out.
func SystemSchemaDigests() []SchemaDigest {
	s := loadSchemas()
	if s.err != nil {
		panic(s.err)
	}
	return slices.Clone(s.systemDigests)
}

// ResponseSchemaSHA256 returns the SHA-256 (64 lowercase hex digits) of the
// embedded response schema, which a manifest must bind in
// response_schema_sha256 (PROMPTS.md "Exact response contract").
func ResponseSchemaSHA256() string {
	for _, d := range SchemaDigests() {
		if d.Name == SchemaResponse {
			return d.SHA256
		}
	}
	panic("campaign: response schema missing")
}

// SchemaBytes returns the exact bytes of one embedded schema by name
// (e.g. SchemaResponse), or an error when no such schema exists.
func SchemaBytes(name string) ([]byte, error) { return schemaFS.ReadFile("schemas/" + name) }

// validateSchema validates tree against the named schema and maps the
// first failing leaf (sorted by pointer, then reason) to a *Error.
func validateSchema(name string, tree any, file string) *verr.Error {
	s := loadSchemas()
	if s.err != nil {
		return &verr.Error{Reason: ReasonSchema, File: file, Rule: RuleStrictJSON, Detail: s.err.Error(), Err: s.err}
	}
	err := s.byName[name].Validate(tree)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &verr.Error{Reason: ReasonSchema, File: file, Rule: RuleStrictJSON, Detail: err.Error(), Err: err}
	}
	var leaves []*verr.Error
	var walk func(v *jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			leaves = append(leaves, mapSchemaError(v, file, name))
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortFunc(leaves, func(a, b *verr.Error) int {
		if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(string(a.Reason), string(b.Reason))
	})
	return leaves[0]
}

// comparePointers orders JSON pointers token by token, numeric tokens by value.
func comparePointers(a, b string) int {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		if at[i] == bt[i] {
			continue
		}
		ai, aerr := strconv.Atoi(at[i])
		bi, berr := strconv.Atoi(bt[i])
		if aerr == nil && berr == nil {
			if ai < bi {
				return -1
			}
			return 1
		}
		return strings.Compare(at[i], bt[i])
	}
	return len(at) - len(bt)
}

// defName returns the $defs entry a schema location points into, or "".
func defName(schemaURL string) string {
	_, frag, ok := strings.Cut(schemaURL, "#/$defs/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(frag, "/")
	return name
}

// schemaPrinter renders the schema library's error kinds in English
// (ErrorKind.LocalizedString), never as Go values.
var schemaPrinter = message.NewPrinter(language.English)

// jsonValueText names a decoded JSON value in a refusal: a string quoted
// with every control, format or non-printable character escaped
// (strconv.Quote), so that it cannot act on a terminal; an object or an
// array by its kind; any other value as JSON writes it.
func jsonValueText(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case nil:
		return "null"
	}
	return strconv.Quote(fmt.Sprint(v))
}

// notAllowed is the detail of an enum or const refusal: the value given
// (jsonValueText) and the values allowed.
func notAllowed(got any, k jsonschema.ErrorKind, schema string) string {
	return fmt.Sprintf("%s is not allowed: %s (schema %s)", jsonValueText(got), k.LocalizedString(schemaPrinter), schema)
}

// mapSchemaError turns one leaf schema error into a typed refusal. The
// reason follows the keyword and, for pattern/length/minimum, the $defs
// entry that failed (IDs, paths, texts, lines, digests, times).
func mapSchemaError(v *jsonschema.ValidationError, file, schema string) *verr.Error {
	p := ""
	for _, t := range v.InstanceLocation {
		p += "/" + pointerEscape(t)
	}
	def := defName(v.SchemaURL)
	rule := map[string]string{SchemaResponse: RuleResponseContract, SchemaManifest: RuleManifest,
		SchemaPacket: RulePacket, SchemaTruth: RuleTruth, SchemaReceipt: RuleReceipt,
		SchemaSystemManifest: RuleSystemManifest, SchemaSystemTruth: RuleSystemTruth, SchemaSystemReceipt: RuleReceipt,
		SchemaObservationLog: RulePacketProc, SchemaObservationPacket: RulePacketProc, SchemaSetup: RuleSetup}[schema]
	e := verr.Newf(ReasonSchema, file, p, rule, "%s (schema %s)", v.ErrorKind.LocalizedString(schemaPrinter), schema)
	switch k := v.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		props := slices.Sorted(slices.Values(k.Properties))
		e.Reason, e.Pointer = ReasonUnknownKey, ptr(p, props[0])
		e.Detail = fmt.Sprintf("unknown member %q", props[0])
	case *kind.Required:
		miss := slices.Sorted(slices.Values(k.Missing))
		e.Reason, e.Pointer = ReasonMissingKey, ptr(p, miss[0])
		e.Detail = fmt.Sprintf("required member %q is missing (nullable members must be present as null)", miss[0])
	case *kind.Type:
		e.Reason = ReasonWrongType
		e.Detail = fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	case *kind.Enum:
		e.Reason, e.Detail = ReasonEnum, notAllowed(k.Got, k, schema)
	case *kind.Const:
		e.Reason, e.Detail = ReasonEnum, notAllowed(k.Got, k, schema)
	case *kind.MaxItems:
		e.Reason = ReasonArrayTooLong
		e.Detail = fmt.Sprintf("array holds %d records, maximum %d", k.Got, k.Want)
	case *kind.MinItems:
		e.Reason = ReasonArrayTooShort
		e.Detail = fmt.Sprintf("array holds %d records, minimum %d", k.Got, k.Want)
	case *kind.UniqueItems:
		e.Reason, e.Pointer = ReasonRepeatedString, ptr(p, k.Duplicates[1])
		e.Detail = fmt.Sprintf("items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.Pattern:
		e.Detail = fmt.Sprintf("%q does not match %s", k.Got, k.Want)
		switch {
		case strings.HasSuffix(def, "_id") || def == "id_ref":
			e.Reason = ReasonIDGrammar
		case def == "path":
			e.Reason = ReasonPath
		case def == "sha256" || def == "nullable_sha256" || def == "commit":
			e.Reason = ReasonDigestFormat
		case def == "utc_time" || def == "nullable_utc_time":
			e.Reason = ReasonTimeFormat
		}
	case *kind.MinLength:
		switch def {
		case "text", "nullable_text", "name":
			e.Reason, e.Detail = ReasonTextEmpty, "text is empty"
		case "path":
			e.Reason, e.Detail = ReasonPath, "path is empty"
		}
	case *kind.MaxLength:
		if def == "text" || def == "nullable_text" || def == "name" {
			e.Reason = ReasonTextTooLong
			e.Detail = fmt.Sprintf("text has %d Unicode scalar values, maximum %d", k.Got, k.Want)
		}
	case *kind.Minimum:
		switch {
		case def == "line":
			e.Reason, e.Detail = ReasonLineNotPositive, fmt.Sprintf("line %s is not positive", k.Got.RatString())
		case strings.HasSuffix(p, "/repetition"):
			e.Reason, e.Detail = ReasonRepetition, fmt.Sprintf("repetition %s is below 1", k.Got.RatString())
		default:
			e.Reason = ReasonOutOfRange
		}
	}
	return e
}
