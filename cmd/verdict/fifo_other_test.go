//go:build !unix

package main

import "errors"

// mkfifo is not available here: the tests that need a named pipe skip.
func mkfifo(path string) error { return errors.ErrUnsupported }

// feedFIFO has no pipe to feed here.
func feedFIFO(path string) func() { return func() {} }
