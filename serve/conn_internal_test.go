package serve

import (
	"net"
	"testing"
)

// remoteConn is a net.Conn that only has a remote address.
type remoteConn struct {
	net.Conn
	addr string
}

func (c remoteConn) RemoteAddr() net.Addr { a, _ := net.ResolveTCPAddr("tcp", c.addr); return a }

// TestHostOf: the per-host limit counts an IPv4 address (mapped or not)
// as one host and an IPv6 address by its /64 network.
func TestHostOf(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.7:40000", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:40000", "192.0.2.7"},
		{"[2001:db8:1:2:aaaa::1]:40000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:bbbb::9]:41000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:40000", "2001:db8:1:3::/64"},
	} {
		if got := hostOf(remoteConn{addr: c.addr}); got != c.want {
			t.Errorf("hostOf(%s) = %s, want %s", c.addr, got, c.want)
		}
	}
}
