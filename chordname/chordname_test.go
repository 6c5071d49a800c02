package chordname

import "testing"

func TestMap(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		exact    bool
	}{
		{"Am7", "Am7", true},
		{"A-7", "Am7", true},
		{"Amin7", "Am7", true},
		{"CΔ7", "Cmaj7", true},
		{"C^7", "Cmaj7", true},
		{"CM7", "Cmaj7", true},
		{"Bø", "Bm7b5", true},
		{"Bh7", "Bm7b5", true},
		{"Bo7", "Bdim7", true},
		{"C°", "Cdim", true},
		{"C+", "Caug", true},
		{"G7sus", "G7sus4", true},
		{"G7(b9)", "G7b9", true},
		{"F#m7b5/C", "F#m7b5/C", true},
		{"H7", "", false},
		{"E♭-7", "Ebm7", true},
		{"N.C.", "N.C.", true},
		{"n", "N.C.", true},
		{"C69", "C6/9", true},
		{"G7alt", "G7alt", true},
		{"G13b9", "G13", false},
		{"D7#11", "D7#11", true},
		{"D7#9b5", "D7#9", false},
		{"Cmaj7#11", "Cmaj7", false},
		{"Cb", "B", false},
		{"E#m", "Fm", false},
		{"C/E", "C/E", true},
		{"C/9", "C", false},
		{"Eb-^7", "Ebm(maj7)", true},
		{"A11", "A11", true},
		{"A7b9sus", "A7sus4", false},
	} {
		r, ok := Map(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("Map(%q) = %v, want not a chord", tt.in, r)
			}
			continue
		}
		if !ok || r.Symbol != tt.want || r.Exact != tt.exact {
			t.Errorf("Map(%q) = %+v, %v; want %q exact=%v", tt.in, r, ok, tt.want, tt.exact)
		}
	}
}

func FuzzMap(f *testing.F) {
	for _, s := range []string{"Am7", "C^7#11", "Bb-7b5/Ab", "x", "", "G7(b9,#11)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := Map(s)
		if ok {
			if again, ok2 := Map(r.Symbol); !ok2 || again.Symbol != r.Symbol || !again.Exact {
				t.Fatalf("Map(%q) = %q, which maps to %+v", s, r.Symbol, again)
			}
		}
	})
}
