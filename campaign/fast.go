package campaign

import (
	"reflect"
	"sync"

	"verdict/campaign/internal/fastaccept"
)

var (
	fastOnce    sync.Once
	fastSchemas map[string]*fastaccept.Schema // schema name → program; absent when fastaccept.Compile refused it
	fastErrs    map[string]error              // schema name → why fastaccept.Compile refused it
)

// loadFastSchemas compiles every embedded schema for the fast accept
// pass once.
func loadFastSchemas() {
	fastOnce.Do(func() {
		fastSchemas, fastErrs = map[string]*fastaccept.Schema{}, map[string]error{}
		for _, name := range schemaNames {
			raw, err := schemaFS.ReadFile("schemas/" + name)
			if err == nil {
				var s *fastaccept.Schema
				if s, err = fastaccept.Compile(raw, MaxDepth); err == nil {
					fastSchemas[name] = s
					continue
				}
			}
			fastErrs[name] = err
		}
	})
}

// fastDecode runs the fast accept pass of the named schema over data and
// fills dst (a settable zero value of the record type): in the same pass
// when the record type binds to the schema, else by the reference path's
// typed decoding after the pass. It reports whether the pass accepted;
// when false, dst may be partly filled and the caller zeroes it.
func fastDecode(data []byte, schema string, dst reflect.Value) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	if s == nil {
		return false
	}
	accepted, filled := s.Decode(data, dst)
	if accepted && !filled {
		return typedDecode(data, dst.Addr().Interface()) == nil
	}
	return accepted
}
