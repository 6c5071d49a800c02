package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"tele/board/store"
	"tele/server"
)

// exampleBoard is the teaching example `tele serve` creates on first start (docs/content.md).
const exampleBoard = "welcome"

// runServe is `tele serve`: the board server without Pi. It listens first (a busy port changes nothing on
// disk), then takes the data directory (a second owner fails before anything is served), makes sure the
// example exists, prints the serving line, and serves until SIGINT or SIGTERM.
func runServe(ctx context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	share, rest := takeShare(rest)
	if err := checkNoArgs("serve", rest); err != nil {
		return err
	}
	addr := ""
	if share {
		if addr, err = shareAddr(s); err != nil {
			return err
		}
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := server.Start(server.Setup{Port: s.Port, DataDir: s.DataDir, Example: exampleBoard, Share: addr, Logger: log})
	if err != nil {
		if serr := shareError(err, s); serr != nil {
			return serr
		}
		return startError(err, s)
	}
	if err := st.Store.SetQuota(s.Quota); err != nil {
		st.Close()
		return err
	}
	origin := fmt.Sprintf("http://127.0.0.1:%d", st.Port)
	fmt.Fprintf(env.Stdout, "tele: serving %s (data %s)\n", origin, s.DataDir)
	if st.ExampleCreated {
		code, _, err := st.Store.NewClaim(exampleBoard)
		if err != nil {
			st.Close()
			return fmt.Errorf("cannot make the example board's edit link: %v", err)
		}
		fmt.Fprintf(env.Stdout, "tele: edit the example board: %s\n", claimLink(st.Port, exampleBoard, code))
	}
	if st.Band != nil {
		fmt.Fprintf(env.Stdout, "tele: band view on http://%s/ (open a board here and choose Share with the band)\n", st.Band.Addr())
	}
	log.Info("serving", "addr", origin, "data", s.DataDir, "pid", os.Getpid())
	if err := st.Serve(ctx, nil); err != nil {
		return fmt.Errorf("serving %s: %v", origin, err)
	}
	log.Info("stopped")
	return nil
}

// editLink is a board's edit link: the capability rides in the fragment, which browsers never send.
func editLink(port int, id, capability string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/b/%s#cap=%s", port, id, capability)
}

// claimLink is an edit link that carries a one-time claim code (board.NewClaim) instead of the key:
// the page trades it for the key by POST, so the key never sits in the browser's history.
func claimLink(port int, id, code string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/b/%s#claim=%s", port, id, code)
}

// startError says in one line what stopped the start and how to fix it.
func startError(err error, s Settings) error {
	if errors.Is(err, server.ErrPortInUse) {
		return fmt.Errorf("port %d is in use (from %s): stop the program using it, or pick another with --port <1..65535> or TELE_PORT",
			s.Port, s.PortSource)
	}
	if le, ok := errors.AsType[*store.LockedError](err); ok {
		// The store's message names the directory and its owner; the fix is the CLI's to say.
		return fmt.Errorf("%v: stop it, or use another directory with --data <path> or TELE_DATA", le)
	}
	return err
}
