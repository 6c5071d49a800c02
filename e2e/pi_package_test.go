package e2e

// The Pi package (issue 10): `make pi-package` builds tele-pi (the bridge, found by Pi through the "pi" key
// of its package.json) and one package per platform holding the tele binary, its optional dependencies.
// npm installs it as it would from the registry (here from the packed tarballs, offline, for Linux x64),
// `pi install <path>` adds it to each Pi line, and /tele runs the packaged binary with no tele on PATH.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// piPackageRoot holds what builtPiPackage made; TestMain removes it.
var piPackageRoot string

// packedPiPackage runs `make pi-package` for linux/amd64 once per test process and packs its packages
// into tarballs, as they would be published; it returns the directory holding the packages' root (dist,
// tgz).
var packedPiPackage = sync.OnceValues(func() (string, error) {
	root, err := os.MkdirTemp("", "tele-e2e-pi-package-")
	if err != nil {
		return "", err
	}
	piPackageRoot = root
	if err := os.MkdirAll(filepath.Join(root, "tgz"), 0o755); err != nil {
		return "", err
	}
	if err := runIn("..", "make", "pi-package", "PI_PACKAGE_OUT="+filepath.Join(root, "dist"), "PI_PLATFORMS=linux/amd64"); err != nil {
		return "", err
	}
	return root, runIn(root, "npm", "pack", "./dist/tele-pi", "./dist/tele-pi-linux-x64", "--pack-destination", "tgz")
})

// installPiPackage installs the packed packages with npm into a new prefix under the packages' root, as
// `npm install tele-pi` would with the npm flags given, and returns the installed tele-pi.
func installPiPackage(prefixName string, npmFlags ...string) (string, error) {
	root, err := packedPiPackage()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(root, prefixName)
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(prefix, "package.json"), []byte(`{"private":true}`), 0o644); err != nil {
		return "", err
	}
	// "./": npm would read tgz/x.tgz as a GitHub repository. The platform package is found in the tarball
	// directory only when named; an install that leaves it out names only tele-pi.
	args := append([]string{"install", "--offline", "--no-audit", "--no-fund", "--prefix", prefix}, npmFlags...)
	args = append(args, "./tgz/tele-pi-0.0.0.tgz")
	if !slices.Contains(npmFlags, "--omit=optional") {
		args = append(args, "./tgz/tele-pi-linux-x64-0.0.0.tgz")
	}
	if err := runIn(root, "npm", args...); err != nil {
		return "", err
	}
	return filepath.Join(prefix, "node_modules", "tele-pi"), nil
}

// builtPiPackage installs the Pi package with its platform package once per test process.
var builtPiPackage = sync.OnceValues(func() (string, error) { return installPiPackage("prefix") })

// runIn runs a command in dir; its error carries the command's output.
func runIn(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
	}
	return nil
}

func TestPiPackage(t *testing.T) {
	requireTool(t, "make", "make")
	requireTool(t, "npm", "npm")
	forEachPi(t, func(t *testing.T, line piLine) {
		cli := requirePi(t, line)
		pkg, err := builtPiPackage()
		if err != nil {
			t.Fatal(err)
		}
		bin, err := filepath.EvalSymlinks(filepath.Join(filepath.Dir(pkg), "tele-pi-linux-x64", "bin", "tele"))
		if err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		agent := filepath.Join(home, "agent")
		// No tele on Pi's PATH: only the line's Node and the system's tools.
		const path = "/usr/bin:/bin"
		if found, err := lookPathIn("tele", path); err == nil {
			t.Fatalf("a tele on %s (%s) would hide what the package brings", path, found)
		}
		install := exec.Command(line.nodePath(), cli, "install", pkg)
		install.Dir = home
		install.Env = append(piEnv(home, agent, line), "PATH="+linePath(line, path))
		if b, err := install.CombinedOutput(); err != nil {
			t.Fatalf("pi install %s: %v\n%s", pkg, err, b)
		}

		p := newProbe(t, line, "pi-package")
		p.teleBin = bin // the package's own binary, which the package's bridge finds beside it
		defer p.finish()
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Path: path})
		p.step("tele-from-the-package", func(t *testing.T) string {
			if n := teleCommands(p.pi); n != 1 {
				t.Fatalf("%d /tele commands", n)
			}
			c := p.connect(t) // the host is a child of Pi running the package's binary
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitExit(t, c.hostPID, 10*time.Second, "the host to exit")
			return "pi install <path> → one /tele; /tele demo ran the package's own tele (no tele on PATH)"
		})

		// Beside a copy from `tele pi install`, one of them registers and Pi is told once.
		teleCmd(t, home, []string{"HOME=" + home, "PI_CODING_AGENT_DIR=" + agent}, "pi", "install")
		pi2 := StartPi(t, p.fm, PiOptions{Line: line, Home: home, Path: path})
		p.step("beside-tele-pi-install", func(t *testing.T) string {
			msgs := pi2.Notifies(0)
			if len(msgs) != 1 || !strings.Contains(msgs[0], "loaded twice") {
				t.Fatalf("startup notifies %q, want one saying the bridge is loaded twice", msgs)
			}
			if n := teleCommands(pi2); n != 1 {
				t.Fatalf("%d /tele commands", n)
			}
			if err := pi2.Quit(); err != nil {
				t.Fatal(err)
			}
			return "the package and tele pi install's copy: one /tele, one notify"
		})
	})
}

// lookPathIn is exec.LookPath over the directories of path.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		f := filepath.Join(dir, name)
		if st, err := os.Stat(f); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return f, nil
		}
	}
	return "", os.ErrNotExist
}
