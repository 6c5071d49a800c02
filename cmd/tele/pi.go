package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tele/assets"
	"tele/atomicfile"
)

// runPi is `tele pi install [--project]` and `tele pi print` (docs/bridge.md): the Pi bridge with the
// absolute path of this tele binary baked in.
func runPi(_ context.Context, args []string, env *Env) error {
	var project, pkg *bool
	_, rest, err := parseCommand(args, env, false, func(fs *flag.FlagSet) {
		project = fs.Bool("project", false, "") // install's
		pkg = fs.Bool("package", false, "")     // print's
	})
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("pi needs a command: use tele pi install [--project] or tele pi print")
	}
	switch rest[0] {
	case "print":
		// --package: the bridge of the Pi package (make pi-package), which finds its binary beside it.
		if *project {
			return checkNoArgs("pi print", []string{"--project"})
		}
		if *pkg && len(rest) == 1 {
			src, err := assets.PackageBridge()
			if err != nil {
				return err
			}
			_, err = env.Stdout.Write(src)
			return err
		}
		if err := checkNoArgs("pi print", rest[1:]); err != nil {
			return err
		}
		src, err := piBridge(env)
		if err != nil {
			return err
		}
		_, err = env.Stdout.Write(src)
		return err
	case "install":
		if *pkg {
			rest = append(rest, "--package")
		}
		if len(rest) > 1 {
			return usagef("pi install: unexpected argument %q: use tele pi install [--project]", rest[1])
		}
		path, err := piInstallPath(env, *project)
		if err != nil {
			return err
		}
		src, err := piBridge(env)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(path, src, 0o644); err != nil {
			return fmt.Errorf("cannot install the Pi bridge at %s: %v", path, err)
		}
		fmt.Fprintln(env.Stdout, path)
		if *project {
			fmt.Fprintln(env.Stderr, projectTrustHint)
		}
		return nil
	}
	return usagef("unknown pi command %q: use tele pi install [--project] or tele pi print", rest[0])
}

// projectTrustHint is what `tele pi install --project` adds on stderr (stdout stays the path alone): Pi
// 1.x loads a project's .pi/extensions only once the project is trusted (its docs/security.md, "project
// trust"; default setting defaultProjectTrust "ask"), while 0.73.1 loads them without asking.
const projectTrustHint = "tele: Pi 1.x asks whether to trust this project when it starts here; answer yes " +
	"(or run /trust, or start pi with --approve) or /tele is not there. Pi 0.73 loads it without asking."

// piBridge is the bridge source naming the running binary (absolute, symlinks resolved).
func piBridge(env *Env) ([]byte, error) {
	if env.Executable == nil {
		return nil, fmt.Errorf("cannot find the tele binary to name in the Pi bridge")
	}
	exe, err := env.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the tele binary to name in the Pi bridge: %v", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return nil, fmt.Errorf("cannot find the tele binary to name in the Pi bridge: %v", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return assets.Bridge(exe)
}

// piInstallPath follows Pi's own rule for its agent directory: $PI_CODING_AGENT_DIR (with ~ expanded),
// else ~/.pi/agent; the bridge goes to <agent dir>/extensions/tele.js. --project: ./.pi/extensions/tele.js.
func piInstallPath(env *Env, project bool) (string, error) {
	if project {
		wd, err := env.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot find the working directory for --project: %v", err)
		}
		return filepath.Join(wd, ".pi", "extensions", "tele.js"), nil
	}
	home := env.Getenv("HOME")
	dir := env.Getenv("PI_CODING_AGENT_DIR")
	switch {
	case dir == "":
		if home == "" {
			return "", fmt.Errorf("HOME is not set: set HOME or PI_CODING_AGENT_DIR, or use tele pi install --project")
		}
		dir = filepath.Join(home, ".pi", "agent")
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if home == "" {
			return "", fmt.Errorf("PI_CODING_AGENT_DIR %q needs HOME, which is not set", dir)
		}
		dir = filepath.Join(home, dir[1:])
	case !filepath.IsAbs(dir):
		wd, err := env.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot resolve PI_CODING_AGENT_DIR %q: %v", dir, err)
		}
		dir = filepath.Join(wd, dir)
	}
	return filepath.Join(filepath.Clean(dir), "extensions", "tele.js"), nil
}

// writeFileAtomic creates the parent directories and replaces path with data: a reader (Pi starting)
// sees the old bridge or the new one, never half of one.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Replace(path, data, perm)
}
