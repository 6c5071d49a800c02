package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	teleboard "tele/board"
	"tele/chord"
	"tele/chordpro"
	"tele/ireal"
)

// corpusDir holds public real-book files, each with its source in SOURCES, and JUDGED: the charts whose
// play order differs from ireal-reader's, each with who is wrong and why.
var corpusDir = filepath.Join(crosscheckDir, "corpus")

// The floors of the corpus measures (docs/formats.md gives the numbers and the causes left). They only
// rise: a change that imports fewer charts, or loses more jumps, fails here.
const (
	corpusImportFloor = 0.99
	corpusJumpFloor   = 0.98
)

var (
	jumpTextRE = regexp.MustCompile(`(?i)D\.\s*[CS]\.`)
	// ireal-reader plays every repeat twice; a chart saying otherwise is played otherwise by Tele.
	repeatCountRE = regexp.MustCompile(`(?i)<[^>]*(\b[3-9]x|\bx[3-9])[^>]*>`)
)

// judged is one line of JUDGED: file, title, who plays the chart wrong (ireal-reader or tele), why.
type judged struct{ who, why string }

func readJudged(t *testing.T) map[string]judged {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "JUDGED"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]judged{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != 4 || p[2] != "ireal-reader" && p[2] != "tele" || p[3] == "" {
			t.Fatalf("JUDGED line %d: want file<TAB>title<TAB>ireal-reader|tele<TAB>reason, got %q", n, line)
		}
		out[p[0]+"\t"+p[1]] = judged{p[2], p[3]}
	}
	return out
}

// TestCrosscheckCorpus reads every file of the corpus with Tele's readers and with ireal-reader and
// ChordSheetJS, and measures what issue 24 asks of real books: the share of charts with chords that
// import, the share of charts with a D.C. or D.S. that keep the jump and play as the chart does, play
// order equal to ireal-reader's except where JUDGED says why, and no chord changed without a note.
func TestCrosscheckCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	sources, err := os.ReadFile(filepath.Join(corpusDir, "SOURCES"))
	if err != nil {
		t.Fatal(err)
	}
	irealFiles, choFiles := map[string]string{}, map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if name == "SOURCES" || name == "JUDGED" || e.IsDir() { // lyrics/: TestLyricsCorpus
			continue
		}
		if !strings.Contains(string(sources), "\n"+name+"\t") {
			t.Errorf("%s: not in SOURCES (every corpus file names its repository, path, commit and licence)", name)
		}
		data, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".cho") {
			choFiles[name] = string(data)
		} else {
			irealFiles[name] = string(data)
		}
	}
	res := crosscheckRun(t, map[string]any{"chordpro": choFiles, "irealSongs": irealFiles})
	corpusIReal(t, irealFiles, res)
	corpusChordPro(t, choFiles, res)
}

func corpusIReal(t *testing.T, files map[string]string, res crosscheckOut) {
	judgedDiffs := readJudged(t)
	seen := map[string]bool{}
	var songs, withChords, imported, withJump, keptJump, sameAsChart, compared, equal int
	var silent, unjudged []string
	differs := map[string]bool{}
	for _, name := range sortedKeys(files) {
		ours, err := ireal.Parse([]byte(files[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		theirs := res.IRealSongs[name]
		if len(theirs) != len(ours) {
			t.Fatalf("%s: Tele read %d songs, ireal-reader %d", name, len(ours), len(theirs))
		}
		for i, song := range ours {
			s := theirs[i]
			key := s.Title + "\x00" + s.Raw
			if seen[key] {
				continue
			}
			seen[key] = true
			songs++
			id := name + "\t" + s.Title
			hasChords := song.Err == nil && len(song.Content.Sections) > 0
			for _, m := range s.Measures {
				if slices.ContainsFunc(m, func(c string) bool { return c != "n" }) {
					hasChords = true
				}
			}
			if !hasChords {
				continue
			}
			withChords++
			if song.Err != nil {
				t.Logf("refused: %s: %v", id, song.Err)
				if jumpTextRE.MatchString(s.Raw) {
					withJump++
				}
				continue
			}
			imported++
			silent = append(silent, silentChanges(id, song, s.Measures)...)
			same := false
			if s.Error == "" {
				compared++
				played, _ := playedChords(t, song.Content)
				if reflect.DeepEqual(readerBars(s.Measures), played) {
					equal++
					same = true
				} else {
					differs[id] = true
					j, ok := judgedDiffs[id]
					switch {
					case !ok:
						unjudged = append(unjudged, fmt.Sprintf("%s\t%s\t%s", id, suggestWho(s.Raw), suggestWhy(s.Raw)))
					case j.who == "ireal-reader":
						same = true
					}
				}
			}
			if jumpTextRE.MatchString(s.Raw) {
				withJump++
				kept := slices.ContainsFunc(song.Content.Sections, func(sec teleboard.Section) bool {
					return slices.ContainsFunc(sec.Bars, func(b teleboard.Bar) bool {
						return strings.HasPrefix(string(b.Mark), "dc") || strings.HasPrefix(string(b.Mark), "ds")
					})
				})
				if kept {
					keptJump++
				}
				if kept && same {
					sameAsChart++
				} else {
					t.Logf("jump lost or played otherwise: %s (kept %v, same order %v)", id, kept, same)
				}
			}
		}
	}
	for id := range judgedDiffs {
		if !differs[id] {
			t.Errorf("JUDGED lists %q, which plays as ireal-reader's now (or is not in the corpus): remove the line", id)
		}
	}
	if len(unjudged) > 0 {
		t.Errorf("%d charts play otherwise than ireal-reader's reading and JUDGED does not say why; judge each (a suggestion):\n%s", len(unjudged), strings.Join(unjudged, "\n"))
	}
	if len(silent) > 0 {
		t.Errorf("%d chords changed without a note:\n%s", len(silent), strings.Join(silent, "\n"))
	}
	share := func(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
	t.Logf("iReal Pro corpus: %d distinct songs, %d with chords; imported %d (%.1f%%); with D.C./D.S. %d, jump kept %d (%.1f%%), kept and played as the chart %d (%.1f%%); compared with ireal-reader %d, equal %d (%.1f%%), judged differences %d",
		songs, withChords, imported, 100*share(imported, withChords), withJump, keptJump, 100*share(keptJump, withJump), sameAsChart, 100*share(sameAsChart, withJump),
		compared, equal, 100*share(equal, compared), len(judgedDiffs))
	if share(imported, withChords) < corpusImportFloor {
		t.Errorf("%.1f%% of the charts with chords import, below the floor %.0f%%", 100*share(imported, withChords), 100*corpusImportFloor)
	}
	if share(sameAsChart, withJump) < corpusJumpFloor {
		t.Errorf("%.1f%% of the charts with a D.C./D.S. keep it and play as the chart, below the floor %.0f%%", 100*share(sameAsChart, withJump), 100*corpusJumpFloor)
	}
}

// readerBars maps ireal-reader's measures to Tele's chord symbols (chord spelling is no difference).
func readerBars(measures [][]string) [][]string {
	var out [][]string
	for _, m := range measures {
		var bar []string
		for _, sym := range m {
			if sym == "n" {
				bar = append(bar, teleboard.NoChord)
				continue
			}
			if r, ok := chord.Map(sym); ok {
				sym = r.Symbol
			}
			bar = append(bar, sym)
		}
		out = append(out, bar)
	}
	return out
}

// silentChanges are the chords of the chart (as ireal-reader reads them) that Tele reads as another
// chord without a note saying so.
func silentChanges(id string, song ireal.Song, measures [][]string) []string {
	var out []string
	notes := strings.Join(song.Notes, "\n")
	for _, m := range measures {
		for _, sym := range m {
			if sym == "n" {
				continue
			}
			r, ok := chord.Map(sym)
			if ok && (r.Exact || strings.Contains(notes, sym+" became "+r.Symbol)) {
				continue
			}
			out = append(out, fmt.Sprintf("%s: %s read as %v (notes %q)", id, sym, r, song.Notes))
		}
	}
	return out
}

// suggestWho and suggestWhy judge a difference by the features ireal-reader is known to miss, as a
// starting point for the line in JUDGED.
func suggestWho(raw string) string {
	if repeatCountRE.MatchString(raw) {
		return "ireal-reader"
	}
	return "?"
}

func suggestWhy(raw string) string {
	switch {
	case repeatCountRE.MatchString(raw):
		return "ireal-reader plays every repeat twice; the chart gives a count: " + repeatCountRE.FindString(raw)
	case jumpTextRE.MatchString(raw):
		return "a D.C./D.S.: " + jumpTextRE.FindString(raw)
	}
	return "?"
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func corpusChordPro(t *testing.T, files map[string]string, res crosscheckOut) {
	var ok int
	for _, name := range sortedKeys(files) {
		c, notes, err := chordpro.Read([]byte(files[name]))
		if err != nil {
			t.Errorf("%s: Tele's ChordPro reader refused the grid: %v", name, err)
			continue
		}
		ok++
		// Every chord ChordSheetJS reads in the grids is one of Tele's, or a note names it.
		ours := map[string]bool{}
		for _, s := range c.Sections {
			for _, b := range s.Bars {
				for _, sym := range b.Chords {
					ours[sym] = true
				}
			}
		}
		joined := strings.Join(notes, "\n")
		for _, sec := range res.ChordPro[name].Sections {
			for _, sym := range sec.Chords {
				r, mapped := chord.Map(sym)
				// A word ChordSheetJS takes for a chord that Tele's catalogue does not read is margin
				// text to Tele (ChordSheetJS reads "repeat" as "undefinedpeat"), and a note may name a word as the
				// file writes it (the strum "d+" that ChordSheetJS reads as D+).
				if !mapped || ours[r.Symbol] || strings.Contains(strings.ToLower(joined), strings.ToLower(sym)) {
					continue
				}
				t.Errorf("%s: ChordSheetJS reads %q in a grid; Tele has no such chord and no note names it (notes %q)", name, sym, notes)
			}
		}
	}
	t.Logf("ChordPro corpus: %d grid files, %d imported", len(files), ok)
}
