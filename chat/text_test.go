package chat

import (
	"testing"
	"unicode"
)

// TestCommandCheckSkipsEveryInvisiblePrefix: text whose first visible character is `/` or `!` is refused
// whatever invisible characters come before it, and the same text with a visible first character is
// taken. Issue 11 finding 7: "\uFEFF/reload" and "\u200B/reload" passed the check, and Pi, whose trim()
// strips U+FEFF, would have run the command.
func TestCommandCheckSkipsEveryInvisiblePrefix(t *testing.T) {
	invisibles := map[string]rune{
		"BOM U+FEFF": '\uFEFF', "zero width space U+200B": '\u200B', "ZWNJ U+200C": '\u200C',
		"ZWJ U+200D": '\u200D', "LRM U+200E": '\u200E', "RLM U+200F": '\u200F', "word joiner U+2060": '\u2060',
		"invisible times U+2062": '\u2062', "soft hyphen U+00AD": '\u00AD', "ALM U+061C": '\u061C',
		"Mongolian vowel separator U+180E": '\u180E', "LRE U+202A": '\u202A', "RLO U+202E": '\u202E',
		"LRI U+2066": '\u2066', "PDI U+2069": '\u2069', "interlinear anchor U+FFF9": '\uFFF9',
		"language tag U+E0001": '\U000E0001', "tag space U+E0020": '\U000E0020',
		"variation selector U+FE0F": '\uFE0F', "combining grapheme joiner U+034F": '\u034F',
		"Hangul filler U+3164": '\u3164', "halfwidth Hangul filler U+FFA0": '\uFFA0',
		"NBSP U+00A0": '\u00A0', "ideographic space U+3000": '\u3000', "narrow NBSP U+202F": '\u202F',
		"em space U+2003": '\u2003', "line separator U+2028": '\u2028', "paragraph separator U+2029": '\u2029',
		"NEL U+0085": '\u0085', "ogham space U+1680": '\u1680', "tab": '\t', "vertical tab": '\v',
		"form feed": '\f', "carriage return": '\r', "line feed": '\n', "space": ' ',
	}
	// Every format character of the Unicode tables Go carries is covered, not only the ones named above.
	for _, r16 := range unicode.Cf.R16 {
		for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
			invisibles["Cf "+string(r)] = r
		}
	}
	for _, r32 := range unicode.Cf.R32 {
		for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
			invisibles["Cf "+string(r)] = r
		}
	}
	for name, r := range invisibles {
		for _, cmd := range []string{"/reload", "!ls", "/tele off"} {
			for _, prefix := range []string{string(r), string(r) + string(r), " " + string(r) + "\u200B"} {
				if checkText(prefix+cmd) == nil {
					t.Errorf("%s before %q: taken, want refused", name, cmd)
				}
			}
		}
		if checkText(string(r)+string(r)) == nil {
			t.Errorf("%s alone: taken, want refused as blank", name)
		}
		if err := checkText(string(r) + "play /reload later"); err != nil {
			t.Errorf("%s before visible text: %v", name, err)
		}
	}
	for _, ok := range []string{"a/b", "¡hola!", "／reload", "please /reload", "-/", "\u3000你好 /x"} {
		if err := checkText(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
