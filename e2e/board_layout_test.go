package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func testLayout(t *testing.T, s *Server, b *Browser) {
	// Section labels as charts name them: on a phone the label's box must still show the whole word.
	wide := sampleContent("Wide")
	wide.Sections[0].Label, wide.Sections[1].Label = "Intro", "Pre-Chorus"
	capability := apiCreateBoard(t, s, "wide", wide)
	for _, c := range []struct {
		name string
		opt  PageOption
		cols int
	}{{"phone", phone(), 4}, {"desktop", desktop(), 8}} {
		for _, mode := range []string{"edit", "readonly"} {
			p := b.newPage(t, c.opt)
			capa := capability
			if mode == "readonly" {
				capa = ""
			}
			openBoard(p, s, "wide", capa)
			m := evalJS[map[string]any](p, `(() => {
				const bars = document.querySelector('.bars');
				const chords = [...document.querySelectorAll('[data-path="sections[1].bars[2]"] .chord')].map((e) => e.getBoundingClientRect().width);
				return {
					scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
					cols: getComputedStyle(bars).gridTemplateColumns.split(' ').length,
					container: bars.getBoundingClientRect().width,
					chordA: chords[0], chordB: chords[1],
					sizeOne: parseFloat(getComputedStyle(document.querySelector('[data-path="sections[0].bars[0]"] .chord')).fontSize),
					sizeTwo: parseFloat(getComputedStyle(document.querySelector('[data-path="sections[1].bars[2]"] .chord')).fontSize),
				};
			})()`)
			if m["scrollWidth"].(float64) > m["innerWidth"].(float64) {
				t.Errorf("%s %s: horizontal overflow, scrollWidth %v > innerWidth %v", c.name, mode, m["scrollWidth"], m["innerWidth"])
			}
			if int(m["cols"].(float64)) != c.cols {
				t.Errorf("%s %s: %v bars per row (grid %vpx wide), want %d", c.name, mode, m["cols"], m["container"], c.cols)
			}
			if d := m["chordA"].(float64) - m["chordB"].(float64); d > 1 || d < -1 {
				t.Errorf("%s %s: two chords of one bar are %v and %v px wide, want equal shares", c.name, mode, m["chordA"], m["chordB"])
			}
			// Two chords that fit their halves are read from the stand nearly as large as one: "Em Em/D"
			// beside "Am7" (they were two thirds of its size on a desktop).
			if one, two := m["sizeOne"].(float64), m["sizeTwo"].(float64); two < 0.8*one {
				t.Errorf("%s %s: the chords of a two-chord bar are %.1f px, %.2f of a one-chord bar's %.1f px, want at least 0.8", c.name, mode, two, two/one, one)
			}
			for _, label := range evalJS[[]string](p, `[...document.querySelectorAll('.mark-input, h2.mark')]
				.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.value ?? el.textContent)`) {
				t.Errorf("%s %s: the section label %q is cut off in its box", c.name, mode, label)
			}
			p.requireClean(c.name + " " + mode)
			p.screenshot("board", fmt.Sprintf("layout-%s-%s-en", mode, c.name))
		}
	}
	// Dark colour scheme: the same page in prefers-color-scheme: dark, for the audit screenshots.
	for _, c := range []struct {
		name string
		opt  PageOption
	}{{"phone", phone()}, {"desktop", desktop()}} {
		p := b.newPage(t, c.opt, darkScheme())
		openBoard(p, s, "wide", capability)
		if !evalJS[bool](p, `matchMedia('(prefers-color-scheme: dark)').matches && getComputedStyle(document.body).backgroundColor !== 'rgb(246, 242, 234)'`) {
			t.Errorf("%s: the dark colour scheme is not applied", c.name)
		}
		p.requireClean(c.name + " dark")
		p.screenshot("board", "layout-edit-"+c.name+"-dark-en")
	}
}

func testLanguage(t *testing.T, s *Server, b *Browser) {
	content := sampleContent("Autumn Leaves · 秋叶")
	capability := apiCreateBoard(t, s, "lingo", content)
	p := b.newPage(t, phone())
	openBoard(p, s, "lingo", capability)
	// Four bars a row on a phone: the 16-bar board scrolls only about 300 px (less in Chinese, whose
	// labels are shorter); 200 px stays clear of either end.
	evalJS[chromedp.Void](p, `window.scrollTo(0, 200)`)
	before := languageState(p)
	if before.ScrollY < 200 {
		t.Fatalf("the phone page did not scroll (scrollY %v)", before.ScrollY)
	}
	if before.Lang != "en" {
		t.Fatalf("initial lang = %q, want en (browser language en-US, nothing stored)", before.Lang)
	}

	switchLanguage(p, kb.ArrowDown, "zh-CN")
	after := languageState(p)
	if after.Content != before.Content {
		t.Errorf("board content changed with the language:\n before %s\n after  %s", before.Content, after.Content)
	}
	if after.ScrollY != before.ScrollY {
		t.Errorf("scroll moved from %v to %v", before.ScrollY, after.ScrollY)
	}
	if after.Title == before.Title || !strings.Contains(after.Title, "和弦谱") || !strings.Contains(after.Title, content.Title) {
		t.Errorf("document.title %q → %q", before.Title, after.Title)
	}
	for name, want := range map[string]string{"play": "播放", "save": "保存", "langLabel": "语言", "section": "段落 A", "conn": "实时同步中"} {
		if after.Labels[name] != want {
			t.Errorf("%s label = %q, want %q", name, after.Labels[name], want)
		}
	}
	if !strings.HasPrefix(after.Labels["bar"], "编辑第 1 小节") || !strings.Contains(after.Labels["bar"], "Am7") {
		t.Errorf("bar button label = %q", after.Labels["bar"])
	}
	if got := evalJS[string](p, `localStorage.getItem('tele.locale')`); got != "zh-CN" {
		t.Errorf("tele.locale = %q", got)
	}
	p.requireClean("after switching to Chinese")
	p.screenshot("board", "language-switched-phone-zh")

	// The choice survives a reload.
	p.do(chromedp.Reload())
	waitBoardReady(p)
	if st := languageState(p); st.Lang != "zh-CN" || st.Labels["play"] != "播放" || st.Content != before.Content {
		t.Errorf("after reload: lang %q, play %q", st.Lang, st.Labels["play"])
	}
	p.screenshot("board", "edit-phone-zh")
	switchLanguage(p, kb.ArrowUp, "en")
	if st := languageState(p); st.Labels["play"] != "Play" || st.Labels["section"] != "Section A" {
		t.Errorf("back in English: %v", st.Labels)
	}

	// With storage disabled the page works (the capability lives in memory) and switching still works.
	q := b.newPage(t, storageDisabled())
	openBoard(q, s, "lingo", capability)
	if !evalJS[bool](q, `(() => { try { localStorage.length; return false; } catch { return true; } })()`) {
		t.Fatal("the storage-disabled page can reach localStorage")
	}
	if !evalJS[bool](q, `!document.getElementById('meta-form').hidden`) {
		t.Error("with storage disabled the edit link no longer gives edit mode")
	}
	switchLanguage(q, kb.ArrowDown, "zh-CN")
	if st := languageState(q); st.Labels["play"] != "播放" || !strings.Contains(st.Title, "和弦谱") {
		t.Errorf("with storage disabled: play %q, title %q", st.Labels["play"], st.Title)
	}
	q.requireClean("storage disabled")
	q.screenshot("board", "language-no-storage-desktop-zh")

	// Nothing stored: a Chinese browser gets Chinese.
	r := b.newPage(t, storageDisabled(), browserLanguage("zh-CN"))
	openBoard(r, s, "lingo", "")
	if st := languageState(r); st.Lang != "zh-CN" {
		t.Errorf("a zh-CN browser without a stored choice got lang %q", st.Lang)
	}
	r.requireClean("Chinese browser")
	r.screenshot("board", "readonly-desktop-zh")
}

type langState struct {
	Lang    string            `json:"lang"`
	Title   string            `json:"title"`
	Content string            `json:"content"`
	ScrollY float64           `json:"scrollY"`
	Labels  map[string]string `json:"labels"`
}

// languageState reads what a language switch must change (lang, title, labels) and what it must not
// (board content, scroll position).
func languageState(p *Page) langState {
	p.t.Helper()
	return evalJS[langState](p, `(() => {
		const text = (sel) => document.querySelector(sel)?.textContent ?? '';
		const val = (sel) => document.querySelector(sel)?.value ?? '';
		const content = JSON.stringify({
			grid: [...document.querySelectorAll('.chords')].map((e) => e.textContent),
			marks: [...document.querySelectorAll('.mark')].map((e) => e.value ?? e.textContent),
			title: val('#f-title') || text('#title'), description: val('#f-description') || text('#description'),
		});
		return {
			lang: document.documentElement.lang, title: document.title, content, scrollY: window.scrollY,
			labels: {
				play: text('#play-label'), save: text('#save'), langLabel: text('label[for="lang"]'),
				section: document.querySelector('.section').getAttribute('aria-label'),
				bar: (document.querySelector('.bar-btn') || document.querySelector('.bar')).getAttribute('aria-label'),
				conn: text('#conn-text'),
			},
		};
	})()`)
}

// switchLanguage changes the header's language select with the keyboard, as a user would.
func switchLanguage(p *Page, key, want string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(key))
	p.waitJS(fmt.Sprintf(`document.documentElement.lang === %s`, jsString(want)), "the page switches to "+want)
}
