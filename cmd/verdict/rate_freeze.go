package main

import "verdict/tui"

// wireFreeze sets in.Freeze and in.Signer from the rater's key. Signing is
// not available in this build yet, so Freeze stays nil and the freeze
// screen refuses.
func wireFreeze(in *tui.RateInput, bundle string, f rateFlags) error { return nil }
