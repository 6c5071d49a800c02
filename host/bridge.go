package host

import (
	"context"
	"fmt"

	"tele/link"
)

// bridge implements chat.Bridge with link calls to the Pi bridge.
type bridge struct{ conn *link.Conn }

func (b bridge) Send(ctx context.Context, command, text string) error {
	ok, err := b.conn.Call(ctx, "send", struct {
		Command string `json:"command"`
		Text    string `json:"text"`
	}{command, text})
	return nullOK("send", ok, err)
}

func (b bridge) Abort(ctx context.Context, command, runID string) error {
	ok, err := b.conn.Call(ctx, "abort", struct {
		Command string `json:"command"`
		RunID   string `json:"runId"`
	}{command, runID})
	return nullOK("abort", ok, err)
}

// nullOK accepts only `ok: null`.
func nullOK(call string, ok []byte, err error) error {
	if err != nil {
		return err
	}
	if string(ok) != "null" {
		return fmt.Errorf("host: the bridge answered %s with a value other than null", call)
	}
	return nil
}
