//go:build unix

package main

import (
	"os"
	"syscall"
)

// mkfifo makes a named pipe at path (the regular-file tests feed one).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// feedFIFO opens the FIFO at path for writing without blocking and closes
// it, so that a reader blocked on it sees end of file.
func feedFIFO(path string) func() {
	return func() {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
}
