package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"

	"tele/board/store"
)

// rotateCapability gives board id a new capability (`tele board link <id> --new`) and returns it with
// the port of the link to print. current is the capability the caller read from the data directory.
//
// The data directory has one owner. When a server (serve or host) holds it, the rotation goes through
// that server over loopback, never around its lock: the server's store replaces the key in memory and
// on disk together, and its pages hear of it. Only when nobody holds the directory does the rotation
// take the lock and replace the key in the store itself.
func rotateCapability(ctx context.Context, s Settings, id, current string, logs io.Writer) (string, int, error) {
	boards, err := store.Open(s.DataDir, store.Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if le, ok := errors.AsType[*store.LockedError](err); ok {
		if le.Port == 0 {
			return "", 0, fmt.Errorf("%v and is not serving yet: run tele board link %s --new again in a moment", le, id)
		}
		fresh, err := rotateThroughServer(ctx, le.Port, id, current)
		return fresh, le.Port, err
	}
	if err != nil {
		return "", 0, fmt.Errorf("cannot open the data directory %s: %v", s.DataDir, err)
	}
	defer boards.Close()
	fresh, err := boards.Rotate(id)
	if err != nil {
		return "", 0, fmt.Errorf("cannot make a new edit link for board %q in %s: %v", id, s.DataDir, err)
	}
	return fresh, s.Port, nil
}

// claimThroughServer asks the server on 127.0.0.1:port for a one-time claim code of board id, as a
// holder of its capability (POST /api/boards/<id>/claims).
func claimThroughServer(ctx context.Context, port int, id, capability string) (string, error) {
	var answer struct {
		Claim string `json:"claim"`
	}
	if err := postToServer(ctx, port, "/api/boards/"+url.PathEscape(id)+"/claims", capability, http.StatusCreated, &answer); err != nil {
		return "", fmt.Errorf("%v: the edit link of board %q (tele board link %s --show-key prints one with the key itself)", err, id, id)
	}
	if answer.Claim == "" {
		return "", fmt.Errorf("the tele server on port %d answered no claim code for board %q", port, id)
	}
	return answer.Claim, nil
}

// rotateThroughServer asks the server on 127.0.0.1:port for a new capability of board id, as a holder
// of the current one (POST /api/boards/<id>/capability).
func rotateThroughServer(ctx context.Context, port int, id, current string) (string, error) {
	var answer struct {
		Capability string `json:"capability"`
	}
	if err := postToServer(ctx, port, "/api/boards/"+url.PathEscape(id)+"/capability", current, http.StatusOK, &answer); err != nil {
		return "", fmt.Errorf("%v: a new edit link for board %q", err, id)
	}
	if answer.Capability == "" {
		return "", fmt.Errorf("the tele server on port %d answered no new edit link for board %q", port, id)
	}
	return answer.Capability, nil
}

// postToServer posts `{}` to path on the tele server on 127.0.0.1:port with capability as the bearer,
// and decodes an answer of status want into answer; any other answer is a *refusal.
func postToServer(ctx context.Context, port int, path, capability string, want int, answer any) error {
	_, err := newLoopback(port).call(ctx, http.MethodPost, path, capability, nil, struct{}{}, want, answer)
	return err
}
