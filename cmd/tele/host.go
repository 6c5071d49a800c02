package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"tele/host"
	"tele/webbrowser"
)

// runHost is `tele host` (docs/link-protocol.md): the link end the Pi bridge starts. Link frames on stdin and
// stdout, logs on stderr. It ends on the bridge's `revoke`, when stdin closes, or on SIGINT/SIGTERM, and
// in every case revokes the binding, closes every stream, stops HTTP and releases the data directory. A
// start that failed (`fatal` sent) exits 1 with the same message on stderr.
//
// --open-browser (the bridge passes it when Pi runs in a terminal) makes the host open the user's
// browser on each invitation, with BROWSER's command or the system's opener, unless TELE_NO_BROWSER is
// set. The link never goes on a command line: the browser gets a 0600 redirect file (package webbrowser).
func runHost(ctx context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, true)
	if err != nil {
		return err
	}
	openBrowser := false
	rest = slices.DeleteFunc(rest, func(a string) bool {
		if a == "--open-browser" {
			openBrowser = true
			return true
		}
		return false
	})
	share, rest := takeShare(rest)
	if err := checkNoArgs("host", rest); err != nil {
		return err
	}
	addr := ""
	if share {
		if addr, err = shareAddr(s); err != nil {
			return err
		}
	}
	var browserCmd []string
	if openBrowser && env.Getenv("TELE_NO_BROWSER") == "" {
		browserCmd = webbrowser.Command(env.Getenv("BROWSER"))
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	in, restore := interruptibleStdin(env.Stdin)
	defer restore()
	return host.Run(ctx, in, env.Stdout, host.Config{Port: s.Port, DataDir: s.DataDir, Logger: log, Browser: browserCmd, Quota: s.Quota, Share: addr})
}
