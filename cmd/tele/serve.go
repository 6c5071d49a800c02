package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"tele/assets"
	"tele/board"
	"tele/server"
)

// exampleBoard is the teaching example `tele serve` creates on first start (SPEC 3.4).
const exampleBoard = "welcome"

// runServe is `tele serve`: the board server without Pi. It listens first (a busy port changes nothing on
// disk), then takes the data directory (a second owner fails before anything is served), makes sure the
// example exists, prints the serving line, and serves until SIGINT or SIGTERM.
func runServe(ctx context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	if err := checkNoArgs("serve", rest); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	ln, err := server.Listen(s.Port)
	if err != nil {
		return listenError(err, s)
	}
	defer ln.Close()

	store, hub, err := server.OpenStore(s.DataDir)
	if err != nil {
		return openError(err, s)
	}
	defer hub.Close()
	defer store.Close() // before the hub: waits for in-flight commits, releases the lock
	if err := store.SetOwner(os.Getpid(), s.Port); err != nil {
		return fmt.Errorf("cannot record this process as the owner of %s: %v", s.DataDir, err)
	}
	_, created, err := store.EnsureExample(exampleBoard)
	if err != nil {
		return fmt.Errorf("cannot create the example board in %s: %v", s.DataDir, err)
	}
	a, err := assets.New()
	if err != nil {
		return fmt.Errorf("cannot load the web pages: %v", err)
	}

	origin := fmt.Sprintf("http://127.0.0.1:%d", s.Port)
	fmt.Fprintf(env.Stdout, "tele: serving %s (data %s)\n", origin, s.DataDir)
	if created {
		capability, err := store.Capability(exampleBoard)
		if err != nil {
			return fmt.Errorf("cannot read the example board's capability: %v", err)
		}
		fmt.Fprintf(env.Stdout, "tele: edit the example board: %s\n", editLink(s.Port, exampleBoard, capability))
	}
	log.Info("serving", "addr", ln.Addr().String(), "data", s.DataDir, "pid", os.Getpid())

	h := server.Handler(server.Config{Store: store, BoardHub: hub, Assets: a, Logger: log}, s.Port)
	if err := server.Serve(ctx, ln, h, hub); err != nil {
		return fmt.Errorf("serving %s: %v", origin, err)
	}
	log.Info("stopped")
	return nil
}

// editLink is a board's edit link: the capability rides in the fragment, which browsers never send.
func editLink(port int, id, capability string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/b/%s#cap=%s", port, id, capability)
}

func listenError(err error, s Settings) error {
	if errors.Is(err, server.ErrPortInUse) {
		return fmt.Errorf("port %d is in use (from %s): stop the program using it, or pick another with --port <1..65535> or TELE_PORT",
			s.Port, s.PortSource)
	}
	return fmt.Errorf("cannot listen on 127.0.0.1:%d: %v", s.Port, err)
}

func openError(err error, s Settings) error {
	var le *board.LockedError
	if errors.As(err, &le) {
		// The store's message names the directory and its owner; the fix is the CLI's to say.
		return fmt.Errorf("%v: stop it, or use another directory with --data <path> or TELE_DATA", le)
	}
	return fmt.Errorf("cannot open the data directory %s: %v", s.DataDir, err)
}
