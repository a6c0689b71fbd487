package main

import "verdict/blinding"

// syntheticNotice is the "notice" member of a command's JSON output:
// blinding.SyntheticNotice when the campaign (or the bundle or sheet made
// from it) is synthetic, else "" (the member is then omitted). Every
// command's JSON report declares it as its first member so a reader sees
// the SYNTHETIC label first (DESIGN "Defaults and embedded campaign").
func syntheticNotice(synthetic bool) string {
	if synthetic {
		return blinding.SyntheticNotice
	}
	return ""
}
