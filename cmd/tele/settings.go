package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"tele/band"
	"tele/board/store"
)

// The settings (README.md) every subcommand takes.
const (
	defaultPort    = 4317
	defaultDataDir = ".tele" // under $HOME
	envPort        = "TELE_PORT"
	envData        = "TELE_DATA"
	envShareAddr   = "TELE_SHARE_ADDR"
	envMaxBoards   = "TELE_MAX_BOARDS"
	envMaxBytes    = "TELE_MAX_BYTES"
)

// Settings are the resolved port and data directory of one command.
type Settings struct {
	Port       int
	DataDir    string      // absolute and clean
	PortSource string      // "--port", "TELE_PORT" or "default": named in messages
	DataSource string      // "--data", "TELE_DATA" or "default"
	Quota      store.Quota // --max-boards/TELE_MAX_BOARDS, --max-bytes/TELE_MAX_BYTES: what the server keeps at most
	// ShareAddr is the share listener's <IPv4>:<port> (docs/band.md), checked; "" means the default,
	// found only when a command shares (band.DefaultAddr).
	ShareAddr   string
	ShareSource string // "--share-addr", "TELE_SHARE_ADDR" or "default"
}

// parseSettings is parseCommand for a command without flags of its own.
func parseSettings(args []string, env *Env, allowZero bool) (Settings, []string, error) {
	return parseCommand(args, env, allowZero, nil)
}

// parseCommand reads a command's arguments with one flag.FlagSet: the settings every command shares
// (--port, --data, --share-addr, --max-boards, --max-bytes, also as --port=N, -port N) and the
// command's own flags, which own registers on the set (nil: none). Flags may stand anywhere among the
// arguments; what is not a flag of the set stays in the arguments returned, in order, for the command to
// judge, and after "--" everything does. Flags beat TELE_PORT/TELE_DATA/…, which beat the defaults
// (4317, $HOME/.tele). allowZero admits port 0 (tele host: the OS picks a free port); the CLI refuses it
// because its links must be stable. A relative data path is resolved against the working directory.
//
// Every bad value is a *usageError whose one line names the setting, the value and the fix. Nothing is
// created or changed: the data directory is only looked at (is it, or the nearest existing parent, a
// writable directory?), never made.
func parseCommand(args []string, env *Env, allowZero bool, own func(*flag.FlagSet)) (Settings, []string, error) {
	fs := flag.NewFlagSet("tele", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are ours, in one line
	names := []string{"port", "data", "share-addr", "max-boards", "max-bytes"}
	shared := map[string]*string{}
	for _, name := range names {
		fs.Func(name, "", func(v string) error { shared[name] = &v; return nil })
	}
	if own != nil {
		own(fs)
	}
	rest, err := parseFlags(fs, args, func(name string) error {
		if slices.Contains(names, name) {
			return usagef("--%s needs a value: use %s", name, flagUsage("--"+name, allowZero))
		}
		return usagef("--%s needs a value", name)
	})
	if err != nil {
		return Settings{}, nil, err
	}
	s := Settings{Port: defaultPort}
	var shareVal, portVal, dataVal string
	var shareSet, portSet, dataSet bool
	if shareVal, s.ShareSource, shareSet = setting(shared, env, "share-addr", envShareAddr); shareSet {
		if _, err := band.ParseAddr(shareVal); err != nil {
			return Settings{}, nil, usagef("bad share address %q (from %s): %v", shareVal, s.ShareSource, err)
		}
		s.ShareAddr = shareVal
	}
	if portVal, s.PortSource, portSet = setting(shared, env, "port", envPort); portSet {
		p, err := parsePort(portVal, allowZero)
		if err != nil {
			return Settings{}, nil, usagef("bad port %q (from %s): %v", portVal, s.PortSource, err)
		}
		s.Port = p
	}

	dataVal, s.DataSource, dataSet = setting(shared, env, "data", envData)
	dir, err := resolveDataDir(dataVal, dataSet, env)
	if err != nil {
		if dataSet {
			return Settings{}, nil, usagef("bad data directory %q (from %s): %v", dataVal, s.DataSource, err)
		}
		return Settings{}, nil, usagef("bad data directory (default ~/%s): %v", defaultDataDir, err)
	}
	s.DataDir = dir
	if s.Quota, err = parseQuota(shared, env); err != nil {
		return Settings{}, nil, err
	}
	return s, rest, nil
}

// setting is the value of shared flag name and where it came from: the flag beats the environment
// variable, which beats the default (set is then false).
func setting(shared map[string]*string, env *Env, name, envName string) (val, source string, set bool) {
	if v := shared[name]; v != nil {
		return *v, "--" + name, true
	}
	if v := env.Getenv(envName); v != "" {
		return v, envName, true
	}
	return "", "default", false
}

// parseQuota reads --max-boards and --max-bytes (flags beat TELE_MAX_BOARDS and TELE_MAX_BYTES, which
// beat the store's defaults). Bytes may carry a binary suffix: K, M, G or T (4G is 4 GiB).
func parseQuota(shared map[string]*string, env *Env) (store.Quota, error) {
	q := store.Quota{MaxBoards: store.DefaultMaxBoards, MaxBytes: store.DefaultMaxBytes}
	for _, st := range []struct{ flag, env string }{{"--max-boards", envMaxBoards}, {"--max-bytes", envMaxBytes}} {
		val, from, set := setting(shared, env, st.flag[2:], st.env)
		if !set {
			continue
		}
		n, ok := parseCount(val, st.flag == "--max-bytes")
		if !ok {
			if st.flag == "--max-bytes" {
				return q, usagef("bad %s %q (from %s): use a whole number of bytes, optionally with K, M, G or T, like 4G", st.flag, val, from)
			}
			return q, usagef("bad %s %q (from %s): use a whole number from 1, like %d", st.flag, val, from, store.DefaultMaxBoards)
		}
		if st.flag == "--max-bytes" {
			q.MaxBytes = n
		} else {
			q.MaxBoards = int(n)
		}
	}
	return q, nil
}

// parseCount reads a whole number from 1, of at most 15 digits, with a binary suffix when size says so.
func parseCount(v string, size bool) (int64, bool) {
	mult := int64(1)
	if size && v != "" {
		if i := strings.IndexByte("KMGT", v[len(v)-1]); i >= 0 {
			mult, v = int64(1)<<(10*(i+1)), v[:len(v)-1]
		}
	}
	if v == "" || len(v) > 15 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n * mult, err == nil && n >= 1
}

func flagUsage(flag string, allowZero bool) string {
	switch flag {
	case "--data":
		return "--data <path>"
	case "--max-boards":
		return "--max-boards <n>"
	case "--max-bytes":
		return "--max-bytes <n>[K|M|G|T]"
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

// parseFlags parses the flags of fs found anywhere in args and returns the other arguments in order;
// after "--" every argument is returned. A flag of fs that needs a value and has none is needsValue's
// error. An argument that looks like a flag but is none of fs's is left to the caller (tele's commands
// say what they expect instead).
func parseFlags(fs *flag.FlagSet, args []string, needsValue func(name string) error) ([]string, error) {
	var rest []string
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return append(rest, args[1:]...), nil
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || name == "" || f == nil {
			rest = append(rest, a)
			args = args[1:]
			continue
		}
		n := 1
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasVal && (!ok || !b.IsBoolFlag()) {
			if len(args) < 2 {
				return nil, needsValue(name)
			}
			n = 2
		}
		if err := fs.Parse(args[:n]); err != nil {
			return nil, usagef("bad %s: %v", a, err)
		}
		args = args[n:]
	}
	return rest, nil
}

// refuseOptions refuses an argument that looks like an option (--name) but is none of the command's.
func refuseOptions(args []string) error {
	for _, a := range args {
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			return usagef("unknown option %q: run tele help", a)
		}
	}
	return nil
}
