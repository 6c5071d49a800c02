package ireal

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"tele/board"
)

// played is the bars of c in the order a band plays them, numbered 1, 2, … across sections, and each
// bar's chords (% followed back) in written order.
func played(t *testing.T, c board.Content) (order, chords string) {
	t.Helper()
	refs, err := c.PlayOrder()
	if err != nil {
		t.Fatal(err)
	}
	first := make([]int, len(c.Sections))
	for s := 1; s < len(c.Sections); s++ {
		first[s] = first[s-1] + len(c.Sections[s-1].Bars)
	}
	var nums, syms []string
	for _, r := range refs {
		nums = append(nums, strconv.Itoa(first[r.Section]+r.Bar+1))
	}
	var last []string
	for _, s := range c.Sections {
		for _, b := range s.Bars {
			if !b.Simile {
				last = b.Chords
			}
			syms = append(syms, strings.Join(last, " "))
		}
	}
	return strings.Join(nums, " "), strings.Join(syms, " | ")
}

// TestChartsAsWritten: patterns of real iReal Pro charts (the outside corpus test of 2026-12-03, its
// causes of lost forms and silently changed chords, each named) read with their form: the bars played
// in order, the chords, and the notes' codes. Each failed before this reader: the form was lost (played
// without the jump) or the chords were wrong.
func TestChartsAsWritten(t *testing.T) {
	for _, tt := range []struct {
		name, source, music string
		played, chords      string
		codes               []string // the notes' codes, in order
	}{
		{
			name:   "To Coda on a % bar",
			source: "corpus review, road signs: Q after a % bar (…Eb7XyQKcl Q ]), 71 songs lost their D.S.",
			music:  "T44*A[SC |D |E |x Q ]*B[F |G |A |B <D.S. al Coda>]*C[QC |D Z",
			played: "1 2 3 4 5 6 7 8 1 2 3 4 9 10",
			chords: "C | D | E | E | F | G | A | B | C | D",
		},
		{
			name:   "To Coda just after a bar line",
			source: "corpus review, road signs: Q right after a bar line (…D#7,]Q)",
			music:  "T44*A[SC |D |E |F ]Q*B[G |A <D.S. al Coda>]*C[QC |D Z",
			played: "1 2 3 4 5 6 1 2 3 4 7 8",
			chords: "C | D | E | F | G | A | C | D",
		},
		{
			name:   "D.S. al Coda over a bar with no chord",
			source: "corpus review, road signs: jump text on a chordless bar (Boom Boom, I Just Want To Make Love To You)",
			music:  "T44*A[SC |D Q|E |F ]*B[G | <D.S. al Coda> ]*C[QC |D Z",
			played: "1 2 3 4 5 6 1 2 7 8",
			chords: "C | D | E | F | G | G | C | D",
		},
		{
			name:   "D.C. al Fine after the last bar line",
			source: "corpus review, road signs: the jump text after the last bar's bar line",
			music:  "T44[C |D <Fine>|E |F Z<D.C. al Fine>",
			played: "1 2 3 4 1 2",
			chords: "C | D | E | F",
		},
		{
			name:   "D.C. al 2nd ending",
			source: "corpus review, 24-song sample: Cheese Cake (<D.C. al 2nd End.>), 47 charts write al 2nd/1st ending",
			music:  "T44*A{C |D |N1E |F }N2G |A ]*B[B |E7 <*74D.C. al 2nd End.>Z",
			played: "1 2 3 4 1 2 5 6 7 8 1 2 5 6",
			chords: "C | D | E | F | G | A | B | E7",
			codes:  []string{"al_ending_fine"},
		},
		{
			name:   "D.C. al 1st ending: the band takes ending 1 and ends there",
			source: "corpus review, road signs: al 1st ending (27 charts kept no jump)",
			music:  "T44*A{C |D |N1E |F }N2G |A ]*B[B |E7 <D.C. al 1st ending>Z",
			played: "1 2 3 4 1 2 5 6 7 8 1 2 3 4",
			chords: "C | D | E | F | G | A | B | E7",
			codes:  []string{"al_ending_fine"},
		},
		{
			name:   "after solos, D.C. al Fine",
			source: "corpus review, road signs: text not understood (after solos, D.C. al Fine)",
			music:  "T44*A[C |D <Fine>]*B{E |F <after solos, D.C. al Fine>}",
			played: "1 2 3 4 3 4 1 2",
			chords: "C | D | E | F",
		},
		{
			name:   "After solos D.C. al fine, without a comma",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Slipped Disc (<After solos D.C. al fine>Ab6XyQZ): the text was left out",
			music:  "T44*A[C |D <Fine>]*B{E |F <After solos D.C. al fine>}",
			played: "1 2 3 4 3 4 1 2",
			chords: "C | D | E | F",
		},
		{
			name:   "a sentence before D.S. al Coda",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Midnight Blue (<Solos on CD, after solos D.S. al Coda>): the text was left out",
			music:  "T44*A[SC |D Q|E |F <Solos on CD, after solos D.S. al Coda>]*C[QG |A Z",
			played: "1 2 3 4 1 2 5 6",
			chords: "C | D | E | F | G | A",
		},
		{
			name:   "<x4> for <4x>",
			source: "corpus review, repeat counts: <x4>, <X8> (80 texts) were left out and played twice",
			music:  "T44[C |{D |E <x4>}F Z",
			played: "1 2 3 2 3 2 3 2 3 4",
			chords: "C | D | E | F",
		},
		{
			name:   "custom chord text",
			source: "corpus review, silent changes: Closer (C | A*m*), Martha's Prize (C*-^*), Db*+4*",
			music:  "T44*A[C |A*m* |C*-^* |Db*+4* |E*zz*/G# Z",
			played: "1 2 3 4 5",
			chords: "C | Am | Cm(maj7) | Dbaug | E/G#",
			codes:  []string{"chord_nearest", "chord_nearest"}, // C-^ is the catalogue's m(maj7): no note
		},
		{
			name:   "uneven rhythm is kept (beats_test.go checks the beats)",
			source: "corpus review, silent changes: Reconsider Baby (G/D Ab13, G7 p: 1+1+2 beats), at least 46 songs",
			music:  "T44[C |G/D Ab13, G7 p|C p p G7 |C p G7 p Z",
			played: "1 2 3 4",
			chords: "C | G/D Ab13 G7 | C G7 | C G7",
		},
		{
			name:   "a % bar with a chord in it",
			source: "corpus review, silent changes: x F7 in Beer Barrel Polka 1",
			music:  "T44[C |x F7 |G Z",
			played: "1 2 3",
			chords: "C | F7 | G",
			codes:  []string{"simile_with_chords"},
		},
		{
			name:   "a count-in bar before x",
			source: "corpus review, refusals row I: Yesterday, Smoke On The Water, Bouncin' Around (the first bar cannot be %)",
			music:  "T44[<count in> |x |C |F Z",
			played: "1 2 3 4",
			chords: "N.C. | N.C. | C | F",
			codes:  []string{"text_left_out", "count_in"},
		},
		{
			name:   "slashes before the first chord",
			source: "corpus review, refusals row I: a stray p in the first bar",
			music:  "T44[p |C |F Z",
			played: "1 2 3",
			chords: "N.C. | C | F",
			codes:  []string{"count_in"},
		},
		{
			name:   "D.C. al Fine written over the bar before the last",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Caravan (G7XyQ<D.C. al Fine>|Db7 Z); also Estate, I'll Remember April, Love For Sale, Yes And No",
			music:  "T44*A[C7 |F- <Fine>]*B[F7 |G7 <D.C. al Fine>|Db7 Z",
			played: "1 2 3 4 5 1 2",
			chords: "C7 | Fm | F7 | G7 | Db7",
			codes:  []string{"jump_moved"},
		},
		{
			name:   "D.C. al Coda written a bar before the coda's double bar",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Invitation (D7alt<D.C. al Coda>|G7alt]…Q); also Nica's Dream, Meditation, Speak Low",
			music:  "T44*A[C |D Q|E |F ]*B[G |A <D.C. al Coda>|B ]*C[QC |D Z",
			played: "1 2 3 4 5 6 7 1 2 8 9",
			chords: "C | D | E | F | G | A | B | C | D",
			codes:  []string{"jump_moved"},
		},
		{
			name:   "a plain D.C. in a chart with To Coda and a coda",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, I Got Rhythm (Eb7 Eo7,Q … Bb6 < D.C.>F7 ZYQ…); Save Your Love For Me with D.S.",
			music:  "T44*A[C |D Q|E |F < D.C.>]*C[QG |A Z",
			played: "1 2 3 4 1 2 5 6",
			chords: "C | D | E | F | G | A",
			codes:  []string{"jump_al_coda"},
		},
		{
			name:   "first and second endings with no start repeat",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Freddie Freeloader, Lover Man, Our Delight, Ol' Man River (N1 … } with no {): 16 charts were refused",
			music:  "T44*A[C |F |N1G }|N2D Z",
			played: "1 2 3 1 2 4",
			chords: "C | F | G | D",
			codes:  []string{"repeat_from"},
		},
		{
			name:   "an end repeat with no start after an earlier repeat",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Moanin', Little Dancer, Warm Valley (} with no {): 7 charts were refused",
			music:  "T44*A{C |D }*B[E |F }G Z",
			played: "1 2 1 2 3 4 3 4 5",
			chords: "C | D | E | F | G",
			codes:  []string{"repeat_from"},
		},
		{
			name:   "a section ending in } with no { after a last ending",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Here's To Life (… N2Bb^7 Kcl ][*B … Bb7sus Kcl }): the B section was played three times",
			music:  "T44*A[C |N1D }|N2E ]*B[F |G }*C[A Z",
			played: "1 2 1 3 4 5 4 5 6",
			chords: "C | D | E | F | G | A",
			codes:  []string{"repeat_from", "repeat_from"},
		},
		{
			name:   "D.C. al 3rd ending after the bridge",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Just One Of Those Things (N1 … }|N2 … ]*B … <D.C. al 3rd ending>C7 | Eh7 A7b9 ]|N3 …): 24 charts were refused",
			music:  "T44*A{C |N1D }|N2E ]*B[F <D.C. al 3rd ending>G |A ]|N3B |C Z",
			played: "1 2 1 3 4 5 1 6 7",
			chords: "C | D | E | F G | A | B | C",
			codes:  []string{"al_ending_jump"},
		},
		{
			name:   "D.C. al 3rd ending at the end of ending 2",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Day In, Day Out (N2 … <D.C. al 3rd end.>LZG7XyQ] N3 …)",
			music:  "T44*A{C |N1D }|N2E |F <D.C. al 3rd end.>|G ]|N3A |B Z",
			played: "1 2 1 3 4 5 1 6 7",
			chords: "C | D | E | F | G | A | B",
			codes:  []string{"al_ending_jump"},
		},
		{
			name:   "D.C. al 1st ending to the chart's own Fine in ending 1",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Goodbye, Lover (N1 … <Fine> } … <D.C. al 1st ending>); Cheese Cake and 20 others with al 2nd ending: the jump was left out",
			music:  "T44*A{C |N1D <Fine>}|N2E ]*B[F <D.C. al 1st ending>Z",
			played: "1 2 1 3 4 1 2",
			chords: "C | D | E | F",
			codes:  []string{"al_ending_fine"},
		},
		{
			name:   "To Coda and D.S. al Coda over one bar, a bar before the coda",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Tell me a bedtime story (B^9 G^9,Q,<D.S. al Coda>|E^9 sC^7#11 ]Y[Q…): To Coda was left out, then the jump",
			music:  "T44*A[C |SD |E |F ,Q,<D.S. al Coda>|G ]*C[QA |B Z",
			played: "1 2 3 4 5 2 3 4 6 7",
			chords: "C | D | E | F | G | A | B",
			codes:  []string{"jump_moved"},
		},
		{
			name:   "To Coda and D.S. al Coda on the bar before the coda",
			source: "the same chart with the jump where iReal Pro plays it: both signs stay on one bar (content schema version 3's toCoda)",
			music:  "T44*A[C |SD |E |F ,Q,<D.S. al Coda>]*C[QA |B Z",
			played: "1 2 3 4 2 3 4 5 6",
			chords: "C | D | E | F | A | B",
		},
		{
			name:   "ending 2 across two section marks to the end repeat before ending 3",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Warm Valley (N2 … ][*B … ][*A … }|N3 …): refused before",
			music:  "T44*A{C |N1D }|N2E ]*B[F ]*A[G }|N3A Z",
			played: "1 2 1 3 4 5 1 6",
			chords: "C | D | E | F | G | A",
		},
		{
			name:   "ending 1 across a section mark",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, One For My Baby, You're The Top; ireal-reader-django.txt Douce Ambience (N1 … ][*C … }): refused before",
			music:  "T44*A{C |N1D ]*B[E }|N2F Z",
			played: "1 2 3 1 4",
			chords: "C | D | E | F",
		},
		{
			name:   "Fine in ending 1",
			source: "ireal-reader-django.txt, Milko (N1 … <Fine> }): the D.C. al Fine was dropped",
			music:  "T44*A{C |N1D <Fine>}|N2E ]*B[F <D.C. al Fine>Z",
			played: "1 2 1 3 4 1 2",
			chords: "C | D | E | F",
		},
		{
			name:   "a start repeat that another start follows",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Brazilian Suite; ireal-reader-django.txt, Syracuse ({*i … YY{*A … }): refused before",
			music:  "T44*i{C |D |*A{E |F }G Z",
			played: "1 2 3 4 3 4 5",
			chords: "C | D | E | F | G",
			codes:  []string{"repeat_start_left_out"},
		},
		{
			name:   "a vamp inside a repeat",
			source: "corpus review, refusals row H: a vamp {…<6x>} nested in a repeat (Black Velvet)",
			music:  "T44*A{C |{D |E <3x>}F }G Z",
			played: "1 2 3 2 3 2 3 4 1 2 3 2 3 2 3 4 5",
			chords: "C | D | E | F | G",
		},
		{
			name:   "D.S. al Fine in a chart with no Fine",
			source: "ireal-reader-django.txt, La Folle (Valse Perurienne) (…|<D.S. al Fine>x } and no Fine): the jump was left out",
			music:  "T44*A[C |D ]*B[SE |F <D.S. al Fine>Z",
			played: "1 2 3 4 3 4",
			chords: "C | D | E | F",
			codes:  []string{"al_fine_no_fine"},
		},
		{
			name:   "D.C. al Fine with the player's end mark U and no Fine",
			source: "ireal-reader-django.txt, Swing 42 (<D.C. al Fine> … C,U, C#o7): the jump was left out",
			music:  "T44*A[C |D U|E <D.C. al Fine>Z",
			played: "1 2 3 1 2",
			chords: "C | D | E",
			codes:  []string{"fine_at_end_mark"},
		},
		{
			name:   "D.C. on cue over a vamp",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Speak Like A Child ({<Open>A-9, |<D.C. on cue>E9sus, }): the jump was left out as text",
			music:  "T44*A[C |D ]{E |<D.C. on cue>F }",
			played: "1 2 3 4 3 4 1 2 3 4",
			chords: "C | D | E | F",
			codes:  []string{"jump_on_cue"},
		},
		{
			name:   "D.C. al Fine whose Fine has To Coda, a coda after the jump",
			source: "ireal-reader-django.txt, La Camarde (<Fine>xQ } … <D.C. al Fine>D9#5 |n ]YQC-6): the jump was left out",
			music:  "T44*A{C |D |<Fine>xQ }*B[E <D.C. al Fine>|n ]Q[F |G Z",
			played: "1 2 3 1 2 3 4 5 1 2 3 6 7",
			chords: "C | D | D | E | N.C. | F | G",
			codes:  []string{"al_fine_coda", "jump_moved"},
		},
		{
			name:   "D.S. al Fine with a coda after it that no To Coda leads to",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Round Midnight (N2 … <Fine> ] … <D.S. al 2nd ending> … ]Y[Q …): the jump and the coda were left out",
			music:  "T44*A[SC |D <Fine>]*B[E <D.S. al Fine>|F ]Q[G |A Z",
			played: "1 2 3 4 1 2 5 6",
			chords: "C | D | E | F | G | A",
			codes:  []string{"al_fine_coda", "jump_moved"},
		},
		{
			name:   "D.C. al 1st ending with the chart's Fine in ending 2",
			source: "ireal-reader-django.txt, Coquette (N1 … } N2 … U<Fine> ] … <D.C. al 1st End.>A7 ]): the jump was left out",
			music:  "T44*A{C |N1D }|N2E <Fine>]*B[F <D.C. al 1st End.>]",
			played: "1 2 1 3 4 1 3",
			chords: "C | D | E | F",
			codes:  []string{"al_ending_later_fine"},
		},
		{
			name:   "D.S. al 2nd ending to an ending that holds To Coda, a stray ending 1",
			source: "ireal-reader-django.txt, Douce Ambience (N2 … Q ] … N1 … <D.S. al 2nd End.> … ] Q …): refused (ending 1 with no end repeat)",
			music:  "T44*A{SC |N1D }|N2E ,Q,]*B[F |N1G <D.S. al 2nd End.>]Q[A |B Z",
			played: "1 2 1 3 4 5 1 3 6 7",
			chords: "C | D | E | F | G | A | B",
			codes:  []string{"al_ending_coda", "ending_left_out"},
		},
		{
			name:   "ending 1 closed with ] before ending 2",
			source: "ireal-reader-django.txt, Spivy (N1C |G7,F#7] |N2C): refused (ending 2 inside ending 1)",
			music:  "T44*A[C |D ]*B[E |N1F ]|N2G Z",
			played: "1 2 3 4 3 5",
			chords: "C | D | E | F | G",
			codes:  []string{"ending_closed"},
		},
		{
			name:   "a vamp inside ending 1 is no stray ending",
			source: "the reading of ending 1 with no end repeat (Douce Ambience) must not take a vamp's start inside ending 1 for the ending's end",
			music:  "T44*A{C |N1D |{E |F }G }|N2A Z",
			played: "1 2 3 4 3 4 5 1 6",
			chords: "C | D | E | F | G | A",
		},
		{
			name:   "a start repeat that never ends",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Prism, They All Laughed ({ with no }): 4 charts were refused",
			music:  "T44*A{C |D |E |F Z",
			played: "1 2 3 4",
			chords: "C | D | E | F",
			codes:  []string{"repeat_start_left_out"},
		},
		{
			name:   "two jumps: D.C. al Fine after the head, D.S. al Fine after the solos, a Fine each",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Moanin': the second jump and Fine were left out, and the Fine over the bar r covers made a bar of its own",
			music:  "T44*A{C |D |r|  <Fine>  }*B[E |F <D.C. al Fine>]*A{SG |A |r|  <Fine>  }*B[B |C <D.S. al Fine>]",
			played: "1 2 3 4 1 2 3 4 5 6 1 2 3 4 7 8 9 10 7 8 9 10 11 12 7 8 9 10",
			chords: "C | D | C | D | E | F | G | A | G | A | B | C",
			codes:  []string{"two_bar_repeat"},
		},
		{
			name:   "two jumps: the D.C. al Fine taken again after the D.S. al Fine, the only way to the Fine",
			source: "e2e/crosscheck/corpus ireal-reader-django.txt, Belleville: the D.S. al Fine was left out, the D.C. al Fine moved to the end",
			music:  "T44*A{C |D |E |F <Fine>}*B[SG |A |B |C <D.C. al Fine>]*C{D |E |F |G <D.S. al Fine>}",
			played: "1 2 3 4 1 2 3 4 5 6 7 8 1 2 3 4 9 10 11 12 9 10 11 12 5 6 7 8 1 2 3 4",
			chords: "C | D | E | F | G | A | B | C | D | E | F | G",
		},
		{
			name:   "two jumps: the first written over the turnaround's first bar, a plain D.S. in the last ending",
			source: "e2e/crosscheck/corpus ireal-reader-django.txt, Artillerie Lourde: G7 <D.C. al Fine> | x ], the D.S. after the solos' N2 was left out",
			music:  "T44*A{C |D |E |F <Fine>}*B[SG |A |B <D.C. al Fine>|x ]*C{D |E |N1F }|N2G |C <D.S.> ]",
			played: "1 2 3 4 1 2 3 4 5 6 7 8 1 2 3 4 9 10 11 9 10 12 13 5 6 7 8 1 2 3 4",
			chords: "C | D | E | F | G | A | B | B | D | E | F | G | C",
			codes:  []string{"jump_moved_section"},
		},
		{
			name:   "two jumps: D.S. al Coda before the Fine bar, D.S. al Fine at the end of the coda",
			source: "e2e/crosscheck/corpus ireal-reader-django.txt, Mystérieuse: the D.S. al Fine was left out, and with it every sign",
			music:  "T44*A[SC |D |E |x Q ]*B[F |G ]*C[A |B <D.S. al Coda>|C <Fine>]*D[QE |F |G <D.S. al Fine>|x Z",
			played: "1 2 3 4 5 6 7 8 1 2 3 4 10 11 12 13 1 2 3 4 5 6 7 8 9",
			chords: "C | D | E | E | F | G | A | B | C | E | F | G | G",
			codes:  []string{"jump_moved"},
		},
		{
			name:   "two jumps: D.S. al Coda after a vamp, D.C. al Fine at the end, To Coda and Fine on one bar",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, Butterfly: the D.C. al Fine was left out, and with it every sign",
			music:  "T44*i{C |D }*A{SE |F }*B[G |A Q<Fine>|{B |C <3x><D.S. al Coda>}*C[QD |E |F <D.C. al Fine>Z",
			played: "1 2 1 2 3 4 3 4 5 6 7 8 7 8 7 8 3 4 5 6 9 10 11 1 2 3 4 5 6",
			chords: "C | D | E | F | G | A | B | C | D | E | F",
		},
		{
			name:   "a third jump is left out",
			source: "a chart has at most two jumps and two Fines (content schema version 4)",
			music:  "T44*A[C <Fine>|D <D.C. al Fine>|SE |F <Fine>|G <D.S. al Fine>|A <D.C.>]",
			played: "1 2 1 3 4 5 6 3 4",
			chords: "C | D | E | F | G | A",
			codes:  []string{"sign_third", "jump_moved"},
		},
		{
			name:   "a D.C. on cue over the coda's vamp is no second jump",
			source: "e2e/crosscheck/corpus accompaniser-jazz.url, This Masquerade: <D.C. on Cue> in the coda after a D.S. al Coda",
			music:  "T44*A[SC |D Q|E |F <D.S. al Coda>]*B{QG |A <D.C. on Cue>}",
			played: "1 2 3 4 1 2 5 6 5 6",
			chords: "C | D | E | F | G | A",
			codes:  []string{"jump_on_cue", "jump_on_cue_left_out"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			songs, err := Parse([]byte(link("irealbook", "Chart=Tele=Swing=C=n="+tt.music)))
			if err != nil || len(songs) != 1 || songs[0].Err != nil {
				t.Fatalf("Parse: %+v, %v", songs, err)
			}
			s := songs[0]
			order, chords := played(t, s.Content)
			if order != tt.played {
				t.Errorf("played %s\nwant   %s\nnotes %q", order, tt.played, s.Notes)
			}
			if chords != tt.chords {
				t.Errorf("chords %s\nwant   %s", chords, tt.chords)
			}
			var codes []string
			for _, c := range s.Codes {
				codes = append(codes, c.Code)
			}
			if !slices.Equal(codes, tt.codes) || len(s.Codes) != len(s.Notes) {
				t.Errorf("codes %q, want %q (notes %q)", codes, tt.codes, s.Notes)
			}
		})
	}
}

// scrambleRunes scrambles music as iReal Pro does, by characters (runes, which for ♪ and ♬ are UTF-16
// units too), written apart from swapBlocks so that it checks it.
func scrambleRunes(s string) string {
	r := []rune(s)
	for b := 0; len(r)-b > 51; b += 50 {
		blk := r[b : b+50]
		for i := 0; i < 5; i++ {
			blk[i], blk[49-i] = blk[49-i], blk[i]
		}
		for i := 10; i < 24; i++ {
			blk[i], blk[49-i] = blk[49-i], blk[i]
		}
	}
	return string(r)
}

// TestUnscrambleByCharacters: music holding ♪ and ♬ in its text (Best Of My Love in the corpus review:
// 18 of 20 such charts came out garbled or refused, swapped by bytes) reads as written.
func TestUnscrambleByCharacters(t *testing.T) {
	music := "[*AT44<♬ ♪ ♪ ♬ ♪ ♪ ♬>G9sus |C |G9sus |C |*B<♪ fade ♪>D-7 |G7 |C^7 |A7 |D-7 |G7 |C6 |x Z"
	if utf8.RuneCountInString(music) == len(music) {
		t.Fatal("the music must hold non-ASCII text")
	}
	songs, err := Parse([]byte(link("irealb", "Best Of My Love=Tele==Soul=C==1r34LbKcu7"+scrambleRunes(music)+"=Pop==0")))
	if err != nil || len(songs) != 1 || songs[0].Err != nil {
		t.Fatalf("Parse: %+v, %v", songs, err)
	}
	_, chords := played(t, songs[0].Content)
	if want := "G9sus4 | C | G9sus4 | C | Dm7 | G7 | Cmaj7 | A7 | Dm7 | G7 | C6 | C6"; chords != want {
		t.Fatalf("chords %s\nwant   %s\nnotes %q", chords, want, songs[0].Notes)
	}
}
