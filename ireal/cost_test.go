package ireal

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// costly are inputs written to cost the most per byte: two-bar repeats (two bars for one byte), signs
// that each break a rule, staff text and alternates never closed, many tiny songs, long chord symbols.
func costly() map[string]string {
	tiny := strings.Repeat("T=C=S=C=n=C|D|rrrr===", 2000)
	return map[string]string{
		"r after two bars":         link("irealbook", "T=C=S=C=n=C|D|"+strings.Repeat("r", 12000)),
		"scrambled r":              link("irealb", "Autumn Leaves=C==Swing=G-==1r34LbKcu7"+scramble("C|D|"+strings.Repeat("r", 12000))+"=Jazz==0"),
		"r in songs of 512 bars":   link("irealbook", strings.Repeat("T=C=S=C=n="+strings.Repeat("*AC|D|"+strings.Repeat("r", 31), 8)+"===", 40)),
		"a sign on every bar":      link("irealbook", "T=C=S=C=n="+strings.Repeat("SC|QD|<Fine>E|<D.C.>F|", 128)),
		"signs in songs":           link("irealbook", strings.Repeat("T=C=S=C=n="+strings.Repeat("SC|QD|<Fine>E|<D.C.>F|", 120)+"===", 20)),
		"unclosed text":            link("irealbook", "T=C=S=C=n=C|"+strings.Repeat("<", 20000)),
		"unclosed alternates":      link("irealbook", "T=C=S=C=n=C|"+strings.Repeat("(", 20000)),
		"tiny songs":               link("irealbook", tiny),
		"a long chord":             link("irealbook", "T=C=S=C=n=C"+strings.Repeat("9", 20000)+"|"),
		"custom chord text":        link("irealbook", "T=C=S=C=n="+strings.Repeat("A*m*|C*-^*|D*zz*|", 300)),
		"sections":                 link("irealbook", "T=C=S=C=n="+strings.Repeat("*AC|*BD|", 3000)),
		"empty links":              strings.Repeat("irealbook://a ", 20000),
		"many notes":               link("irealbook", "T=C=S=C=n=C|"+strings.Repeat("<a>", 5000)),
		"non-ASCII scrambled text": link("irealb", "T=C==S=C==1r34LbKcu7"+scramble(strings.Repeat("<♪ ♬>C|", 2000))+"=Jazz==0"),
	}
}

// TestCostPerByte: whatever an input holds, reading it costs at most workPerByte units per byte (the
// readers are linear), and never hits the limit; a quadratic reader (today's r, before this test) would.
func TestCostPerByte(t *testing.T) {
	for name, input := range costly() {
		t.Run(name, func(t *testing.T) {
			w := newWork(context.Background(), len(input))
			_, err := read(w, []byte(input))
			if errors.Is(err, ErrTooCostly) {
				t.Fatalf("%d bytes cost more than %d units", len(input), w.limit)
			}
			t.Logf("%d bytes, %d units, %.1f a byte", len(input), w.units, float64(w.units)/float64(len(input)))
		})
	}
}

// TestTwoBarRepeatsLinear: a 12 KB link of r signs (the security review's M2: 10.5 s of CPU and
// gigabytes allocated, quadratic in the r signs) allocates memory in proportion to its size and is
// refused at the board's bar limit.
func TestTwoBarRepeatsLinear(t *testing.T) {
	for _, n := range []int{12000, 48000} {
		input := []byte(link("irealbook", "Autumn Leaves=C=S=C=n=C|D|"+strings.Repeat("r", n)))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		songs, err := Parse(input)
		runtime.ReadMemStats(&after)
		if err != nil || len(songs) != 1 || songs[0].Err == nil || !strings.Contains(songs[0].Err.Error(), "more bars than a board holds") {
			t.Fatalf("%d r: %+v, %v", n, songs, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64*uint64(len(input))+4<<20 {
			t.Fatalf("%d r (%d bytes) allocated %d bytes", n, len(input), got)
		}
	}
}

// TestReadStopsWithContext: a reading stops once its context ends, with the context's error.
func TestReadStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	input := costly()["r in songs of 512 bars"]
	if _, err := Read(ctx, []byte(input)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read after cancel: %v", err)
	}
	if songs, err := Read(context.Background(), []byte(input)); err != nil || len(songs) != 40 || songs[0].Err != nil {
		t.Fatalf("Read: %d songs, %v", len(songs), err)
	}
}

// TestLimits: reading stops at the board's limits: bars, sections and the songs of one input.
func TestLimits(t *testing.T) {
	for name, tt := range map[string]struct{ input, err string }{
		"bars":     {link("irealbook", "T=C=S=C=n="+strings.Repeat("C|", 600)), "more bars than a board holds"},
		"sections": {link("irealbook", "T=C=S=C=n="+strings.Repeat("*AC|", 40)), "more than 32 sections"},
		"songs":    {link("irealbook", strings.Repeat("T=C=S=C=n=C|===", MaxSongs+1)), "more than 4096 songs"},
	} {
		t.Run(name, func(t *testing.T) {
			songs, err := Parse([]byte(tt.input))
			if err == nil && len(songs) == 1 {
				err = songs[0].Err
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("%d songs, %v; want …%s…", len(songs), err, tt.err)
			}
		})
	}
}
