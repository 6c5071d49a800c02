package ireal

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// scramble writes irealb:// test links.
func scramble(s string) string { return swapBlocks(s) }

func link(scheme, text string) string {
	return scheme + "://" + strings.ReplaceAll(url.PathEscape(text), "+", "%2B")
}

const bluesMusic = "T44*A{F7 |Bb7 |F7 |F7 |Bb7 |Bo7 |F7 |D7 |G-7 |C7 |N1F7 D7 |G-7 C7 }N2F7 Bb7 |F7 Z"

func parseContent(t *testing.T, js string) board.Content {
	t.Helper()
	c, err := board.ParseContent([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseSongs(t *testing.T) {
	blues := parseContent(t, `{"title":"Blue Form","description":"","key":"F","tempo":120,"beatsPerBar":4,"sections":[{"label":"A","bars":[
		{"chords":["F7"],"repeatStart":true},["Bb7"],["F7"],["F7"],["Bb7"],["Bdim7"],["F7"],["D7"],["Gm7"],["C7"],
		{"chords":["F7","D7"],"ending":1},{"chords":["Gm7","C7"],"repeatEnd":2},{"chords":["F7","Bb7"],"ending":2},["F7"]]}]}`)
	coda := parseContent(t, `{"title":"Road Signs","description":"","key":"Cm","tempo":160,"beatsPerBar":3,"sections":[
		{"label":"A","bars":[{"chords":["Cm"],"mark":"segno"},{"chords":"%"},["Fm7"],{"chords":["G7"],"mark":"to-coda"},["Cm"],{"chords":["Ab","G7"],"mark":"ds-al-coda"}]},
		{"label":"B","bars":[{"chords":["Cm"],"mark":"coda"},{"chords":["N.C."],"beats":2}]}]}`)
	for _, tt := range []struct {
		name, input string
		want        []board.Content
		notes       []string
	}{
		{"irealbook link", link("irealbook", "Blue Form=Tele=Medium Swing=F=n="+bluesMusic), []board.Content{blues}, nil},
		{"irealb link", link("irealb", "Blue Form=Tele==Medium Swing=F==1r34LbKcu7"+scramble(bluesMusic)+"=Jazz-Medium Swing==0"), []board.Content{blues}, nil},
		{"playlist in HTML with two songs", `<html><a href="` + link("irealb",
			"Blue Form=Tele==Medium Swing=F==1r34LbKcu7"+scramble(bluesMusic)+"=Jazz==0===Road Signs=Tele==Medium Swing=C-==1r34LbKcu7"+
				scramble("T34*A[SC- |x |F-7 |G7Q |C- |Ab G7<D.S. al Coda>]*B[QC- |T24n Z")+"=Jazz=160=0===My List") + `">list</a></html>`,
			[]board.Content{blues, coda}, nil},
		{"nearest chords and left-out text", link("irealbook", "Spell=Tele=Medium Swing=Bb=n=T44[Bb^7b9 |G-7(Gh7) |C-9 F13b9 |Bb6 <fade out>Z"),
			[]board.Content{parseContent(t, `{"title":"Spell","description":"","key":"Bb","tempo":120,"beatsPerBar":4,"sections":[{"label":"","bars":[["Bbmaj7"],["Gm7"],["Cm9","F13b9"],["Bb6"]]}]}`)},
			[]string{"Bb^7b9 became Bbmaj7", "alternate chords", `the text "fade out" was left out`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			songs, err := Parse([]byte(tt.input))
			if err != nil || len(songs) != len(tt.want) {
				t.Fatalf("Parse: %d songs, %v", len(songs), err)
			}
			for i, s := range songs {
				if s.Err != nil {
					t.Fatalf("song %d: %v", i, s.Err)
				}
				if !reflect.DeepEqual(s.Content, tt.want[i]) {
					t.Fatalf("song %d:\n%+v\nwant\n%+v\nnotes %q", i, s.Content, tt.want[i], s.Notes)
				}
				if tt.notes == nil && len(s.Notes) > 0 {
					t.Fatalf("notes %q", s.Notes)
				}
				for _, n := range tt.notes {
					if !strings.Contains(strings.Join(s.Notes, "\n"), n) {
						t.Fatalf("notes %q lack %q", s.Notes, n)
					}
				}
			}
		})
	}
	if _, err := Parse([]byte("no link here")); err != ErrNoLink {
		t.Fatalf("no link: %v", err)
	}
}

// FuzzParse: Parse never panics and costs at most workPerByte units of work a byte (work.go: a bound
// on the work counted, not on time, so it holds on any machine); what it accepts is valid content, and a
// song iReal Pro can hold comes back from Write and Parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(link("irealbook", "Blue Form=Tele=Medium Swing=F=n="+bluesMusic)))
	f.Add([]byte(link("irealb", "X=Y==Z=C==1r34LbKcu7"+scramble(bluesMusic+bluesMusic)+"=a==120")))
	// The form of content schema version 3: an ending reached by a jump, ending 1 across a section, a vamp.
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A{C |N1D }|N2E ]*B[F <D.C. al 3rd ending>G |A ]|N3B |C Z")))
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A{C |{D |E <3x>}N1F ]*B[G }|N2A <Fine>]*C[B <D.C. al 1st ending>Z")))
	// Jumps as real books write them: al Fine with no Fine or with U, on cue, a Fine that leads to the coda,
	// al ending to a later Fine or to To Coda, ending 1 closed with ] or never closed.
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A[C |D U|E <D.C. al Fine>Z")))
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A[C |D ]{E |<D.C. on cue>F }")))
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A{C |D |<Fine>xQ }*B[E <D.C. al Fine>|n ]Q[F |G Z")))
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A{SC |N1D }|N2E ,Q,]*B[F |N1G <D.S. al 2nd End.>]Q[A |B Z")))
	f.Add([]byte(link("irealbook", "Form=Tele=Swing=C=n=T44*A{C |N1D }|N2E <Fine>]*B[F |N1G ]|N2A <D.C. al 1st End.>]")))
	// Music the reader once misread: a section mark before a character of more than one byte.
	f.Add([]byte(link("irealbook", "Marks=Tele=Swing=C=n=*éC |*副D |*\xffE Z")))
	f.Add([]byte(link("irealbook", "Signs=Tele=Swing=C=n=H7 |C/H |A*m*/H |C7 W/H |J7 |C J |x K9 |é |\xff|/X|9 C|NC|Tx Z")))
	f.Add([]byte(link("irealbook", "Meters=Tele=Swing=C=n=T4|C|T13D|T0E|T3F|T68G|T12A Z")))
	f.Add([]byte(link("irealbook", "Counts=Tele=Swing=C=n={C <9x>}{D |E <10x>}{F <x12>}{G <1x>}{A <1000x>}")))
	files, _ := filepath.Glob("testdata/*.txt") // the real-world-style links of TestReadLinks
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, input := range costly() {
		if len(input) <= 16<<10 { // larger ones slow the fuzzer down; TestCostPerByte reads them
			f.Add([]byte(input))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > MaxBytes {
			return
		}
		w := newWork(context.Background(), len(data))
		songs, err := read(w, data)
		if errors.Is(err, ErrTooCostly) {
			t.Fatalf("%d bytes cost more than %d units of work", len(data), w.limit)
		}
		if err != nil {
			return
		}
		for _, s := range songs {
			if s.Err != nil {
				continue
			}
			if err := s.Content.Validate(); err != nil {
				t.Fatalf("song %q accepted but invalid: %v", s.Title, err)
			}
			// Written back as a link, a song that holds only what iReal Pro can reads as it was.
			if len(Lost(s.Content)) > 0 {
				continue
			}
			again, err := Parse(Write(s.Content))
			if err != nil || len(again) != 1 || again[0].Err != nil || !reflect.DeepEqual(again[0].Content, s.Content) {
				t.Fatalf("round trip of %q: %v\n%+v\n%s", s.Title, err, s.Content, Write(s.Content))
			}
		}
	})
}

// TestApostropheInTitle: iReal Pro leaves ' unescaped in a link (as encodeURIComponent does), so a title
// like "Don't Go" must not end the link; a single-quoted attribute still ends at its quote.
func TestApostropheInTitle(t *testing.T) {
	song := "Don't Go=Tele=Swing=F=n=" + bluesMusic
	escaped := strings.ReplaceAll(url.PathEscape(song), "%27", "'")
	for name, input := range map[string]string{
		"bare link":               "irealbook://" + escaped,
		"double-quoted attribute": `<a href="irealbook://` + escaped + `">Don't Go</a>`,
		"single-quoted attribute": `<a href='irealbook://` + strings.ReplaceAll(escaped, "'", "%27") + `'>x</a>`,
	} {
		t.Run(name, func(t *testing.T) {
			songs, err := Parse([]byte(input))
			if err != nil || len(songs) != 1 || songs[0].Err != nil {
				t.Fatalf("Parse(%q) = %+v, %v", input, songs, err)
			}
			if got := songs[0].Content.Title; got != "Don't Go" {
				t.Fatalf("title %q", got)
			}
		})
	}
}
