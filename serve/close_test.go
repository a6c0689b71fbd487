package serve_test

import (
	"net"
	"path/filepath"
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/serve"
)

// TestCloseRightAfterServe starts Serve on a real listener and closes
// the server at once, before any connection, many times: Serve must
// return (and the listener be closed) every time, however the two
// goroutines interleave. A Close that lands before Serve has registered
// its listener used to leave Serve blocked in Accept for ever.
func TestCloseRightAfterServe(t *testing.T) {
	dir := writeRatingsDir(t)
	layout, err := serve.CheckServedDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	as, err := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	hk, _, err := serve.HostKey(filepath.Join(filepath.Dir(dir), "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 200
	for i := range rounds {
		srv, err := serve.New(serve.Config{Layout: layout, Allowed: as, HostKey: hk})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		if err := srv.Close(); err != nil {
			t.Fatalf("round %d: Close: %v", i, err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: Serve after Close returned %v, want nil", i, err)
			}
		case <-time.After(5 * time.Second):
			ln.Close()
			<-done
			t.Fatalf("round %d: Serve did not return after Close", i)
		}
		// The listener is closed: its port takes no connection.
		if c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
			c.Close()
			t.Fatalf("round %d: listener still accepts after Close", i)
		}
	}
}
