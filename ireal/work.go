package ireal

import (
	"context"
	"errors"
	"fmt"
)

// Reading costs work in proportion to the input: every pass over the text, every sign of the music, every
// bar made and every check of a song counts units of about the same cost, and an input may spend at most
// workPerByte units for each of its bytes (plus workBase). A reader that stays linear never reaches the
// limit (FuzzParse checks that it does not); the limit is there so that a mistake costs an error, not a
// core for minutes. The context is looked at every checkEvery units, so a request whose client has gone
// stops within a fraction of a millisecond.
const (
	workPerByte = 64
	workBase    = 1 << 16
	checkEvery  = 1 << 12
	linkCost    = 64  // finding a link, beside a unit for each of its bytes
	songCost    = 256 // a song's own checks, beside its bytes, signs and bars
)

// ErrTooCostly is the refusal of an input that would cost more to read than its size allows.
var ErrTooCostly = errors.New("the input costs more to read than its size allows: it is no iReal Pro chart")

// work is one reading's running cost.
type work struct {
	ctx   context.Context
	units int
	limit int
	check int // units at which ctx is next looked at
}

func newWork(ctx context.Context, size int) *work {
	return &work{ctx: ctx, limit: workBase + workPerByte*size}
}

// add spends n units; the error is ErrTooCostly past the limit, or the context's once it has ended.
func (w *work) add(n int) error {
	w.units += n
	if w.units > w.limit {
		return ErrTooCostly
	}
	if w.units >= w.check {
		w.check = w.units + checkEvery
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("reading stopped: %w", err)
		}
	}
	return nil
}
