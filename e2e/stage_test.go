package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestStageMode drives stage mode and the grid a musician plays from (issue 13 item 3) in a real
// Chromium against a real `tele serve`: full screen with only the chart and the stage controls, by
// keyboard and by tap; the chord size remembered on this device and the bars a row following it; the
// page following the bar being played (instantly with reduced motion); the playing bar's WCAG AA
// contrast computed from the page's colours; a phone's four bars a row; chords never broken and never
// outside their bar at 390 px. English and 简体中文, desktop and phone, light and dark; screenshots in
// .audit/board/.
func TestStageMode(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "stage-song", ordinarySong())
	apiCreateBoard(t, s, "stage-long", playAlong())
	seven := ordinarySong()
	seven.BeatsPerBar = 7
	apiCreateBoard(t, s, "stage-seven", seven)

	t.Run("a phone shows four bars a row and never breaks a chord", func(t *testing.T) {
		for _, c := range []struct {
			id   string
			cols int
			opts []PageOption
		}{
			{"stage-song", 4, []PageOption{phone()}},
			{"stage-seven", 2, []PageOption{phone(), darkScheme()}},
		} {
			p := b.newPage(t, c.opts...)
			openBoard(p, s, c.id, capability)
			p.waitJS(fitPassesJS+` !== '0'`, "the chords fitted")
			if cols := evalJS[int](p, `getComputedStyle(document.querySelector('.bars')).gridTemplateColumns.split(' ').length`); cols != c.cols {
				t.Errorf("%s at 390 px: %d bars a row, want %d", c.id, cols, c.cols)
			}
			p.waitJS(chordsWholeJS+`.length === 0`, "every chord whole and inside its bar")
			if w := evalJS[float64](p, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
				t.Errorf("%s: the phone page overflows by %v px", c.id, w)
			}
			p.screenshot("board", "grid-"+c.id+"-phone")
			// The same in stage mode (the chord size stored on this device may differ: only wholeness).
			p.do(chromedp.Click(chromedp.ID("stage-toggle")))
			p.waitJS(`'stage' in document.documentElement.dataset`, "stage mode")
			checkStageOnly(t, p, c.id+" phone")
			p.waitJS(chordsWholeJS+`.length === 0`, "every chord whole and inside its bar in stage mode")
			p.screenshot("board", "stage-"+c.id+"-phone")
			p.do(chromedp.Click(chromedp.ID("stage-toggle")))
			p.waitJS(`!('stage' in document.documentElement.dataset)`, "stage mode left")
			p.requireClean(c.id)
		}
	})

	t.Run("stage mode by keyboard on a desktop: full screen, the chart only, size remembered, Esc leaves", func(t *testing.T) {
		p := b.newPage(t)
		openBoard(p, s, "stage-long", "")
		font0 := chordFont(p)
		p.do(chromedp.Focus(chromedp.ID("stage-toggle")), chromedp.KeyEvent(kb.Enter))
		p.waitJS(`'stage' in document.documentElement.dataset && document.fullscreenElement === document.documentElement`, "stage mode, full screen")
		checkStageOnly(t, p, "desktop en")
		if got := text(p, "stage-toggle-label"); got != "Leave stage" {
			t.Errorf("the stage control says %q in stage mode", got)
		}
		// Larger chords by keyboard, then by mouse: remembered on this device, fewer bars a row.
		p.do(chromedp.Focus(chromedp.ID("stage-larger")), chromedp.KeyEvent(kb.Enter))
		p.waitJS(`document.getElementById('stage-size-out').textContent === 'Chord size 115%'`, "115%")
		if f := chordFont(p); f <= font0 {
			t.Errorf("A+ made the chords %v px from %v px", f, font0)
		}
		for range 5 {
			p.do(chromedp.Click(chromedp.ID("stage-larger")))
		}
		p.waitJS(`document.getElementById('stage-size-out').textContent === 'Chord size 200%'`, "200%")
		if !evalJS[bool](p, `document.getElementById('stage-larger').disabled`) {
			t.Error("A+ is still offered at the largest size")
		}
		if got := evalJS[string](p, `localStorage.getItem('tele.stage.size')`); got != "200" {
			t.Errorf("tele.stage.size = %q", got)
		}
		big := chordFont(p)
		if cols := evalJS[int](p, `getComputedStyle(document.querySelector('.bars')).gridTemplateColumns.split(' ').length`); cols != 4 {
			t.Errorf("at 200%% on a desktop: %d bars a row, want 4", cols)
		}
		p.waitJS(chordsWholeJS+`.length === 0`, "every chord whole and inside its bar at 200%")
		p.screenshot("board", "stage-desktop-en-light")

		followAndContrast(t, p, 30, "desktop light")
		p.screenshot("board", "stage-playing-desktop-en-light")
		p.do(chromedp.Click(chromedp.ID("play")))
		p.waitJS(`document.getElementById('player').dataset.state === 'stopped'`, "the player stops")

		p.do(chromedp.KeyEvent(kb.Escape))
		p.waitJS(`!('stage' in document.documentElement.dataset) && !document.fullscreenElement`, "Esc leaves stage mode and full screen")
		if !evalJS[bool](p, `document.querySelector('.topbar').checkVisibility() && document.getElementById('view-panel').checkVisibility()`) {
			t.Error("after stage mode the header or the view controls stay hidden")
		}
		if f := chordFont(p); math.Abs(f-font0) > 0.01 {
			t.Errorf("outside stage mode the chords are %v px, were %v px", f, font0)
		}

		// The size is this device's: a reload keeps it.
		p.do(chromedp.Reload())
		waitBoardReady(p)
		p.do(chromedp.Click(chromedp.ID("stage-toggle")))
		p.waitJS(`'stage' in document.documentElement.dataset`, "stage mode again")
		if got := text(p, "stage-size-out"); got != "Chord size 200%" {
			t.Errorf("after a reload the size says %q", got)
		}
		if f := chordFont(p); math.Abs(f-big) > 0.01 {
			t.Errorf("after a reload the stage chords are %v px, were %v px", f, big)
		}
		p.do(chromedp.Click(chromedp.ID("stage-toggle")))
		p.waitJS(`!('stage' in document.documentElement.dataset) && !document.fullscreenElement`, "the control leaves stage mode")
		p.requireClean("stage on a desktop")
	})

	t.Run("stage mode on a phone: edit link, dark, 简体中文, reduced motion", func(t *testing.T) {
		p := b.newPage(t, phone(), browserLanguage("zh-CN"))
		emulateMedia(p, "", &emulation.MediaFeature{Name: "prefers-color-scheme", Value: "dark"},
			&emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"})
		openBoard(p, s, "stage-long", capability)
		if got := text(p, "stage-toggle-label"); got != "演出" {
			t.Errorf("the stage control says %q", got)
		}
		p.do(chromedp.Click(chromedp.ID("stage-toggle")))
		p.waitJS(`'stage' in document.documentElement.dataset && document.fullscreenElement === document.documentElement`, "stage mode on a phone")
		checkStageOnly(t, p, "phone zh")
		// The tab starts at the size stored on this device (another subtest may have left 200%); A− taps
		// bring it to 100%.
		for i := 0; i < 8 && text(p, "stage-size-out") != "和弦字号 100%"; i++ {
			p.do(chromedp.Click(chromedp.ID("stage-smaller")))
		}
		p.waitJS(`document.getElementById('stage-size-out').textContent === '和弦字号 100%'`, "the chords at 100%")
		if got := text(p, "stage-toggle-label"); got != "退出演出" {
			t.Errorf("the stage control says %q in stage mode", got)
		}
		if got := text(p, "title"); got != "Play along" {
			t.Errorf("stage mode on the edit page shows the title %q", got)
		}
		if cols := evalJS[int](p, `getComputedStyle(document.querySelector('.bars')).gridTemplateColumns.split(' ').length`); cols != 4 {
			t.Errorf("stage mode on a phone: %d bars a row, want 4", cols)
		}
		p.waitJS(chordsWholeJS+`.length === 0`, "every chord whole on the phone's stage")
		p.screenshot("board", "stage-phone-zh-dark")
		// Reduced motion: the page jumps to the bar as it is played, so it is in view at every step.
		followAndContrast(t, p, 48, "phone dark")
		for range 3 {
			at := evalJS[int](p, currentIndexJS)
			p.waitJS(currentIndexJS+` > `+strconv.Itoa(at), "the next bar")
			if !evalJS[bool](p, inViewJS) {
				t.Errorf("with reduced motion bar %d is out of view when it is played", evalJS[int](p, currentIndexJS)+1)
			}
		}
		p.screenshot("board", "stage-playing-phone-zh-dark")
		p.do(chromedp.Click(chromedp.ID("play")))
		p.do(chromedp.Click(chromedp.ID("stage-toggle")))
		p.waitJS(`!('stage' in document.documentElement.dataset) && !document.fullscreenElement`, "the control leaves stage mode")
		if !evalJS[bool](p, `document.getElementById('meta-form').checkVisibility() && !document.querySelector('.board-head.view-only').checkVisibility()`) {
			t.Error("after stage mode the edit page does not show its fields again")
		}
		p.requireClean("stage on a phone")
	})

	t.Run("outside stage mode the page follows the player too; the playing bar passes AA in light and dark", func(t *testing.T) {
		for _, c := range []struct {
			name string
			opts []PageOption
		}{{"light", nil}, {"dark", []PageOption{darkScheme()}}} {
			p := b.newPage(t, append([]PageOption{viewport(1024, 700)}, c.opts...)...)
			openBoard(p, s, "stage-long", "")
			followAndContrast(t, p, 36, "desktop "+c.name+" outside stage mode")
			p.screenshot("board", "player-follow-desktop-en-"+c.name)
			// Into stage mode while playing, in Chinese: the bar being played stays in view.
			switchLanguageScripted(p, "zh-CN")
			p.do(chromedp.Click(chromedp.ID("stage-toggle")))
			p.waitJS(`'stage' in document.documentElement.dataset && document.getElementById('stage-toggle-label').textContent === '退出演出'`, "stage mode in Chinese")
			checkStageOnly(t, p, "desktop zh "+c.name)
			at := evalJS[int](p, currentIndexJS)
			p.waitJS(currentIndexJS+` > `+strconv.Itoa(at+4)+` && `+inViewJS, "the bar being played in view in stage mode")
			p.screenshot("board", "stage-playing-desktop-zh-"+c.name)
			p.do(chromedp.Click(chromedp.ID("play")))
			p.do(chromedp.KeyEvent(kb.Escape))
			p.waitJS(`!('stage' in document.documentElement.dataset)`, "Esc leaves stage mode")
			p.requireClean("follow " + c.name)
		}
	})
}

// TestStageControlsAboveChatDock: on a phone with the chat panel docked at the bottom, the Stage and
// Print controls are reachable: scrolled to (as focus and scrollIntoView do), they stop above the panel
// and a tap reaches them.
func TestStageControlsAboveChatDock(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "dock")
	b := newBrowser(t)
	capBytes, err := os.ReadFile(filepath.Join(h.DataDir, "caps", "dock"))
	if err != nil {
		t.Fatal(err)
	}
	p := b.newPage(t, phone())
	openBoard(p, h.Server, "dock", strings.TrimSpace(string(capBytes)))
	p.waitJS(`!document.getElementById('chat').hidden && document.getElementById('chat').getBoundingClientRect().top < innerHeight`, "the chat panel at the bottom")
	hit := func(id string) bool {
		return evalJS[bool](p, fmt.Sprintf(`(() => {
			const el = document.getElementById(%s);
			const r = el.getBoundingClientRect();
			return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
		})()`, jsString(id)))
	}
	for _, id := range []string{"print", "stage-toggle"} {
		evalJS[chromedp.Void](p, `window.scrollTo(0, 0)`)
		p.do(chromedp.Focus(chromedp.ID(id)))
		if !hit(id) {
			t.Errorf("focused, #%s is under the chat panel (chat top %v, control %v)", id,
				evalJS[float64](p, `document.getElementById('chat').getBoundingClientRect().top`),
				evalJS[float64](p, fmt.Sprintf(`document.getElementById(%s).getBoundingClientRect().bottom`, jsString(id))))
		}
		evalJS[chromedp.Void](p, `window.scrollTo(0, document.documentElement.scrollHeight)`)
		evalJS[chromedp.Void](p, fmt.Sprintf(`document.getElementById(%s).scrollIntoView({block: 'nearest'})`, jsString(id)))
		if !hit(id) {
			t.Errorf("scrolled into view, #%s is under the chat panel", id)
		}
	}
	p.screenshot("board", "stage-controls-chat-dock-phone-en")
	p.do(chromedp.Click(chromedp.ID("stage-toggle")))
	p.waitJS(`'stage' in document.documentElement.dataset && !document.getElementById('chat').checkVisibility()`, "stage mode, the chat set aside")
	p.screenshot("board", "stage-chat-dock-phone-en")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!('stage' in document.documentElement.dataset) && document.getElementById('chat').checkVisibility()`, "the chat back after stage mode")
	p.requireClean("chat dock")
}

// checkStageOnly asserts that in stage mode only the chart and the stage controls show: no element with
// a visible box outside the head, the toolbar and the grid, and no control but the player's and stage's.
func checkStageOnly(t *testing.T, p *Page, what string) {
	t.Helper()
	got := evalJS[map[string][]string](p, `(() => {
		const keep = [...document.querySelectorAll('.board-head.view-only, .toolbar, .grid-wrap')];
		const outside = [];
		for (const el of document.body.querySelectorAll('*')) {
			if (keep.some((c) => c.contains(el) || el.contains(c))) continue;
			const r = el.getBoundingClientRect();
			if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || r.width <= 1 || r.height <= 1) continue;
			outside.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + String(el.className));
		}
		const controls = [...document.querySelectorAll('button, input, select, textarea, summary, a[href]')]
			.filter((el) => el.checkVisibility() && !el.closest('.grid-wrap'))
			.map((el) => el.id || el.tagName.toLowerCase() + '.' + el.className);
		return { outside, controls };
	})()`)
	if len(got["outside"]) > 0 {
		t.Errorf("%s: stage mode shows more than the chart: %v", what, got["outside"])
	}
	controls := strings.Join(got["controls"], " ")
	// The player's practice controls (click, the practice tempo) belong to the player in stage mode too.
	allowed := regexp.MustCompile(`^(play|count-in|loop|click|tempo-down|tempo-up|stage-toggle|stage-smaller|stage-larger)$`)
	for _, c := range got["controls"] {
		if !allowed.MatchString(c) {
			t.Errorf("%s: stage mode offers the control %q (all: %s)", what, c, controls)
		}
	}
	if !strings.Contains(controls, "stage-toggle") || !strings.Contains(controls, "stage-larger") || !strings.Contains(controls, "play") {
		t.Errorf("%s: stage mode lacks its own controls: %s", what, controls)
	}
}

const currentIndexJS = `[...document.querySelectorAll('#grid .bar')].findIndex((b) => b.classList.contains('is-current'))`

// inViewJS: the bar being played lies wholly in the window, below any sticky bar and above a chat
// panel docked at the bottom.
const inViewJS = `(() => {
	const bar = document.querySelector('#grid .bar.is-current');
	if (!bar) return false;
	const r = bar.getBoundingClientRect();
	let top = 0;
	for (const el of document.querySelectorAll('.topbar, .toolbar')) {
		const b = el.getBoundingClientRect();
		if (getComputedStyle(el).position === 'sticky' && b.height && b.top <= 1) top = Math.max(top, b.bottom);
	}
	return r.top >= top - 1 && r.bottom <= innerHeight + 1;
})()`

// followAndContrast plays the chart (no count-in) until bar `until`+1, which was out of view, and checks
// that the page brought it into view; then it computes the WCAG contrast of the playing bar from the
// page's own colours: every text on the highlight ≥ 4.5:1, the highlight against the page ≥ 3:1.
func followAndContrast(t *testing.T, p *Page, until int, what string) {
	t.Helper()
	if !evalJS[bool](p, fmt.Sprintf(`document.querySelectorAll('#grid .bar')[%d].getBoundingClientRect().top > innerHeight`, until)) {
		t.Fatalf("%s: bar %d is in view before playing; the chart is too short to show following", what, until+1)
	}
	if evalJS[bool](p, `document.getElementById('count-in').checked`) {
		if evalJS[bool](p, `document.getElementById('count-in').checkVisibility()`) {
			p.do(chromedp.Click(chromedp.ID("count-in")))
		} else {
			evalJS[chromedp.Void](p, `document.getElementById('count-in').checked = false`)
		}
	}
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'playing'`, "the player starts")
	p.waitJS(currentIndexJS+` >= `+strconv.Itoa(until), fmt.Sprintf("the player reaches bar %d", until+1))
	p.waitJS(inViewJS+` && window.scrollY > 0`, "the page scrolls the bar being played into view")

	c := evalJS[struct {
		Page  string            `json:"page"`
		Bar   string            `json:"bar"`
		Texts map[string]string `json:"texts"`
	}](p, `(() => {
		const bar = document.querySelector('#grid .bar.is-current');
		const texts = {};
		for (const el of bar.querySelectorAll('.bar-num, .chord .root, .chord .q, .chord .bass, .form-text')) {
			if (el.textContent.trim()) texts[el.className + ' ' + el.textContent] = getComputedStyle(el).color;
		}
		return { page: getComputedStyle(document.body).backgroundColor, bar: getComputedStyle(bar).backgroundColor, texts };
	})()`)
	if len(c.Texts) < 2 {
		t.Fatalf("%s: the playing bar shows no text to measure: %+v", what, c)
	}
	if r := contrastRatio(t, c.Bar, c.Page); r < 3 {
		t.Errorf("%s: the playing bar (%s) against the page (%s) is %.2f:1, want ≥ 3:1", what, c.Bar, c.Page, r)
	}
	for name, colour := range c.Texts {
		if r := contrastRatio(t, colour, c.Bar); r < 4.5 {
			t.Errorf("%s: %q (%s) on the playing bar (%s) is %.2f:1, want ≥ 4.5:1", what, name, colour, c.Bar, r)
		}
	}
}

// contrastRatio is WCAG 2's contrast ratio of two opaque CSS colours ("rgb(r, g, b)").
func contrastRatio(t *testing.T, a, b string) float64 {
	t.Helper()
	la, lb := relativeLuminance(t, a), relativeLuminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// relativeLuminance is WCAG 2's relative luminance of an sRGB colour.
func relativeLuminance(t *testing.T, css string) float64 {
	t.Helper()
	m := regexp.MustCompile(`^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$`).FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("colour %q is not rgb()", css)
	}
	if m[4] != "" && m[4] != "1" {
		t.Fatalf("colour %q is not opaque: its contrast depends on what is under it", css)
	}
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseFloat(m[i+1], 64)
		v /= 255
		if v <= 0.04045 {
			v /= 12.92
		} else {
			v = math.Pow((v+0.055)/1.055, 2.4)
		}
		l += w * v
	}
	return l
}

// chordFont is the computed font size of the grid's first chord, in CSS px.
func chordFont(p *Page) float64 {
	p.t.Helper()
	return evalJS[float64](p, `parseFloat(getComputedStyle(document.querySelector('#grid .chord')).fontSize)`)
}

// playAlong is a 192-bar chart at 300 BPM, one beat a bar: the player runs five bars a second, far
// past the first screen.
func playAlong() boardContent {
	c := boardContent{Title: "Play along", Key: "C", Tempo: 300, BeatsPerBar: 1}
	chords := []string{"Cmaj7", "Am7", "Dm7", "G7", "C7b9b13/Bb", "Bbmaj7/D", "F#m7b5", "B7alt"}
	for s := range 3 {
		sec := boardSection{Label: string(rune('A' + s))}
		for b := range 64 {
			sec.Bars = append(sec.Bars, []string{chords[(s+b)%len(chords)]})
		}
		c.Sections = append(c.Sections, sec)
	}
	return c
}
