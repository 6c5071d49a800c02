package e2e

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/chromedp/chromedp"
)

// lyricLine is a line of the content schema from a ChordPro line ("Am[G]azing"): its text and its
// chords at their offsets in UTF-16 code units, as the schema counts them.
func lyricLine(chordpro string) map[string]any {
	chords := []map[string]any{}
	var text strings.Builder
	for _, m := range regexp.MustCompile(`\[([^\]]+)\]|[^\[]+`).FindAllStringSubmatch(chordpro, -1) {
		if m[1] != "" {
			chords = append(chords, map[string]any{"at": len(utf16.Encode([]rune(text.String()))), "chord": m[1]})
			continue
		}
		text.WriteString(m[0])
	}
	return map[string]any{"text": text.String(), "chords": chords}
}

func lyricLines(lines ...string) []map[string]any {
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		out[i] = lyricLine(l)
	}
	return out
}

// lyricSong is a mixed board: a grid intro, verses of words with chords (a wide chord over a short
// syllable, an empty line with a chord, a long line that wraps on a phone, Chinese, emoji), a chorus
// and a recall of it.
func lyricSong() map[string]any {
	return map[string]any{
		"title": "Amazing Grace · 奇异恩典", "description": "", "key": "G", "tempo": 80, "beatsPerBar": 3,
		"sections": []map[string]any{
			{"label": "Intro", "role": "intro", "bars": [][]string{{"G"}, {"G7"}, {"C"}, {"G"}}},
			{"label": "Verse 1", "role": "verse", "lines": lyricLines(
				"A[G]mazing grace, [G7]how sweet the [C]sound",
				"[G]That saved a [Em7]wretch like [D]me",
				"I [Gmaj7/B]on[C#m7b5]ce was lost, but [D7sus4]now am found",
				"[D]",
				"Through [G]many dangers, toils and [C]snares, I have al[G]ready come; 'tis grace hath [D]brought me safe thus far",
			)},
			{"label": "第二段", "role": "verse", "lines": lyricLines(
				"[G]奇异恩[C]典，何等[G]甘甜，我罪已得[D7]赦免",
				"🎸 [G]Was blind but 🎵 [C]now I see",
			)},
			{"label": "Chorus", "role": "chorus", "lines": lyricLines(
				"[G]'Twas grace that [C]taught my heart to [G]fear",
				"And grace my fears re[D]lieved[G]",
			)},
			{"label": "", "recall": "chorus"},
		},
	}
}

func openLyricBoard(t *testing.T, b *Browser, s *Server, id, capability string, opts ...PageOption) *Page {
	t.Helper()
	p := b.newPage(t, opts...)
	openBoard(p, s, id, capability)
	p.waitJS(`document.querySelectorAll('.lyric-line').length > 0`, "the lines of words")
	return p
}

// lyricLayout is what the page drew: each chord against its syllable, chords of a row against each
// other, lines wrapped.
type lyricLayout struct {
	ScrollWidth, InnerWidth float64
	Lines, Wrapped, Chords  int
	Apart                   []string // a chord not standing over the start of its syllable
	Overlaps                []string // two chords of one row running into each other
	Chorus                  string   // the recall's words
	Roles                   []string
	FirstChords             string // the chords of the first line, as drawn
}

const lyricLayoutJS = `(() => {
	const out = { ScrollWidth: document.documentElement.scrollWidth, InnerWidth: window.innerWidth, Chords: 0, Apart: [], Overlaps: [], Roles: [] };
	const lines = [...document.querySelectorAll('.lyric-line')];
	out.Lines = lines.length;
	out.Wrapped = lines.filter((l) => new Set([...l.querySelectorAll('.lt')].map((t) => Math.round(t.getBoundingClientRect().top))).size > 1).length;
	for (const l of lines) {
		const chords = [];
		for (const piece of l.querySelectorAll('.lp')) {
			const c = piece.querySelector('.lc .chord');
			if (!c) continue;
			const r = c.getBoundingClientRect(), t = piece.querySelector('.lt').getBoundingClientRect();
			if (Math.abs(r.left - t.left) > 1 || r.bottom > t.top + 1) out.Apart.push(c.textContent + ' over ' + piece.textContent);
			chords.push({ name: c.textContent, r });
		}
		out.Chords += chords.length;
		for (let i = 1; i < chords.length; i++) {
			const a = chords[i - 1], b = chords[i];
			if (Math.abs(a.r.top - b.r.top) < 2 && a.r.right > b.r.left - 2) out.Overlaps.push(a.name + ' / ' + b.name);
		}
	}
	out.Chorus = document.querySelector('.lyric-recall')?.textContent || '';
	out.Roles = [...document.querySelectorAll('.role-name:not([hidden])')].map((e) => e.textContent);
	out.FirstChords = [...(lines[0]?.querySelectorAll('.lc .chord') || [])].map((c) => c.textContent).join(' ');
	return out;
})()`

func checkLyricLayout(t *testing.T, p *Page, what string, wantWrap bool) lyricLayout {
	t.Helper()
	got := evalJS[lyricLayout](p, lyricLayoutJS)
	if got.ScrollWidth > got.InnerWidth {
		t.Errorf("%s: horizontal overflow, %v > %v", what, got.ScrollWidth, got.InnerWidth)
	}
	if got.Lines != 11 || got.Chords != 30 {
		t.Errorf("%s: %d lines with %d chords drawn, want 11 with 30 (the recall repeats the chorus's 2 lines)", what, got.Lines, got.Chords)
	}
	if len(got.Apart) > 0 {
		t.Errorf("%s: chords not over their syllables: %q", what, got.Apart)
	}
	if len(got.Overlaps) > 0 {
		t.Errorf("%s: chords running into each other: %q", what, got.Overlaps)
	}
	// On a phone the long lines wrap (each chord still over its syllable, checked above); on a desktop
	// only the longest one does.
	if wantWrap && got.Wrapped < 2 {
		t.Errorf("%s: %d lines wrapped on a phone, want the long ones (2 or more)", what, got.Wrapped)
	}
	if !wantWrap && got.Wrapped > 1 {
		t.Errorf("%s: %d lines wrapped on a desktop, want at most the longest", what, got.Wrapped)
	}
	return got
}

// TestLyricsPage: a song of words and chords (issue 25) on a phone and a desktop, in both languages,
// light and dark: every chord stands over the syllable it falls on, no two chords run into each
// other (a wide chord pushes its word apart), a long line wraps on a phone with each chord on its
// syllable, the recall of the chorus reads "Chorus" / "副歌", section roles show as for bars; the view's
// transposition and numbers reach the line chords.
func TestLyricsPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	song := lyricSong()
	apiCreateBoard(t, s, "grace", song)

	for _, c := range []struct {
		name   string
		opts   []PageOption
		wrap   bool
		chorus string
		role   string
	}{
		{"phone-en-light", []PageOption{phone()}, true, "Chorus", "Verse"},
		{"phone-zh-dark", []PageOption{phone(), darkScheme(), browserLanguage("zh-CN")}, true, "副歌", "主歌"},
		{"desktop-en-dark", []PageOption{desktop(), darkScheme()}, false, "Chorus", "Verse"},
		{"desktop-zh-light", []PageOption{desktop(), browserLanguage("zh-CN")}, false, "副歌", "主歌"},
	} {
		p := openLyricBoard(t, b, s, "grace", "", c.opts...)
		got := checkLyricLayout(t, p, c.name, c.wrap)
		if got.Chorus != c.chorus {
			t.Errorf("%s: the recall reads %q, want %q", c.name, got.Chorus, c.chorus)
		}
		if !strings.Contains(strings.Join(got.Roles, ","), c.role) {
			t.Errorf("%s: section roles %q, want %q among them", c.name, got.Roles, c.role)
		}
		if got.FirstChords != "G G7 C" {
			t.Errorf("%s: the first line's chords are %q, want G G7 C", c.name, got.FirstChords)
		}
		p.requireClean(c.name)
		p.screenshot("lyrics", "song-"+c.name)
	}

	t.Run("transpose and numbers reach the line chords", func(t *testing.T) {
		p := openLyricBoard(t, b, s, "grace", "", phone())
		p.do(chromedp.Click(`#view-panel summary`), chromedp.Click(chromedp.ID("view-up")), chromedp.Click(chromedp.ID("view-up")))
		p.waitJS(`[...document.querySelectorAll('.lyric-line')][0].querySelector('.lc .chord').textContent === 'A'`, "the line chords in A")
		got := checkLyricLayout(t, p, "transposed", true)
		if got.FirstChords != "A A7 D" {
			t.Errorf("transposed up a tone: %q, want A A7 D", got.FirstChords)
		}
		p.screenshot("lyrics", "song-transposed-phone-en")
		p.do(chromedp.Click(chromedp.ID("view-numbers")))
		p.waitJS(`[...document.querySelectorAll('.lyric-line')][0].querySelector('.lc .chord').textContent === '1'`, "the line chords as numbers")
		got = checkLyricLayout(t, p, "numbers", true)
		if got.FirstChords != "1 17 4" {
			t.Errorf("as numbers: %q, want 1 17 4", got.FirstChords)
		}
		p.screenshot("lyrics", "song-numbers-phone-en")
		p.requireClean("transpose and numbers")
	})
}

// TestLyricsTransposeLongSong: in a song of 200 lines, a transposition reaches every chord of every
// line, those far from the window too (they take theirs a moment later, lyrics-view.js), and no two
// chords of a row run into each other afterwards, on a phone and a desktop, in both languages.
func TestLyricsTransposeLongSong(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "longest-song", longestSong())
	for _, c := range []struct {
		name string
		opts []PageOption
	}{
		{"phone-zh", []PageOption{phone(), browserLanguage("zh-CN")}},
		{"desktop-en", []PageOption{desktop()}},
	} {
		p := openLyricBoard(t, b, s, "longest-song", "", c.opts...)
		p.waitJS(`document.querySelectorAll('.lyric-line').length === 200`, "every line")
		evalJS[bool](p, `(window.__was = [...document.querySelectorAll('.lc .chord')].map((e) => e.textContent)).length > 0`)
		p.do(chromedp.Click(`#view-panel summary`), chromedp.Click(chromedp.ID("view-up")))
		p.waitJS(`(() => {
			const now = [...document.querySelectorAll('.lc .chord')].map((e) => e.textContent);
			return now.length === window.__was.length && now.every((c, i) => c !== window.__was[i]);
		})()`, c.name+": every chord of every line transposed")
		overlaps := evalJS[[]string](p, `(() => {
			const out = [];
			for (const l of document.querySelectorAll('.lyric-line')) {
				const rs = [...l.querySelectorAll('.lc .chord')].map((c) => ({ name: c.textContent, r: c.getBoundingClientRect() }));
				for (let i = 1; i < rs.length; i++) {
					if (Math.abs(rs[i - 1].r.top - rs[i].r.top) < 2 && rs[i - 1].r.right > rs[i].r.left - 2) out.push(rs[i - 1].name + ' / ' + rs[i].name);
				}
			}
			return out;
		})()`)
		if len(overlaps) > 0 {
			t.Errorf("%s: chords running into each other after transposing: %q", c.name, overlaps)
		}
		p.requireClean(c.name)
	}
}
