//go:build !unix

package campaign_test

// cpuTime is not measured on this system.
func cpuTime() int64 { return -1 }
