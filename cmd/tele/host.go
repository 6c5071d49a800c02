package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"tele/host"
)

// runHost is `tele host` (SPEC 1 and 9): the link end the Pi bridge starts. Link frames on stdin and
// stdout, logs on stderr. It ends on the bridge's `revoke`, when stdin closes, or on SIGINT/SIGTERM, and
// in every case revokes the binding, closes every stream, stops HTTP and releases the data directory. A
// start that failed (`fatal` sent) exits 1 with the same message on stderr.
func runHost(ctx context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, true)
	if err != nil {
		return err
	}
	if err := checkNoArgs("host", rest); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	in, restore := interruptibleStdin(env.Stdin)
	defer restore()
	return host.Run(ctx, in, env.Stdout, host.Config{Port: s.Port, DataDir: s.DataDir, Logger: log})
}
