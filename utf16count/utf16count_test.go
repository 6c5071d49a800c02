package utf16count

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello", 5},
		{"é", 1},
		{"中文字", 3},
		{"😀", 2},
		{"a😀b", 4},
		{"👍🏽", 4},    // emoji + skin tone modifier: two astral runes
		{"👨‍👩‍👧", 8}, // three astral runes joined by two U+200D
		{"\U0010FFFF", 2},
		{"\uFFFF", 1},
		{"\xff", 1},
		{"\xe4\xb8", 2}, // truncated sequence: each byte is one U+FFFD
	} {
		if got := Of(tc.in); got != tc.want {
			t.Errorf("Of(%q) = %d, want %d", tc.in, got, tc.want)
		}
		if utf8.ValidString(tc.in) {
			if js := len(utf16.Encode([]rune(tc.in))); js != tc.want {
				t.Errorf("test table wrong for %q: utf16.Encode gives %d", tc.in, js)
			}
		}
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"hello", 0, ""},
		{"a😀b", 1, "a"},
		{"a😀b", 2, "a"}, // the pair does not fit: never split it
		{"a😀b", 3, "a😀"},
		{"中文字", 2, "中文"},
		{"😀😀", 3, "😀"},
	} {
		if got := Cut(tc.in, tc.max); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	// A long text of CJK then an emoji across the limit: the cut lands on a rune boundary.
	const limit = 32768
	s := strings.Repeat("中", limit-1) + "😀" + "x"
	got := Cut(s, limit)
	if !utf8.ValidString(got) || Of(got) != limit-1 || !strings.HasSuffix(got, "中") {
		t.Fatalf("cut of CJK+emoji at the limit: %d units, valid %v", Of(got), utf8.ValidString(got))
	}
}

func TestByteIndex(t *testing.T) {
	for _, tc := range []struct {
		s     string
		units int
		want  int
		ok    bool
	}{
		{"", 0, 0, true},
		{"", 1, 0, false},
		{"abc", 3, 3, true},
		{"abc", -1, 0, false},
		{"中文", 1, 3, true},
		{"a😀b", 1, 1, true},
		{"a😀b", 2, 0, false}, // between the two halves of the pair
		{"a😀b", 3, 5, true},
		{"a😀b", 4, 6, true},
		{"a😀b", 5, 0, false},
	} {
		got, ok := ByteIndex(tc.s, tc.units)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ByteIndex(%q, %d) = %d, %v; want %d, %v", tc.s, tc.units, got, ok, tc.want, tc.ok)
		}
	}
}
