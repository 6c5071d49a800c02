package costtest

import (
	"fmt"
	"testing"
)

// verdict records whether Bound failed, in place of the test running it.
type verdict struct {
	testing.TB
	failed string
}

func (v *verdict) Helper() {}

func (v *verdict) Fatalf(format string, args ...any) { v.failed = fmt.Sprintf(format, args...) }

var sink []byte

// TestBound: a reading once high (an empty pool) passes; a reader over the bound every time fails.
func TestBound(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes []int // what each reading allocates, in turn
		fails bool
	}{
		{"within", []int{100}, false},
		{"high once", []int{1 << 20, 100}, false},
		{"high twice", []int{1 << 20, 1 << 20, 100}, false},
		{"high every time", []int{1 << 20}, true},
	} {
		n := 0
		read := func() {
			sink = make([]byte, tc.sizes[min(n, len(tc.sizes)-1)])
			n++
		}
		v := &verdict{TB: t}
		Bound(v, 10, 4096, 16, read)
		if (v.failed != "") != tc.fails {
			t.Errorf("%s: failed %q, want failing %v", tc.name, v.failed, tc.fails)
		}
	}
}
