package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBoardManageStickyTopBar: on a 390 px phone the toolbar scrolls with the page, under the sticky
// top bar. Reached by Tab from below the fold's other side (the page scrolled to its end, the control
// above the window), each toolbar control is scrolled into view below the top bar, never under it:
// the element at the control's centre is the control itself. English and 简体中文 (the top bar's
// height differs with its words).
func TestBoardManageStickyTopBar(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	c := sampleContent("Sticky")
	c.Sections = append(c.Sections, c.Sections...)
	capability := apiCreateBoard(t, s, "sticky", c)
	for _, tc := range []struct {
		name string
		opts []PageOption
	}{
		{"phone-en", []PageOption{phone()}},
		{"phone-zh-dark", []PageOption{phone(), browserLanguage("zh-CN"), darkScheme()}},
	} {
		p := b.newPage(t, tc.opts...)
		openBoard(p, s, "sticky", capability)
		// A change, so that Save and Discard take focus too.
		evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const i = document.getElementById('f-title'); i.value = 'Sticky ' + %s; i.dispatchEvent(new Event('input', { bubbles: true })); })()`, jsString(tc.name)))
		p.waitJS(`!document.getElementById('save').disabled`, "Save is enabled")
		ids := evalJS[[]string](p, `(() => { `+tabbableJS+`; return [...document.querySelectorAll('.toolbar *')].filter(tabbable).map((e) => e.id || e.tagName); })()`)
		for _, want := range []string{"play", "save", "discard"} {
			if !strings.Contains(strings.Join(ids, " "), want) {
				t.Fatalf("%s: the toolbar's controls are %v, without #%s", tc.name, ids, want)
			}
		}
		for i := range ids {
			for _, place := range placements {
				// Focus the tabbable element before the control without scrolling, put the control
				// where place says, then Tab to it: the browser scrolls it in as far as it must.
				evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { `+tabbableJS+`;
					const all = [...document.querySelectorAll('*')].filter(tabbable);
					const control = [...document.querySelectorAll('.toolbar *')].filter(tabbable)[%d];
					all[all.indexOf(control) - 1].focus({ preventScroll: true });
					%s;
				})()`, i, place.js))
				p.do(chromedp.KeyEvent(kb.Tab))
				if res := evalJS[string](p, fmt.Sprintf(`(() => { `+tabbableJS+`;
					const control = [...document.querySelectorAll('.toolbar *')].filter(tabbable)[%d];
					if (document.activeElement !== control) return 'focus is on ' + (document.activeElement.id || document.activeElement.tagName);
					return `+onTopJS+`;
				})()`, i)); res != "ok" {
					t.Errorf("%s: Tab to %s %s: %s", tc.name, ids[i], place.name, res)
				}
			}
		}
		// A click (chromedp scrolls the node into view as far as it must, then clicks its centre) on
		// Save sitting under the top bar lands on Save, and saves.
		evalJS[chromedp.Void](p, `(() => {
			window.__clicked = [];
			document.addEventListener('click', (e) => window.__clicked.push(e.target.id || e.target.className || e.target.tagName), { capture: true });
			const control = document.getElementById('save'); `+placements[1].js+`;
		})()`)
		p.do(chromedp.Click(chromedp.ID("save")))
		if got := evalJS[[]string](p, `window.__clicked`); len(got) != 1 || got[0] != "save" {
			t.Errorf("%s: a click on Save under the top bar clicked %v", tc.name, got)
		}
		p.waitJS(`document.getElementById('save').disabled && !document.getElementById('save-status').textContent.includes('…')`, "the save is done")
		if got := apiGetBoard(t, s, "sticky").Content.Title; got != "Sticky "+tc.name {
			t.Errorf("%s: after the click on Save the board's title is %q", tc.name, got)
		}
		p.screenshot("board", "manage-sticky-toolbar-"+tc.name)
		p.requireClean("Tab through the toolbar")
	}
}

// placements put a control (the JS variable control) where the sticky top bar covers it, as far as
// scrolling can put it there: above the window, its top half above the window, and wholly inside the
// window but under the bar.
var placements = []struct{ name, js string }{
	{"from above the window", `window.scrollTo(0, document.documentElement.scrollHeight)`},
	{"from under the top bar", `window.scrollBy(0, control.getBoundingClientRect().top - 2)`},
	{"from half above the window", `window.scrollBy(0, control.getBoundingClientRect().top + control.getBoundingClientRect().height / 2)`},
}

// onTopJS is 'ok' when the element at the centre of control (a JS variable) is control or inside it,
// else what covers it.
const onTopJS = `(() => {
	const r = control.getBoundingClientRect();
	const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
	if (hit && control.contains(hit)) return 'ok';
	const what = !hit ? 'nothing' : hit.closest('[id]')?.id || hit.closest('[class]')?.className || hit.tagName;
	return 'covered by ' + what + ' (the control at top ' + Math.round(r.top) + ')';
})()`

// tabbableJS defines tabbable(el), in a function's body,: el takes focus by Tab (focusable, not disabled, shown).
const tabbableJS = `const tabbable = (e) => e.matches('button, input, select, textarea, summary, a[href], [tabindex]') &&
	e.tabIndex >= 0 && !e.disabled && e.checkVisibility({ visibilityProperty: true })`
