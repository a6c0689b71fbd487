// Package fastpath holds the switch that turns off the campaign package's
// fast accept path, so that tests can compare its results with the
// reference path (strict tree, santhosh-tekuri/jsonschema, typed decoding)
// byte for byte. It is internal to the module: users have no reason to set
// it, since both paths accept and refuse exactly the same files with the
// same refusals.
package fastpath

import "sync/atomic"

// ReferenceOnly, when true, makes every strict decoder of package campaign
// (DecodeManifest, DecodePacket, DecodeTruth, DecodeResponse,
// DecodeReceipt, and so Load) skip the fast accept path and run only the
// reference path. It is false in every production run.
var ReferenceOnly atomic.Bool
