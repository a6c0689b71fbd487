// Package fsutil owns the two file-system operations verdict needs on every
// platform it builds for (Linux, macOS, Windows): an exclusive lock beside a
// file that only one writer may append to (github.com/gofrs/flock), and
// atomic replacement of a file, so that a crash leaves either the old bytes
// or the new bytes, never a mixture (github.com/google/renameio/v2 on Unix;
// a temporary file in the same directory, flushed and renamed over the
// target, on Windows).
package fsutil
