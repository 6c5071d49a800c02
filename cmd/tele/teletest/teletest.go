// Package teletest is for tests only: the tele binary built once for a test process, and a free port for
// it to serve on. The CLI's tests and the end-to-end tests run the real binary with both.
package teletest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Builder builds the tele binary on first use and shares it with every later test of the process.
type Builder struct {
	dir   string
	flags []string
	once  sync.Once
	bin   string
	err   error
}

// NewBuilder is a Builder of the command in dir (cmd/tele, as a path from the test's package), built
// with go build and flags.
func NewBuilder(dir string, flags ...string) *Builder {
	return &Builder{dir: dir, flags: flags}
}

func (b *Builder) build() {
	tmp, err := os.MkdirTemp("", "tele-test-bin-")
	if err != nil {
		b.err = err
		return
	}
	bin := filepath.Join(tmp, "tele")
	args := append(append([]string{"build"}, b.flags...), "-o", bin, b.dir)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		b.err = fmt.Errorf("go build %s: %v\n%s", b.dir, err, out)
		return
	}
	b.bin = bin
}

// Binary returns the path of the built binary, building it the first time; a failed build fails t.
func (b *Builder) Binary(t testing.TB) string {
	t.Helper()
	b.once.Do(b.build)
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// Remove deletes the built binary, if a test built it; TestMain calls it once every test has run.
func (b *Builder) Remove() {
	b.once.Do(func() { b.err = errors.New("teletest: the binary was removed") })
	if b.bin != "" {
		os.RemoveAll(filepath.Dir(b.bin))
	}
}

// FreePort asks the kernel for a free loopback port. The port is free when it returns; the caller binds
// it soon after (tele serve refuses port 0 by design, so a test must pick one).
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
