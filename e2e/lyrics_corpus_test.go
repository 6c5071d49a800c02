package e2e

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	teleboard "tele/board"
	"tele/chord"
	"tele/chordpro"
)

// lyricsCorpusImportFloor is the share of the lyric corpus that must import with no refusal.
const lyricsCorpusImportFloor = 0.95

// placedLine is a line of words with its chords' places (UTF-16 code units), as compared across readers.
type placedLine struct {
	Text string
	At   []int
}

// TestLyricsCorpus reads real ChordPro lyric files (crosscheck/corpus/lyrics, each file's source and
// licence in its SOURCES): at least 95% import with no refusal, every imported one writes and reads back
// to the same board, and ChordSheetJS reads the same lines with the chords at the same places.
func TestLyricsCorpus(t *testing.T) {
	dir := filepath.Join(corpusDir, "lyrics")
	listed := readSources(t, filepath.Join(dir, "SOURCES"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.cho"))
	if len(files) < 70 {
		t.Fatalf("%d lyric files", len(files))
	}
	texts := map[string]string{}
	boards := map[string]teleboard.Content{}
	for _, file := range files {
		name := filepath.Base(file)
		if !listed[name] {
			t.Errorf("%s has no line in SOURCES", name)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := chordpro.Read(data)
		if err != nil {
			t.Logf("%s: refused: %v", name, err)
			continue
		}
		back, notes, err := chordpro.Read(chordpro.Write(c))
		if err != nil || !reflect.DeepEqual(back, c) || len(notes) > 0 {
			t.Errorf("%s: export and import again: %v, notes %q", name, err, notes)
		}
		texts[name] = string(data)
		boards[name] = c
	}
	rate := float64(len(boards)) / float64(len(files))
	t.Logf("lyric corpus: %d files, %d imported (%.1f%%)", len(files), len(boards), 100*rate)
	if rate < lyricsCorpusImportFloor {
		t.Errorf("%.1f%% imported, want at least %.0f%%", 100*rate, 100*lyricsCorpusImportFloor)
	}

	res := crosscheckRun(t, map[string]any{"lyrics": texts})
	agree, unread := 0, 0
	for _, name := range slices.Sorted(maps.Keys(boards)) {
		var theirs []placedLine
		if r := res.Lyrics[name]; len(r) == 1 && r[0].Error != "" {
			unread++ // ChordSheetJS's parser refuses the file (a directive it does not know)
			t.Logf("%s: ChordSheetJS cannot read it: %s", name, r[0].Error)
			continue
		}
		for _, l := range res.Lyrics[name] {
			var placed []placedChord
			for _, c := range l.Chords {
				placed = append(placed, placedChord{c.At, c.Chord})
			}
			if pl, ok := asTeleReads(l.Text, placed); ok {
				theirs = append(theirs, pl)
			}
		}
		ours := teleLines(boards[name])
		if reflect.DeepEqual(ours, theirs) {
			agree++
			continue
		}
		if why, ok := lyricsJudged[name]; ok {
			t.Logf("%s: ChordSheetJS reads it otherwise (%s): %s", name, why, firstDiff(ours, theirs))
			continue
		}
		t.Errorf("%s: Tele reads %d lines with chords, ChordSheetJS %d; first difference: %s", name, len(ours), len(theirs), firstDiff(ours, theirs))
	}
	t.Logf("ChordSheetJS places every chord of %d of the %d files it reads where Tele does (%d it cannot read)", agree, len(boards)-unread, unread)
}

// lyricsJudged are the files ChordSheetJS reads otherwise than Tele, each with why ChordSheetJS is wrong.
var lyricsJudged = map[string]string{
	"chordpro-t-020_crd.cho":         nbspWhy,
	"chordpro-t-basic01.cho":         nbspWhy,
	"chordpro-t-basic02.cho":         nbspWhy,
	"chordpro-t-latex-030_cho_1.cho": nbspWhy,
	"chordpro-t-ref-030_cho_1.cho":   nbspWhy,
	"chordpro-t-ref-031_cho_1.cho":   nbspWhy,
	"chordpro-t-ref-30_cho.cho":      nbspWhy,
	"chordpro-t-cho-cho003.cho":      "a # in the words (\"comes out as A#7\") ends its line for ChordSheetJS, as if it began a comment; ChordPro comments are whole lines",
	"chordpro-t-174_transpose.cho":   "ChordSheetJS reads the [D] inside {c: Modulate to [D]…} as a line of words with a chord; the directive is a comment",
}

// nbspWhy: ChordSheetJS leaves the no-break spaces of "home.     [G]\u00a0\u00a0…[D]" out of the words.
const nbspWhy = "ChordSheetJS drops the no-break spaces (U+00A0) between chords, so the chords after them move left"

type placedChord struct {
	at    int
	chord string
}

// asTeleReads is a line as ChordSheetJS reads it, with the two rules by which Tele's reader keeps a line
// a board can hold: a bracket that is no chord is left out, and two chords at one place get a space
// between them. Lines without a chord are not compared.
func asTeleReads(text string, chords []placedChord) (placedLine, bool) {
	units := utf16.Encode([]rune(text))
	var at []int
	shift := 0
	for _, c := range chords {
		sym := strings.TrimSpace(c.chord)
		if _, ok := chord.Map(sym); !ok || sym == "" {
			continue
		}
		p := c.at + shift
		if len(at) > 0 && p == at[len(at)-1] {
			units = slices.Insert(units, p, ' ')
			shift++
			p++
		}
		at = append(at, p)
	}
	if len(at) == 0 {
		return placedLine{}, false
	}
	return placedLine{string(utf16.Decode(units)), at}, true
}

// teleLines are the lines with chords of a board, in order.
func teleLines(c teleboard.Content) []placedLine {
	var out []placedLine
	for _, s := range c.Sections {
		for _, l := range s.Lines {
			if len(l.Chords) == 0 {
				continue
			}
			pl := placedLine{Text: l.Text}
			for _, ch := range l.Chords {
				pl.At = append(pl.At, ch.At)
			}
			out = append(out, pl)
		}
	}
	return out
}

func firstDiff(a, b []placedLine) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return fmt.Sprintf("Tele %q %v | ChordSheetJS %q %v", a[i].Text, a[i].At, b[i].Text, b[i].At)
		}
	}
	return "one has more lines"
}

// readSources lists the files a SOURCES file names.
func readSources(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			t.Fatalf("SOURCES line %q: want file, repository, path, commit, licence", line)
		}
		out[fields[0]] = true
	}
	return out
}
