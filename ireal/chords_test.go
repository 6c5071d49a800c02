package ireal

import (
	"strings"
	"testing"

	"tele/chord"
)

// Every quality is written in iReal Pro's own letters (what its chord pattern reads whole), and reads
// back as itself; TestWriteRoundTrip takes every quality on every root through a whole link.
func TestEveryQualityInIRealLetters(t *testing.T) {
	for _, q := range chord.Catalogue().Qualities {
		sym := "Bb" + q.Suffix + "/E"
		written := chordSpelling(sym)
		if chordRE.FindString(written) != written {
			t.Errorf("%s is written %q, which iReal Pro's chord pattern does not read whole", sym, written)
		}
		if m, ok := chord.Map(written); !ok || m.Symbol != sym || !m.Exact {
			t.Errorf("%s is written %q, which reads back as %+v", sym, written, m)
		}
	}
}

// The chord symbols of real books (the formats review of 2026-12-03 counted them over 3,164 iReal Pro
// charts: the qualities iReal Pro offers and the ones it mapped to a chord with another chord tone)
// import as the catalogue's own chords, with no note.
func TestRealBookSymbolsImportWithoutNotes(t *testing.T) {
	qualities := strings.Fields("5 2 add9 + o h sus ^ - ^7 -7 7 7sus h7 o7 ^9 ^13 6 69 ^7#11 ^9#11 ^7#5 -6 -69 -^7 -^9 -9 -11 " +
		"-7b5 h9 -b6 -#5 9 7b9 7#9 7#11 7b5 7#5 9#11 9b5 9#5 7b13 7#9#5 7#9b5 7#9#11 7b9#11 7b9b5 7b9#5 7b9#9 7b9b13 7alt " +
		"13 13#11 13#9 13b9 11 7b9sus 7susadd3 9sus 13sus 7b13sus o^7 -13 ^ h")
	var bars []string
	for _, q := range qualities {
		bars = append(bars, "C"+q)
	}
	half := len(bars) / 2
	music := "T44*A[" + strings.Join(bars[:half], " |") + " ]*B[" + strings.Join(bars[half:], " |") + " Z"
	songs, err := Parse([]byte(link("irealbook", "Real=Book=Ballad=C=n="+music)))
	if err != nil || len(songs) != 1 || songs[0].Err != nil {
		t.Fatalf("Parse: %v %+v", err, songs)
	}
	if len(songs[0].Notes) > 0 {
		t.Errorf("notes %q", songs[0].Notes)
	}
	var got []string
	for _, s := range songs[0].Content.Sections {
		for _, b := range s.Bars {
			got = append(got, b.Chords...)
		}
	}
	if len(got) != len(qualities) {
		t.Fatalf("%d chords, want %d: %q", len(got), len(qualities), got)
	}
	for i, q := range qualities {
		if m, _ := chord.Map("C" + q); got[i] != m.Symbol || !m.Exact {
			t.Errorf("C%s read as %q (Map: %+v)", q, got[i], m)
		}
	}
}
