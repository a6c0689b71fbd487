package fsutil

import (
	"bufio"
	"io"
	"io/fs"
)

// WriteFile replaces the file at path with data atomically: a reader sees
// the old bytes or all of data, and a crash leaves one or the other. The
// file gets mode perm (on Unix; Windows keeps only its read-only bit).
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return WriteWith(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith streams the new contents of path from write into a temporary
// file in the same directory and, only if write returns nil, flushes it to
// disk and renames it over path. On an error the temporary file is removed
// and path is untouched.
func WriteWith(path string, perm fs.FileMode, write func(io.Writer) error) error {
	t, err := newPending(path, perm)
	if err != nil {
		return err
	}
	defer t.cleanup()
	bw := bufio.NewWriterSize(t.file(), 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return t.commit()
}
