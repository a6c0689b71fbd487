package main

import (
	"io/fs"

	"verdict/fixtures"
)

// The default campaign of `verdict check` is the embedded SYNTHETIC
// campaign of package fixtures (DESIGN "Defaults and embedded input").
func init() { embeddedCampaign = func() fs.FS { return fixtures.Campaign() } }
