package chord

import (
	"reflect"
	"testing"
)

func TestLineOfChords(t *testing.T) {
	for _, tc := range []struct {
		line string
		at   []int
		syms []string
		ok   bool
	}{
		{"G        D/F#     Em", []int{0, 9, 18}, []string{"G", "D/F#", "Em"}, true},
		{"| Am7 . | D7 | (x2)", []int{2, 10}, []string{"Am7", "D7"}, true},
		{"😀 C", nil, nil, false},
		{"  N.C.   Bbmaj7", []int{2, 9}, []string{"N.C.", "Bbmaj7"}, true},
		{"Am I the one", nil, nil, false},
		{"a", nil, nil, false},
		{"", nil, nil, false},
		{"| x2 |", nil, nil, false},
		{"C  Hm7", nil, nil, false},
	} {
		got, ok := LineOfChords(tc.line)
		var at []int
		var syms []string
		for _, p := range got {
			at = append(at, p.At)
			syms = append(syms, p.Symbol)
		}
		if ok != tc.ok || !reflect.DeepEqual(at, tc.at) || !reflect.DeepEqual(syms, tc.syms) {
			t.Errorf("LineOfChords(%q) = %v %v %v; want %v %v %v", tc.line, at, syms, ok, tc.at, tc.syms, tc.ok)
		}
	}
}
