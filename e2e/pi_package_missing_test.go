package e2e

// The Pi package without its platform package (issue 26, finding 12): npm leaves out the optional
// tele-pi-<platform>-<arch> on an unsupported platform or with --omit=optional. Before, Pi printed
// "Failed to load extension … Cannot find module 'tele-pi-linux-x64/bin/tele'" at every start and refused
// the --tele-* flags. Now the extension always loads; /tele says in one line what is missing and how to
// fix it, and a tele on PATH is used when there is one.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// piPackageWithoutBinary is tele-pi installed with npm --omit=optional, once per test process.
var piPackageWithoutBinary = sync.OnceValues(func() (string, error) {
	return installPiPackage("prefix-omit-optional", "--omit=optional")
})

func TestPiPackageWithoutItsBinary(t *testing.T) {
	requireTool(t, "make", "make")
	requireTool(t, "npm", "npm")
	forEachPi(t, func(t *testing.T, line piLine) {
		cli := requirePi(t, line)
		pkg, err := piPackageWithoutBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(pkg), "tele-pi-linux-x64")); !os.IsNotExist(err) {
			t.Fatalf("npm --omit=optional installed the platform package (%v)", err)
		}
		home := t.TempDir()
		agent := filepath.Join(home, "agent")
		const path = "/usr/bin:/bin" // no tele here
		if found, err := lookPathIn("tele", path); err == nil {
			t.Fatalf("a tele on %s (%s) would stand in for the missing package", path, found)
		}
		install := exec.Command(line.nodePath(), cli, "install", pkg)
		install.Dir = home
		install.Env = append(piEnv(home, agent, line), "PATH="+linePath(line, path))
		if b, err := install.CombinedOutput(); err != nil {
			t.Fatalf("pi install %s: %v\n%s", pkg, err, b)
		}

		p := newProbe(t, line, "pi-package-without-binary")
		defer p.finish()
		// StartPi passes --tele-port 0 --tele-data: Pi refuses flags no loaded extension registered.
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Path: path})
		p.step("loads-and-says-what-is-missing", func(t *testing.T) string {
			if s := p.pi.Stderr(); strings.Contains(s, "Failed to load extension") || strings.Contains(s, "Cannot find module") {
				t.Fatalf("Pi could not load the extension:\n%s", tail(s, 2000))
			}
			if n := teleCommands(p.pi); n != 1 {
				t.Fatalf("%d /tele commands, want 1", n)
			}
			from := p.pi.Mark()
			p.pi.Prompt("/tele " + board) // answered when the command's handler has returned
			msgs := p.pi.Notifies(from)
			if len(msgs) != 1 {
				t.Fatalf("notifies %q, want one", msgs)
			}
			msg := msgs[0]
			for _, want := range []string{"tele: ", "tele-pi-linux-x64", "--omit=optional", "no tele is on PATH", "reinstall the Pi package with its optional dependencies", "put tele on PATH"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the notify %q lacks %q", msg, want)
				}
			}
			if strings.Contains(msg, "\n") || inviteRe.MatchString(msg) {
				t.Errorf("the notify %q is not one line without a link", msg)
			}
			if errs := p.pi.ExtensionErrors(0); len(errs) > 0 {
				t.Errorf("extension errors: %v", errs)
			}
			if _, err := os.Stat(p.pi.DataDir); !os.IsNotExist(err) {
				t.Errorf("the data directory was created (err %v)", err)
			}
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			return "npm --omit=optional: the extension loads, --tele-* flags accepted, /tele: " + msg
		})

		// A tele on PATH stands in for the missing package.
		bin, built := t.TempDir(), p.teleBin
		if err := os.Symlink(built, filepath.Join(bin, "tele")); err != nil {
			t.Fatal(err)
		}
		p.teleBin = "tele" // the bridge starts it by name
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Path: bin + ":" + path})
		p.step("tele-on-path", func(t *testing.T) string {
			c := p.connect(t) // one tele host child of Pi
			if exe, err := os.Readlink("/proc/" + strconv.Itoa(c.hostPID) + "/exe"); err == nil && exe != built {
				t.Errorf("the host runs %s, want the tele on PATH (%s)", exe, built)
			}
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitExit(t, c.hostPID, 10*time.Second, "the host to exit")
			return "without the platform package, /tele demo ran the tele on PATH"
		})
	})
}
