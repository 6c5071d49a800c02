package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// loopback is the CLI's one way to the tele server that owns the data directory, on 127.0.0.1:port:
// one HTTP client, without a proxy whatever the environment says (a capability goes to loopback only),
// and one reader of the server's refusals.
type loopback struct {
	origin string
	client *http.Client
}

func newLoopback(port int) *loopback {
	return &loopback{
		origin: fmt.Sprintf("http://127.0.0.1:%d", port),
		client: &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 30 * time.Second},
	}
}

// call sends method path with body as JSON (none when nil), the capability as the bearer (none when
// ""), and header, and decodes an answer of status want into answer (nil: the answer is dropped). It
// returns the answer's header. An answer of another status is a *refusal.
func (l *loopback) call(ctx context.Context, method, path, capability string, header http.Header, body any, want int, answer any) (http.Header, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, l.origin+path, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if capability != "" {
		req.Header.Set("Authorization", "Bearer "+capability)
	}
	res, err := l.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the tele server owning the data directory (%s) cannot be reached: %v", l.origin, err)
	}
	defer res.Body.Close()
	// An import's answer holds its boards, each up to the content limit: read what a whole one can be.
	got, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("the tele server at %s answered %s without a readable body", l.origin, res.Status)
	}
	if res.StatusCode != want {
		var r struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		json.Unmarshal(got, &r)
		return nil, &refusal{origin: l.origin, status: res.StatusCode, code: r.Error.Code, message: r.Error.Message}
	}
	if answer != nil {
		if err := json.Unmarshal(got, answer); err != nil {
			return nil, fmt.Errorf("the tele server at %s answered %s without a readable body", l.origin, res.Status)
		}
	}
	return res.Header, nil
}

// refusal is an answer of the tele server other than the one asked for: its status, and its error's
// code and message.
type refusal struct {
	origin        string
	status        int
	code, message string
}

func (r *refusal) Error() string {
	if r.code == "" {
		return fmt.Sprintf("the tele server at %s refused: %d %s", r.origin, r.status, http.StatusText(r.status))
	}
	return fmt.Sprintf("the tele server at %s refused: %s (%s)", r.origin, r.message, r.code)
}
