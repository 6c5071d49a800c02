package main

import (
	"context"
	"io"
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

// interruptibleStdin returns a reader of the process's stdin whose pending Read ends when it is closed,
// so a signal can stop the host while the bridge keeps stdin open. Go's os.Stdin does not use the
// runtime poller when the descriptor is in blocking mode, and closing it does not end a blocked Read;
// a fresh *os.File over the descriptor in non-blocking mode does. The mode belongs to the open file (a
// terminal may be shared with a shell), so restore puts it back through a duplicate descriptor that
// outlives the close. Any other reader is returned as it is.
func interruptibleStdin(r io.Reader) (io.Reader, func()) {
	if r != os.Stdin {
		return r, func() {}
	}
	saved, err := syscall.Dup(syscall.Stdin)
	if err != nil {
		return r, func() {}
	}
	if err := syscall.SetNonblock(syscall.Stdin, true); err != nil {
		syscall.Close(saved)
		return r, func() {}
	}
	f := os.NewFile(uintptr(syscall.Stdin), "/dev/stdin")
	return f, func() {
		_ = syscall.SetNonblock(saved, false)
		_ = syscall.Close(saved)
	}
}
