package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// runVersion prints what this binary is: its module version, the version-control revision it was
// built from (and whether the checkout had uncommitted changes), and the Go toolchain and platform.
// Everything comes from the build information the Go toolchain stamps into the binary.
func runVersion(_ context.Context, args []string, env *Env) error {
	if err := checkNoArgs("version", args); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("this binary carries no build information: build it with go build ./cmd/tele")
	}
	fmt.Fprint(env.Stdout, versionText(info))
	return nil
}

// versionText is three lines: "tele <version>", "revision <hash>[ (modified)] [<commit time>]" (or
// "revision unknown" for a build outside a checkout), and "<go version> <os>/<arch>".
func versionText(info *debug.BuildInfo) string {
	setting := map[string]string{}
	for _, s := range info.Settings {
		setting[s.Key] = s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tele %s\n", info.Main.Version)
	if rev := setting["vcs.revision"]; rev != "" {
		b.WriteString("revision " + rev)
		if setting["vcs.modified"] == "true" {
			b.WriteString(" (modified)")
		}
		if at := setting["vcs.time"]; at != "" {
			b.WriteString(" " + at)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("revision unknown (not built from a version-control checkout)\n")
	}
	fmt.Fprintf(&b, "%s %s/%s\n", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
