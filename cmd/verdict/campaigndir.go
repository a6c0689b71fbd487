package main

import (
	"io/fs"
	"os"

	"verdict/campaign"
)

// campaignFS opens the campaign directory dir confined to it: every path is
// resolved by os.Root, so a symbolic link (or "..") that leads outside dir
// cannot be read and campaign.Load refuses that file with
// campaign.ReasonOutsideCampaign. When dir cannot be opened, the returned
// file system fails every open with that error (Load then reports the
// manifest as unreadable). The root stays open for the life of the process
// (os.Root closes itself when it is collected). campaign.RootFS reads the
// many files under responses/ and receipts/ with fewer system calls, with
// the same confinement.
func campaignFS(dir string) fs.FS {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return failingFS{err}
	}
	return campaign.RootFS(root)
}

// failingFS is a file system whose every open fails with err.
type failingFS struct{ err error }

// Open returns the error the campaign directory failed to open with.
func (f failingFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
}
