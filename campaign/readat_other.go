//go:build !linux

package campaign

import "os"

// readAt always declines outside Linux: RootFS then reads every file
// through os.Root.
func readAt(dir *os.File, rel string, buf []byte, name string, kind FileKind) ([]byte, bool, error) {
	return nil, false, nil
}

// readDirAt always declines outside Linux: RootFS then lists every
// directory through os.Root.
func readDirAt(dir *os.File, rel string) ([]dirEnt, bool) { return nil, false }
