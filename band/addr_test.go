package band

import (
	"net/netip"
	"testing"
)

// TestParseAddr: an IPv4 address of one machine and a port from 1 to 65535, written one way.
func TestParseAddr(t *testing.T) {
	good := map[string]string{"192.168.1.20:4318": "192.168.1.20:4318", "127.0.0.2:1": "127.0.0.2:1", "10.0.0.1:65535": "10.0.0.1:65535"}
	for in, want := range good {
		if ap, err := ParseAddr(in); err != nil || ap.String() != want {
			t.Errorf("ParseAddr(%q) = %v, %v", in, ap, err)
		}
	}
	for _, in := range []string{"", "x", "192.168.1.20", ":4318", "0.0.0.0:4318", "255.255.255.255:1", "224.0.0.1:1",
		"[::1]:4318", "[::ffff:192.168.1.20]:4318", "host:4318", "192.168.1.20:0", "192.168.1.20:65536", "192.168.1.20:04318",
		"192.168.1.20:+1", "192.168.01.20:4318"} {
		if ap, err := ParseAddr(in); err == nil {
			t.Errorf("ParseAddr(%q) = %v, want an error", in, ap)
		}
	}
}

// FuzzParseAddr: whatever comes in, an accepted address is IPv4, one machine's, with a port, and
// written back as it came.
func FuzzParseAddr(f *testing.F) {
	for _, s := range []string{"192.168.1.20:4318", "0.0.0.0:1", "[::1]:2", "a:b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ap, err := ParseAddr(s)
		if err != nil {
			return
		}
		if !ap.Addr().Is4() || ap.Addr().IsUnspecified() || ap.Port() == 0 || ap.String() != s {
			t.Fatalf("ParseAddr(%q) accepted %v", s, ap)
		}
		if _, err := netip.ParseAddrPort(s); err != nil {
			t.Fatalf("ParseAddr(%q) accepted what netip refuses: %v", s, err)
		}
	})
}
