package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	teleboard "tele/board"
	"tele/chord"
	"tele/chordpro"
	"tele/ireal"
)

// crosscheckDir holds the pinned npm readers (package-lock.json; `npm ci` there, as .ci/run does).
const crosscheckDir = "crosscheck"

// crosscheck runs check.mjs with the system node on the charts and decodes what the readers saw.
func crosscheck(t *testing.T, chordProTexts, irealLinks map[string]string) crosscheckOut {
	t.Helper()
	return crosscheckRun(t, map[string]any{"chordpro": chordProTexts, "ireal": irealLinks})
}

// crosscheckRun gives check.mjs its input as it is (irealSongs: whole corpus files, read song by song).
func crosscheckRun(t *testing.T, input map[string]any) crosscheckOut {
	t.Helper()
	node := crosscheckNode(t)
	in, _ := json.Marshal(input)
	cmd := exec.Command(node, "check.mjs")
	cmd.Dir = crosscheckDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.mjs: %v\n%s", err, stderr.String())
	}
	var res crosscheckOut
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("check.mjs answered %v: %s", err, out)
	}
	return res
}

type crosscheckOut struct {
	ChordPro map[string]struct {
		Error, Title, Key, Tempo, Time string
		Sections                       []struct {
			Label          string
			Chords, Unread []string
		}
	}
	Lyrics map[string][]struct {
		Error, Text string
		Chords      []struct {
			At    int
			Chord string
		}
	}
	IReal      map[string]json.RawMessage
	IRealSongs map[string][]struct {
		Title, Raw, Error string
		Measures          [][]string
	}
}

type irealSong struct {
	Title, Key    string
	BPM           int
	TimeSignature string
	Measures      [][]string
}

// TestChordProAgainstChordSheetJS: ChordSheetJS (the maintained ChordPro library on npm) reads Tele's
// ChordPro export of real-world charts and of every chord of the catalogue as Tele does: the title, key,
// tempo and time, one grid section per section with its label, and the chords of the bars in order.
// Two differences are known and asserted, so that a change on either side shows: ChordSheetJS does not
// read the six-nine chord as Tele spells it (C6/9: it takes /9 for a bass), nor N.C. (no chord), which it
// keeps as text.
func TestChordProAgainstChordSheetJS(t *testing.T) {
	boards := crosscheckBoards(t)
	texts := map[string]string{}
	for name, c := range boards {
		texts[name] = string(chordpro.Write(c))
	}
	res := crosscheckRun(t, map[string]any{"chordpro": texts, "lyrics": texts})
	for name, c := range boards {
		// The words Tele wrote: ChordSheetJS reads the same lines with the chords at the same places.
		var theirs []placedLine
		for _, l := range res.Lyrics[name] {
			var placed []placedChord
			for _, ch := range l.Chords {
				placed = append(placed, placedChord{ch.At, ch.Chord})
			}
			if pl, ok := asTeleReads(l.Text, placed); ok {
				theirs = append(theirs, pl)
			}
		}
		if ours := teleLines(c); !reflect.DeepEqual(ours, theirs) {
			t.Errorf("%s: lines with chords: %s", name, firstDiff(ours, theirs))
		}
		c.Sections = slices.DeleteFunc(slices.Clone(c.Sections), func(s teleboard.Section) bool { return len(s.Bars) == 0 })
		got := res.ChordPro[name]
		if got.Error != "" {
			t.Errorf("%s: ChordSheetJS: %s", name, got.Error)
			continue
		}
		if got.Title != c.Title || got.Key != c.Key || got.Tempo != strconv.Itoa(c.Tempo) || got.Time != fmt.Sprintf("%d/4", c.BeatsPerBar) {
			t.Errorf("%s: ChordSheetJS read title %q key %q tempo %q time %q", name, got.Title, got.Key, got.Tempo, got.Time)
		}
		if len(got.Sections) != len(c.Sections) {
			t.Errorf("%s: ChordSheetJS read %d grid sections, Tele wrote %d", name, len(got.Sections), len(c.Sections))
			continue
		}
		for i, s := range c.Sections {
			var want, unread []string
			for _, bar := range s.Bars {
				for _, sym := range bar.Chords {
					if strings.Contains(sym, "6/9") || sym == teleboard.NoChord {
						unread = append(unread, sym)
					} else {
						want = append(want, sym)
					}
				}
			}
			g := got.Sections[i]
			if g.Label != s.Label || !sameStrings(g.Chords, want) || !sameStrings(g.Unread, unread) {
				t.Errorf("%s section %d: ChordSheetJS read %q %q (unread %q)\nTele wrote %q %q (six-nine and N.C. %q)", name, i, g.Label, g.Chords, g.Unread, s.Label, want, unread)
			}
		}
	}
}

// TestIRealAgainstIRealReader: ireal-reader (an iReal Pro reader on npm) reads Tele's irealb:// export and
// hand-written iReal Pro links (with the real-world-style ones of ireal/testdata, a playlist among them)
// as Tele does: title, key, tempo and meter, and the measures it plays. Its player follows repeats, first,
// second and third endings, %, the two-bar repeat and D.S. al Coda as Tele's play order does, but not all
// of Tele's road signs (irealReaderDiffers), so for charts with those the chords it reads are compared
// as a set.
func TestIRealAgainstIRealReader(t *testing.T) {
	boards := map[string]teleboard.Content{}
	for name, js := range map[string]string{
		"plain": `{"title":"Plain","description":"","key":"Am","tempo":132,"beatsPerBar":4,"sections":[{"label":"A","bars":[["Am7"],{"chords":"%"},["Dm7","G7"],["Cmaj7/E"],["N.C."],["F#m7b5","B7b9"],["Em"],["E7#9"]]}]}`,
		"endings": `{"title":"Endings","description":"","key":"F","tempo":120,"beatsPerBar":4,"sections":[{"label":"A","bars":[
			{"chords":["F7"],"repeatStart":true},["Bb7"],{"chords":["F7","D7"],"ending":1},{"chords":["Gm7","C7"],"repeatEnd":2},{"chords":["F6"],"ending":2}]},
			{"label":"B","bars":[{"chords":["Bbmaj7"],"repeatStart":true},{"chords":["Bdim7"],"repeatEnd":2},["C7sus4"]]}]}`,
		"waltz": `{"title":"Waltz","description":"","key":"Eb","tempo":180,"beatsPerBar":3,"sections":[{"label":"Intro","role":"intro","bars":[["Eb"],{"chords":["Ab"],"beats":2}]},{"label":"A","bars":[["Eb"],["Bb7"],["Eb6"],["Eb6"]]}]}`,
		"beats": `{"title":"Beats","description":"","key":"C","tempo":100,"beatsPerBar":4,"sections":[{"label":"A","bars":[{"chords":["C","G7"],"durations":[3,1]},{"chords":["F","G","C"],"durations":[2,1,1]},["Am","D7"],{"chords":["G","G7"],"durations":[1,3]}]}]}`,
		"signs": `{"title":"Signs","description":"","key":"C","tempo":100,"beatsPerBar":4,"sections":[{"label":"A","bars":[{"chords":["C"],"mark":"segno"},["Am"],{"chords":["F"],"mark":"to-coda"},{"chords":["G7"],"repeatStart":true,"repeatEnd":3},{"chords":["C"],"mark":"ds-al-coda"}]},{"label":"C","bars":[{"chords":["Fm6"],"mark":"coda"},["C6/9"]]}]}`,
	} {
		c, err := teleboard.ParseContent([]byte(js))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		boards[name] = c
	}
	links := map[string]string{}
	for name, c := range boards {
		links[name] = string(ireal.Write(c))
	}
	// Hand-written links, as iReal Pro writes short charts (music under 52 characters is not scrambled).
	links["hand-blues"] = "irealb://" + strings.ReplaceAll(`Hand Blues=Tele==Medium Swing=Bb==1r34LbKcu7*A{T44Bb7 |Eb7 |Bb7 |F7 }=Jazz-Medium Swing=140=0`, " ", "%20")
	links["hand-minor"] = "irealb://" + strings.ReplaceAll(`Hand Minor=Tele==Ballad=C-==1r34LbKcu7[T34C-^7 |x |Dh7 G7b9 |C-6 Z=Jazz-Ballad=72=0`, " ", "%20")
	// The real-world-style links of Tele's own reader tests (ireal/testdata), but the irealbook:// one:
	// ireal-reader reads only irealb:// links.
	files, _ := filepath.Glob("../ireal/testdata/*.txt")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "irealb://") {
			continue
		}
		links["testdata/"+strings.TrimSuffix(filepath.Base(f), ".txt")] = string(data)
	}
	if len(links) < len(boards)+2+12 {
		t.Fatalf("%d links, want the ireal/testdata ones too", len(links))
	}
	res := crosscheck(t, nil, links)
	for name, link := range links {
		ours, err := ireal.Parse([]byte(link))
		if err != nil {
			t.Fatalf("%s: Tele's reader: %v", name, err)
		}
		if name == "testdata/refused" {
			// ireal-reader throws on the song without music, so it reads none of the list; Tele reads the
			// good song and refuses the others one by one (ireal.TestReadLinks).
			if !strings.Contains(string(res.IReal[name]), `"error"`) {
				t.Errorf("%s: ireal-reader read a list with a song without music: %s", name, res.IReal[name])
			}
			continue
		}
		var songs []irealSong
		if err := json.Unmarshal(res.IReal[name], &songs); err != nil || len(songs) != len(ours) {
			t.Errorf("%s: ireal-reader answered %s; Tele read %d songs", name, res.IReal[name], len(ours))
			continue
		}
		for i, s := range songs {
			if ours[i].Err != nil {
				t.Errorf("%s song %d: Tele's reader: %v", name, i, ours[i].Err)
				continue
			}
			c := ours[i].Content
			if c.Title != s.Title || strings.Replace(c.Key, "m", "-", 1) != s.Key || c.Tempo != s.BPM || strconv.Itoa(c.BeatsPerBar) != s.TimeSignature[:len(s.TimeSignature)-1] && s.TimeSignature != "12" {
				t.Errorf("%s: ireal-reader read %q key %q %d BPM, time %q; Tele %q key %q %d BPM, %d beats", name, s.Title, s.Key, s.BPM, s.TimeSignature, c.Title, c.Key, c.Tempo, c.BeatsPerBar)
			}
			if b, ok := boards[name]; ok && !reflect.DeepEqual(b, c) {
				t.Errorf("%s: Tele's reader does not read its own link back", name)
			}
			compareIRealMeasures(t, name, ours[i], s)
		}
	}
}

// irealReaderDiffers are the charts ireal-reader plays otherwise than Tele, so only the sets of chords
// are compared, with the chords only ireal-reader reads: it has no D.S. al Fine or To Coda of Tele's
// kind, plays a repeat twice whatever <3x> says, takes a text with its position prefix
// (<*74D.C. al Fine>) for no road sign, and reads alternate chords in parentheses as chords of the bar
// (Tele leaves them out, with a note).
var irealReaderDiffers = map[string][]string{
	"signs":                         nil,
	"testdata/vamp-three-times":     nil,
	"testdata/waltz-fine":           nil,
	"testdata/ds-al-fine-six-eight": nil,
	"testdata/alternates":           {"Am7", "Db7"},
}

// compareIRealMeasures compares the measures ireal-reader plays with Tele's play order of the song. A
// chord of ireal-reader's outside Tele's catalogue must be one Tele mapped to the nearest with a note.
func compareIRealMeasures(t *testing.T, name string, song ireal.Song, s irealSong) {
	t.Helper()
	played, heard := playedChords(t, song.Content)
	var theirs [][]string
	seen := map[string]bool{}
	for _, m := range s.Measures {
		var bar []string
		for _, sym := range m {
			if sym == "n" {
				bar = append(bar, teleboard.NoChord)
				continue
			}
			r, ok := chord.Map(sym)
			if !ok || !r.Exact && !strings.Contains(strings.Join(song.Notes, "\n"), sym+" became "+r.Symbol) {
				t.Errorf("%s: ireal-reader's chord %q is not one Tele reads exactly or notes (%v, notes %q)", name, sym, r, song.Notes)
			}
			bar = append(bar, r.Symbol)
		}
		theirs = append(theirs, bar)
		for _, sym := range bar {
			seen[sym] = true
		}
	}
	if extra, ok := irealReaderDiffers[name]; ok {
		want := map[string]bool{}
		for sym := range heard {
			want[sym] = true
		}
		for _, sym := range extra {
			want[sym] = true
		}
		if !reflect.DeepEqual(seen, want) {
			t.Errorf("%s: ireal-reader's chords %v, Tele's %v and %q", name, seen, heard, extra)
		}
		return
	}
	if !reflect.DeepEqual(theirs, played) {
		t.Errorf("%s: ireal-reader plays\n%q\nTele plays\n%q", name, theirs, played)
	}
}

// playedChords is the chords of c's bars in Tele's play order, and the set of them.
func playedChords(t *testing.T, c teleboard.Content) ([][]string, map[string]bool) {
	t.Helper()
	order, err := c.PlayOrder()
	if err != nil {
		t.Fatal(err)
	}
	// A % bar sounds the chords of the last bar written before it with chords.
	heard := make([][][]string, len(c.Sections))
	var last []string
	for s, sec := range c.Sections {
		for _, bar := range sec.Bars {
			if !bar.Simile {
				last = bar.Chords
			}
			heard[s] = append(heard[s], last)
		}
	}
	var out [][]string
	set := map[string]bool{}
	for _, r := range order {
		ch := heard[r.Section][r.Bar]
		out = append(out, ch)
		for _, s := range ch {
			set[s] = true
		}
	}
	return out, set
}

// crosscheckNode is the system Node.js, with the readers of e2e/crosscheck installed; it skips loudly
// without them (and fails when TELE_E2E_REQUIRED=1).
func crosscheckNode(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		requireTool(t, "node (the system Node.js)", "/nonexistent/node")
	}
	for _, pkg := range []string{"chordsheetjs", "ireal-reader"} {
		if _, err := os.Stat(filepath.Join(crosscheckDir, "node_modules", pkg, "package.json")); err != nil {
			msg := "SKIPPED: " + pkg + " is not installed: run `npm ci` in e2e/crosscheck (make test and .ci/run do)"
			if os.Getenv("TELE_E2E_REQUIRED") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node
}

// crosscheckBoards are the real-world charts of the ChordPro tests, the teaching example and a board of
// every chord of the catalogue.
func crosscheckBoards(t *testing.T) map[string]teleboard.Content {
	t.Helper()
	out := map[string]teleboard.Content{"example": teleboard.Example()}
	files, _ := filepath.Glob("../chordpro/testdata/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := teleboard.ParseContent(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = c
	}
	cat := teleboard.Catalogue()
	every := teleboard.Content{Title: "Every chord", Key: "Bb", Tempo: 120, BeatsPerBar: 4}
	var syms []string
	for i, q := range cat.Qualities {
		for j, r := range cat.Roots {
			sym := r.Name + q.Suffix
			if (i+j)%3 == 0 {
				sym += "/" + cat.Roots[(i*5+j)%len(cat.Roots)].Name
			}
			syms = append(syms, sym)
		}
	}
	for len(syms) > 0 {
		sec := teleboard.Section{Label: string(rune('A' + len(every.Sections)))}
		for len(syms) > 0 && len(sec.Bars) < teleboard.MaxBarsPerSection {
			n := min(len(syms), 2)
			sec.Bars = append(sec.Bars, teleboard.PlainBar(syms[:n]...))
			syms = syms[n:]
		}
		every.Sections = append(every.Sections, sec)
	}
	out["every-chord"] = every
	return out
}

func sameStrings(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}
