package board

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"tele/chord"
	"tele/costtest"
)

// FuzzParseContent: ParseContent never panics; content it accepts passes Validate, re-encodes to the
// length exactEncodedLen predicts (within encodedLenBound), is read back as stored (aliases rewritten), re-parses to the same value, and is what encoding/json reads too.
func FuzzParseContent(f *testing.F) {
	ex, _ := json.Marshal(Example())
	f.Add(ex)
	f.Add([]byte(specExample))
	f.Add([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"bars":[["C"]]}]}`))
	f.Add([]byte(`{"title":"😀 中","description":"\u2028<&>","key":"Bbm","tempo":300,"beatsPerBar":12,"sections":[{"label":"x","bars":[["N.C."],["C#m7b5/G","Ab13","E7#9","Gb7b9"]]}]}`))
	f.Add([]byte(`{"title":"a","title":"b"}`))
	f.Add([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"bars":[["C#mM7/G#","CΔ","Co","B♭ø"]]}]}`))
	f.Add([]byte(`{"title":"T","tempo":1e2,"beatsPerBar":4,"sections":[]}`))
	f.Add([]byte(`{"title":"T","tempo":90,"beatsPerBar":4,"sections":[{"bars":[{"chords":["C","G7"],"durations":[3,1]},{"chords":["Am","E7"],"durations":[2,1],"beats":3},{"chords":"%"}]}]}`))
	f.Add([]byte(`{"title":"T","artist":"A","composer":"B","style":"Ballad","tempo":90,"beatsPerBar":4,"sections":[{"label":"V","role":"chorus","bars":[["C"]],"lines":[{"text":"a😀 中文","chords":[{"at":0,"chord":"C"},{"at":3,"chord":"B♭ø"},{"at":6,"chord":"G"}]},{"text":""}]},{"label":"","recall":"chorus"}]}`))
	f.Add([]byte(`{"title":"T","tempo":90,"beatsPerBar":4,"sections":[{"label":"V","lines":[{"text":"<&>\u2028","chords":[{"at":1,"chord":"C#mM7/G#"}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c Content
		var err error
		// Reading and validating cost work linear in the body: at most 256 bytes allocated a byte of it
		// (a board of 496 bars allocates about 23).
		costtest.Bound(t, len(data), 64<<10, 256, func() { c, err = ParseContent(data) })
		if err != nil {
			if _, ok := errors.AsType[*ValidationError](err); !ok {
				t.Fatalf("ParseContent error %T %v is not a *ValidationError", err, err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted content fails Validate: %v", err)
		}
		enc, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if n := exactEncodedLen(c); n != len(enc) {
			t.Fatalf("exactEncodedLen %d, json.Marshal %d", n, len(enc))
		}
		if n := encodedLenBound(c); n < len(enc) {
			t.Fatalf("encodedLenBound %d < json.Marshal %d", n, len(enc))
		}
		// What the store keeps (aliases in the catalogue's spelling) is read back by the same rules.
		if stored, err := json.Marshal(c.storedCopy()); err != nil {
			t.Fatal(err)
		} else if _, err := ParseContent(stored); err != nil {
			t.Fatalf("the stored copy of accepted content is refused: %v", err)
		}
		back, err := ParseContent(enc)
		if err != nil {
			t.Fatalf("re-encoded content is refused: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the content:\n%#v\n%#v", c, back)
		}
		var viaStd Content
		if err := json.Unmarshal(data, &viaStd); err != nil {
			t.Fatalf("encoding/json refuses what ParseContent accepted: %v", err)
		}
		if !reflect.DeepEqual(viaStd, c) {
			t.Fatalf("encoding/json reads other content:\n%#v\n%#v", viaStd, c)
		}
		for _, s := range c.Sections {
			if len(s.Bars) > 0 && !s.Bars[0].Simile {
				if _, ok := chord.Parse(s.Bars[0].Chords[0]); !ok {
					t.Fatal("an accepted chord does not parse")
				}
			}
			for _, l := range s.Lines {
				for _, lc := range l.Chords {
					if _, ok := chord.Parse(lc.Chord); !ok {
						t.Fatal("an accepted chord of a line does not parse")
					}
				}
			}
		}
	})
}
