package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// firstViewChart is every form feature the grid draws, for the server's first view to be drawn as the
// page draws it: irealChart (roles, a repeat with three endings, the second ×3, a segno, %, To Coda, a
// meter change, beat positions, a four-chord bar, N.C., D.S. al Coda, a coda with its own repeat, a
// second jump), with a description, an ending over several bars, a D.C. al 3rd ending (an ending reached
// only by the jump, content schema version 3), To Coda beside another sign, a section without a label,
// and the accidentals the glyphs are drawn for: of a root, a quality's degrees and a bass (Cb, F#m7b5,
// Bbmaj7#11/Ab).
const firstViewChart = `{"title":"First view <of> everything","description":"Capo 3 & a <b>loose</b> feel.","composer":"Kosma","style":"Bossa Nova","key":"Gm","tempo":138,"beatsPerBar":4,"sections":[
 {"label":"Intro","role":"intro","bars":[["Gm7"],{"chords":["D7b9"],"beats":2,"mark":"fine"}]},
 {"label":"Verse","role":"verse","bars":[{"chords":["Cm7"],"repeatStart":true,"mark":"segno"},{"chords":"%"},{"chords":["F7","Bbmaj7#11/Ab"],"durations":[3,1]},{"chords":["Ebmaj7"],"ending":1,"repeatEnd":2},{"chords":["Am7b5","D7"],"ending":2,"repeatEnd":3},{"chords":["Gm6"],"ending":3,"mark":"to-coda"}]},
 {"label":"","bars":[["Cb"],["F#m7b5","B7b9"],["Em","Em/D","C#m7b5","F#7"],["Am7"]]},
 {"label":"Pre-Chorus","bars":[{"chords":["Cm7","F7","Bbmaj7","Ebmaj7"]},{"chords":["N.C."],"mark":"ds-al-coda"}]},
 {"label":"Coda","bars":[{"chords":["Gm"],"mark":"coda","repeatStart":true},{"chords":["Ab7","D7alt"],"repeatEnd":3,"mark":"dc-al-fine"}]}]}`

// jumpEndingChart has an ending reached only by the jump (D.C. al 3rd ending) and an ending of three bars.
const jumpEndingChart = `{"title":"Al 3rd ending","description":"","key":"C","tempo":120,"beatsPerBar":4,"sections":[
 {"label":"A","bars":[{"chords":["C"],"repeatStart":true},["F"],{"chords":["G"],"ending":1},["Am"],{"chords":["G7"],"repeatEnd":2},{"chords":["Dm"],"ending":2},{"chords":["G7"],"mark":"dc"}]},
 {"label":"B","bars":[{"chords":["C"],"ending":3},["C"]]}]}`

// gridShot is what a grid shows: where it starts, each bar's form and chords as drawn (signature) and,
// for the bars in the window, the step its chords are fitted at (chord-fit.js), where it is and where
// each of its chords is.
type gridShot struct {
	Top   float64     `json:"top"`
	Bars  []string    `json:"bars"`
	Boxes [][]float64 `json:"boxes"`
}

// gridShotJS reads a gridShot of the grid root. A bar's signature is its classes, its place and form
// (its data attributes but the page's own bookkeeping: data-fit, data-i18n-attr), its number, its
// chords' markup and its words; the page's aria labels are its own (the first view is for the eye).
const gridShotJS = `((root) => {
  const el = document.querySelector(root);
  const top = el.getBoundingClientRect().top + scrollY;
  const bars = [...el.querySelectorAll('.bar')].map((li) => {
    const data = li.getAttributeNames().filter((n) => n.startsWith('data-') && !['data-fit', 'data-i18n-attr'].includes(n)).sort().map((n) => n + '=' + li.getAttribute(n));
    const chords = li.querySelector('.chords').cloneNode(true);
    return [li.className, data.join(' '), li.querySelector('.bar-num').textContent, chords.outerHTML, li.querySelector('.form-text')?.textContent || ''].join(' | ');
  });
  const boxes = [];
  for (const li of el.querySelectorAll('.bar')) {
    const r = li.getBoundingClientRect();
    if (r.top > innerHeight || r.bottom < 0) continue;
    const box = [Number(li.dataset.fit) || 0, r.left, r.top + scrollY, r.width, r.height];
    for (const c of li.querySelectorAll('.chord')) {
      const cr = c.getBoundingClientRect();
      box.push(cr.left, cr.top + scrollY, cr.width, cr.height);
    }
    boxes.push(box);
  }
  return { top, bars, boxes };
})`

// firstFrameProbe records in window.__firstFrame, as the first frame painted after the page's mark is
// over (a message posted from its requestAnimationFrame callback), the sections of the first view in the
// window whose bars the frame skipped: a section's content-visibility is settled in the frame that lays it
// out.
const firstFrameProbe = `(() => {
  const mark = performance.mark.bind(performance);
  performance.mark = (n, o) => {
    const m = mark(n, o);
    if (n === 'tele:bars-rendered' && window.__firstFrame === undefined) requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        window.__firstFrame = [...document.querySelectorAll('#grid .section')].map((s, i) => [s, i])
          .filter(([s]) => s.getBoundingClientRect().top < innerHeight && !s.querySelector('.bar').checkVisibility({ contentVisibilityAuto: true })).map(([, i]) => i);
      };
      ch.port2.postMessage(0);
    });
    return m;
  };
})()`

// gridChangesProbe records in window.__gridChanges every change the page makes to a bar's number, chords
// or form words in the grid (what the first view draws), as the node changed: none is expected where the
// page takes the server's drawing as its own.
const gridChangesProbe = `(() => {
  window.__gridChanges = [];
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.oldValue === r.target.getAttribute(r.attributeName)) continue; // written again as it was
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const part = el && el.closest('#grid .chords, #grid .bar-num, #grid .form-text');
      if (part) window.__gridChanges.push(r.type + ' in ' + part.className + ' of ' + (el.closest('.bar')?.dataset.path || '?'));
    }
  });
  // From the end of parsing on, before any module of the page runs: what the parser made is the server's.
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true, attributeFilter: ['class', 'data-b', 'data-timed', 'data-beats', 'data-n', 'data-num', 'data-glyph'] });
  });
})()`

// TestFirstView: the board page sent by tele serve carries the chart as the server draws it, and a
// browser shows it before the page's modules have run (here they never do: app.js is blocked): the
// board's title and description, every bar, each form sign, beat positions and accidental drawn as the
// page draws them, and nothing the page has yet to write or translate (no English on a Chinese page).
// Then, with the page's modules, the page's own grid takes the first view's place: the same bars in
// the same place, to the pixel, the first view gone. Both languages, 390 px and desktop, on every form
// feature. A device that shows the board otherwise (a view of its own, an instrument, the short signs,
// an edit key, a pairing, an address with a fragment or a set) never shows the first view, nor does a
// song with words, whose lines the page lays out.
func TestFirstView(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "first-view", json.RawMessage(firstViewChart))
	apiCreateBoard(t, s, "al-ending", json.RawMessage(jumpEndingChart))
	blockApp := blockURL(s.URL + "/assets/*/app.js")

	for _, board := range []string{"first-view", "al-ending"} {
		for _, lang := range []string{"en-US", "zh-CN"} {
			for _, size := range []struct {
				name string
				opt  PageOption
			}{{"desktop", desktop()}, {"phone", phone()}} {
				t.Run(fmt.Sprintf("%s %s %s", board, lang, size.name), func(t *testing.T) {
					first := b.newPage(t, size.opt, browserLanguage(lang), blockApp)
					addInitScript(first, firstFrameProbe)
					first.do(chromedp.Navigate(s.URL + "/b/" + board))
					first.waitJS(`document.documentElement.dataset.firstView === 'shown'`, "the first view is shown")
					// The frame painted after the mark shows the sections in the window, though the first
					// view skips those off screen (content-visibility: auto): none is left for a later frame.
					first.waitJS(`window.__firstFrame !== undefined`, "the first frame after the mark is painted")
					if blank := evalJS[[]int](first, `window.__firstFrame`); len(blank) > 0 {
						t.Errorf("sections %v in the window were not drawn in the first frame", blank)
					}
					if !evalJS[bool](first, `performance.getEntriesByName('tele:bars-rendered').length === 1`) {
						t.Error("the first view did not mark the bars rendered")
					}
					if board == "first-view" {
						head := evalJS[[]string](first, `[document.getElementById('title').innerText, document.getElementById('description').innerText]`)
						if head[0] != "First view <of> everything" || head[1] != "Capo 3 & a <b>loose</b> feel." {
							t.Errorf("the head shows %q", head)
						}
					}
					// Nothing the page has yet to write or translate is seen: not the loading line, not
					// the template's English, not a control that does nothing yet.
					seen := evalJS[[]string](first, `[...document.querySelectorAll('#board-status, #board-body [data-i18n], #board-body .meta, .toolbar, #readonly-note, #manage, .topbar [data-i18n], #lang')]
						.filter((el) => el.checkVisibility({ visibilityProperty: true })).map((el) => el.id || el.className || el.dataset.i18n)`)
					if len(seen) > 0 {
						t.Errorf("before the page's modules run, these show: %q", seen)
					}
					if v := evalJS[[]string](first, `window.__probe.csp`); len(v) > 0 {
						t.Errorf("the first view breaks the page's CSP: %q", v)
					}
					want := evalJS[gridShot](first, gridShotJS+`('#grid')`)
					first.screenshot("first-view", fmt.Sprintf("%s-%s-%s-server", board, lang, size.name))

					// The page's own drawing of the board (an address with a query has no first view).
					drawn := b.newPage(t, size.opt, browserLanguage(lang))
					openBoard(drawn, s, board+"?drawn", "")
					if n := evalJS[int](drawn, `document.querySelectorAll('#grid .bar').length`); n != len(want.Bars) {
						t.Fatalf("the page draws %d bars", n)
					}
					got := evalJS[gridShot](drawn, gridShotJS+`('#grid')`)
					drawn.screenshot("first-view", fmt.Sprintf("%s-%s-%s-page", board, lang, size.name))
					compareShots(t, got, want)

					// The page that showed the first view makes it its own: every bar, chord and form sign
					// as the server drew it (not one changed), in its place, the words around it written.
					page := b.newPage(t, size.opt, browserLanguage(lang))
					addInitScript(page, gridChangesProbe)
					openBoard(page, s, board, "")
					if evalJS[bool](page, `'firstView' in document.documentElement.dataset`) {
						t.Fatal("the page still shows its first view once it is ready")
					}
					if n := evalJS[int](page, `performance.getEntriesByName('tele:bars-rendered').length`); n != 1 {
						t.Errorf("the page marked its bars rendered %d times, want once", n)
					}
					if changed := evalJS[[]string](page, `window.__gridChanges`); len(changed) > 0 {
						t.Errorf("the page redrew what the server drew: %q", changed)
					}
					compareShots(t, evalJS[gridShot](page, gridShotJS+`('#grid')`), want)
					if visible := evalJS[bool](page, `document.querySelector('.toolbar').checkVisibility({ visibilityProperty: true }) && document.getElementById('history-toggle').checkVisibility({ visibilityProperty: true })`); !visible {
						t.Error("the page's controls are not shown once it is ready")
					}
				})
			}
		}
	}

	t.Run("a device that shows the board otherwise never shows the first view", func(t *testing.T) {
		for _, tc := range []struct {
			name, setup, path string
		}{
			{"a transposed view", `localStorage.setItem('tele.view:first-view', '{"transpose":2,"toKey":"","capo":0,"numbers":false}')`, "/b/first-view"},
			{"a capo", `localStorage.setItem('tele.view:first-view', '{"transpose":0,"toKey":"","capo":3,"numbers":false}')`, "/b/first-view"},
			{"numbers", `localStorage.setItem('tele.view:first-view', '{"numbers":true}')`, "/b/first-view"},
			{"an instrument", `localStorage.setItem('tele.instrument', 'Bb')`, "/b/first-view"},
			{"the short signs", `localStorage.setItem('tele.shortSigns', 'true')`, "/b/first-view"},
			{"an edit key in the key ring", `localStorage.setItem('tele.keyring', JSON.stringify({'first-view': {cap: 'abcdefghijklmnopqrstuvwxyz012345', at: ''}}))`, "/b/first-view"},
			{"an edit key in the tab", `sessionStorage.setItem('tele.cap:first-view', 'abcdefghijklmnopqrstuvwxyz012345')`, "/b/first-view"},
			{"a chat pairing", `localStorage.setItem('tele.chat.binding:first-view', 'b1')`, "/b/first-view"},
			{"a fragment", ``, "/b/first-view#claim=abc"},
			{"a set", ``, "/b/first-view?set=gig"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := b.newPage(t, blockApp)
				p.do(chromedp.Navigate(s.URL + "/"))
				if tc.setup != "" {
					evalJS[any](p, tc.setup)
				}
				p.do(chromedp.Navigate(s.URL + tc.path))
				p.waitJS(`document.readyState === 'complete'`, "the page is loaded")
				state := evalJS[[]any](p, `[document.querySelector('#grid .section') !== null, document.documentElement.dataset.firstView || '',
					document.getElementById('board-status').checkVisibility(), document.getElementById('board-body').checkVisibility(),
					performance.getEntriesByName('tele:bars-rendered').length]`)
				if state[0] != false || state[1] != "" || state[2] != true || state[3] != false || state[4] != float64(0) {
					t.Errorf("server's sections in the grid, first view shown, loading line seen, board seen, marks = %v; want the page as without a first view", state)
				}
			})
		}
	})

	t.Run("a song with words has no first view", func(t *testing.T) {
		apiCreateBoard(t, s, "words", json.RawMessage(`{"title":"Words","description":"","tempo":100,"beatsPerBar":4,"sections":[{"label":"V","lines":[{"text":"Hello there","chords":[{"at":0,"chord":"C"}]}]}]}`))
		if body := httpGet(t, s.URL+"/b/words"); strings.Contains(body, `<section class="section"`) {
			t.Error("the page of a song with words carries a first view")
		}
		if body := httpGet(t, s.URL+"/b/first-view"); !strings.Contains(body, `<section class="section"`) {
			t.Error("the page of a chart carries no first view")
		}
	})
}

// compareShots fails t where the page's grid differs from the first view: where it starts, any bar's
// signature, or the place of a bar or chord in the window by half a pixel or more.
func compareShots(t *testing.T, got, want gridShot) {
	t.Helper()
	if math.Abs(got.Top-want.Top) >= 0.5 {
		t.Errorf("the page's grid starts at %.1f px, the first view at %.1f", got.Top, want.Top)
	}
	if len(got.Bars) != len(want.Bars) {
		t.Fatalf("the page draws %d bars, the first view %d", len(got.Bars), len(want.Bars))
	}
	for i := range got.Bars {
		if got.Bars[i] != want.Bars[i] {
			t.Errorf("bar %d:\n page  %s\n first %s", i+1, got.Bars[i], want.Bars[i])
		}
	}
	if len(got.Boxes) != len(want.Boxes) {
		t.Fatalf("the window holds %d bars of the page's grid, %d of the first view", len(got.Boxes), len(want.Boxes))
	}
	for i, g := range got.Boxes {
		w := want.Boxes[i]
		if len(g) != len(w) {
			t.Errorf("bar %d in the window: %v, first view %v", i+1, g, w)
			continue
		}
		// The page fits a crowded bar's chords to its room by measuring them (chord-fit.js): there its
		// chords may take a smaller size than the first view's, which must still keep them in the bar.
		end := len(g)
		if g[0] != 0 {
			end = 5
			for k := 5; k < len(w); k += 4 {
				if w[k] < w[1] || w[k]+w[k+2] > w[1]+w[3]+0.5 {
					t.Errorf("bar %d: a chord of the first view sticks out of its bar: %v", i+1, w)
				}
			}
		}
		for k := 1; k < end; k++ {
			if math.Abs(g[k]-w[k]) >= 0.5 {
				t.Errorf("bar %d in the window is at %v, in the first view at %v", i+1, g, w)
				break
			}
		}
	}
}
