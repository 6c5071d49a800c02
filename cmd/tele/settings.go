package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"tele/band"
)

// The settings (README.md) every subcommand takes.
const (
	defaultPort    = 4317
	defaultDataDir = ".tele" // under $HOME
	envPort        = "TELE_PORT"
	envData        = "TELE_DATA"
	envShareAddr   = "TELE_SHARE_ADDR"
)

// Settings are the resolved port and data directory of one command.
type Settings struct {
	Port       int
	DataDir    string // absolute and clean
	PortSource string // "--port", "TELE_PORT" or "default": named in messages
	DataSource string // "--data", "TELE_DATA" or "default"
	// ShareAddr is the share listener's <IPv4>:<port> (docs/band.md), checked; "" means the default,
	// found only when a command shares (band.DefaultAddr).
	ShareAddr   string
	ShareSource string // "--share-addr", "TELE_SHARE_ADDR" or "default"
}

// parseSettings takes --port and --data (also --port=N, --data=PATH) out of args and returns the other
// arguments in order. Flags beat TELE_PORT/TELE_DATA, which beat the defaults (4317, $HOME/.tele).
// allowZero admits port 0 (tele host: the OS picks a free port); the CLI refuses it because its links
// must be stable. A relative data path is resolved against the working directory.
//
// Every bad value is a *usageError whose one line names the setting, the value and the fix. Nothing is
// created or changed: the data directory is only looked at (is it, or the nearest existing parent, a
// writable directory?), never made.
func parseSettings(args []string, env *Env, allowZero bool) (Settings, []string, error) {
	var (
		portVal, dataVal, shareVal string
		portSet, dataSet, shareSet bool
		rest                       []string
	)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--port", "-port", "--data", "-data", "--share-addr", "-share-addr":
		default:
			rest = append(rest, a)
			continue
		}
		flag := "--" + strings.TrimLeft(name, "-")
		if !hasVal {
			if i+1 >= len(args) {
				return Settings{}, nil, usagef("%s needs a value: use %s", flag, flagUsage(flag, allowZero))
			}
			i++
			val = args[i]
		}
		if flag == "--port" {
			portVal, portSet = val, true
		} else if flag == "--share-addr" {
			shareVal, shareSet = val, true
		} else {
			dataVal, dataSet = val, true
		}
	}

	s := Settings{Port: defaultPort, PortSource: "default", DataSource: "default", ShareSource: "default"}
	if shareSet {
		s.ShareSource = "--share-addr"
	} else if v := env.Getenv(envShareAddr); v != "" {
		shareVal, shareSet, s.ShareSource = v, true, envShareAddr
	}
	if shareSet {
		if _, err := band.ParseAddr(shareVal); err != nil {
			return Settings{}, nil, usagef("bad share address %q (from %s): %v", shareVal, s.ShareSource, err)
		}
		s.ShareAddr = shareVal
	}
	if !portSet {
		if v := env.Getenv(envPort); v != "" {
			portVal, portSet, s.PortSource = v, true, envPort
		}
	} else {
		s.PortSource = "--port"
	}
	if portSet {
		p, err := parsePort(portVal, allowZero)
		if err != nil {
			return Settings{}, nil, usagef("bad port %q (from %s): %v", portVal, s.PortSource, err)
		}
		s.Port = p
	}

	if !dataSet {
		if v := env.Getenv(envData); v != "" {
			dataVal, dataSet, s.DataSource = v, true, envData
		}
	} else {
		s.DataSource = "--data"
	}
	dir, err := resolveDataDir(dataVal, dataSet, env)
	if err != nil {
		if dataSet {
			return Settings{}, nil, usagef("bad data directory %q (from %s): %v", dataVal, s.DataSource, err)
		}
		return Settings{}, nil, usagef("bad data directory (default ~/%s): %v", defaultDataDir, err)
	}
	s.DataDir = dir
	return s, rest, nil
}

func flagUsage(flag string, allowZero bool) string {
	if flag == "--data" {
		return "--data <path>"
	}
	if flag == "--share-addr" {
		return "--share-addr <ip:port>"
	}
	if allowZero {
		return "--port <0..65535>"
	}
	return "--port <1..65535>"
}

// parsePort accepts decimal digits only (no sign, no spaces) in 1..65535, or 0..65535 with allowZero.
// The error is the fix, phrased for the one-line message.
func parsePort(v string, allowZero bool) (int, error) {
	low := 1
	if allowZero {
		low = 0
	}
	fix := fmt.Errorf("use a number from %d to 65535", low)
	if v == "" || len(v) > 5 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, fix
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < low || p > 65535 {
		if p == 0 && err == nil {
			return 0, fmt.Errorf("port 0 is for tele host only; %v", fix)
		}
		return 0, fix
	}
	return p, nil
}

// resolveDataDir returns the absolute data directory and checks, without creating anything, that it is
// or can become a writable directory outside the tele install.
func resolveDataDir(val string, set bool, env *Env) (string, error) {
	home := env.Getenv("HOME")
	var dir string
	switch {
	case !set:
		if home == "" {
			return "", errors.New("HOME is not set; use --data <path> or TELE_DATA")
		}
		dir = filepath.Join(home, defaultDataDir)
	case val == "":
		return "", errors.New("empty path; use --data <path>")
	case val == "~" || strings.HasPrefix(val, "~/"):
		if home == "" {
			return "", errors.New("~ needs HOME, which is not set; use an absolute path")
		}
		dir = filepath.Join(home, val[1:])
	case filepath.IsAbs(val):
		dir = val
	default:
		wd, err := env.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot resolve a relative path: %v; use an absolute path", err)
		}
		dir = filepath.Join(wd, val)
	}
	dir = filepath.Clean(dir)

	if inst := installDir(env); inst != "" && within(dir, inst) && !within(home, inst) {
		return "", fmt.Errorf("it is inside the tele install %s; use a directory outside it, such as ~/%s", inst, defaultDataDir)
	}
	if err := checkWritableDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// installDir is the directory holding the tele binary ("" when unknown). The data directory must never be
// inside it: reinstalling or cleaning a build would take the boards with it.
func installDir(env *Env) string {
	if env.Executable == nil {
		return ""
	}
	exe, err := env.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Dir(exe)
}

// within reports whether path is dir or inside it (both absolute and clean). An empty path is in nothing.
func within(path, dir string) bool {
	if path == "" || dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkWritableDir checks that dir is a writable directory, or that its nearest existing parent is one
// (so it can be created). It changes nothing.
func checkWritableDir(dir string) error {
	p := dir
	for {
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			if p == dir {
				return fmt.Errorf("it is a file, not a directory; use a directory path")
			}
			return fmt.Errorf("%s is a file, not a directory; use a path under a directory", p)
		case err == nil:
			if !canWrite(p) {
				if p == dir {
					return fmt.Errorf("it is not writable; use a directory you can write")
				}
				return fmt.Errorf("cannot create it: %s is not writable; use a directory you can write", p)
			}
			return nil
		case errors.Is(err, syscall.ENOTDIR):
			// A parent is a regular file; walk up to name it.
		case errors.Is(err, fs.ErrNotExist):
		default:
			return fmt.Errorf("cannot use it: %v; use another directory", unwrapPathError(err))
		}
		parent := filepath.Dir(p)
		if parent == p {
			return fmt.Errorf("no part of it exists; use an existing directory")
		}
		p = parent
	}
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
