package campaign

// NoOpenat2 lets tests take openat2 as missing, so that RootFS walks a
// path one component at a time (readat_linux.go).
var NoOpenat2 = &noOpenat2
