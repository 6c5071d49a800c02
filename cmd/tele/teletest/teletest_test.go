package teletest

import (
	"fmt"
	"net"
	"testing"
)

// TestRemoveUnbuilt: a process whose tests never needed the binary does not build it to remove it.
func TestRemoveUnbuilt(t *testing.T) {
	b := NewBuilder("./no-such-command")
	b.Remove()
	if b.bin != "" || b.err == nil {
		t.Fatalf("Remove built: bin %q, err %v", b.bin, b.err)
	}
}

func TestFreePort(t *testing.T) {
	port := FreePort(t)
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatalf("port %d is not free: %v", port, err)
	}
	ln.Close()
}
