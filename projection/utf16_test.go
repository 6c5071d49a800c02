package projection

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestUTF16Len(t *testing.T) {
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
		{"👍🏽", 4}, // emoji + skin tone modifier: two astral runes
		{"\xff", 1},
		{"\xe4\xb8", 2}, // truncated sequence: each byte is one U+FFFD
	} {
		if got := UTF16Len(tc.in); got != tc.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tc.in, got, tc.want)
		}
		if utf8.ValidString(tc.in) {
			if js := len(utf16.Encode([]rune(tc.in))); js != tc.want {
				t.Errorf("test table wrong for %q: utf16.Encode gives %d", tc.in, js)
			}
		}
	}
}

func TestUTF16Cut(t *testing.T) {
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
		if got := cutUTF16(tc.in, tc.max); got != tc.want {
			t.Errorf("cutUTF16(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	// The docs/projection.md limit on a text of emoji and CJK: the cut lands on a rune boundary.
	s := strings.Repeat("中", MaxItemTextUnits-1) + "😀" + "x"
	got := cutUTF16(s, MaxItemTextUnits)
	if !utf8.ValidString(got) || UTF16Len(got) != MaxItemTextUnits-1 || !strings.HasSuffix(got, "中") {
		t.Fatalf("cut of CJK+emoji at the limit: %d units, valid %v", UTF16Len(got), utf8.ValidString(got))
	}
}
