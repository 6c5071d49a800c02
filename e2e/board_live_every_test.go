package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBoardLiveEveryBar: a save elsewhere that changes every bar of the largest board reaches open
// pages, read-only on a desktop and with the edit link on a phone, and each shows the new chart as a
// page opened after the save does: every bar's chords and its accessible name at once (sections off
// screen included: a screen reader and find-in-page read them), and, as each section comes into view,
// its chords fitted to their bars as on the new page (the same step for every bar), none broken inside
// its symbol and none outside its bar.
func TestBoardLiveEveryBar(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	before, after := largestBoard(0), largestBoard(1)
	capability := apiCreateBoard(t, s, "every-bar", before)

	type view struct {
		name, label, capability string
		opts                    []PageOption
		live                    *Page
	}
	views := []*view{{"read-only desktop", "Bar", "", nil, nil}, {"edit link on a phone", "Edit bar", capability, []PageOption{phone()}, nil}}
	for _, v := range views {
		v.live = b.newPage(t, v.opts...)
		openBoard(v.live, s, "every-bar", v.capability)
		v.live.waitJS(fitPassesJS+` !== '0'`, v.name+": the chords fitted")
	}

	apiPutBoard(t, s, "every-bar", capability, 1, after)

	var want []string
	for _, sec := range after.Sections {
		for _, bar := range sec.Bars {
			want = append(want, strings.Join(bar, " "))
		}
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		p := v.live
		waitNone(p, fmt.Sprintf(`%s(%s, %s)`, barsShowJS, wantJSON, jsString(v.label)), v.name+": every bar's chords and name from the save")
		fresh := b.newPage(t, v.opts...)
		openBoard(fresh, s, "every-bar", v.capability)
		for i := range after.Sections {
			show := fmt.Sprintf(`(document.querySelectorAll('.grid .section')[%d].scrollIntoView(), true)`, i)
			evalJS[bool](p, show)
			evalJS[bool](fresh, show)
			steps := fmt.Sprintf(`[...document.querySelectorAll('.grid .section')[%d].querySelectorAll('li.bar')].map((b) => b.dataset.fit || '0').join(' ')`, i)
			var got, wantSteps string
			for deadline := time.Now().Add(waitTimeout); ; time.Sleep(25 * time.Millisecond) {
				got, wantSteps = evalJS[string](p, steps), evalJS[string](fresh, steps)
				if got == wantSteps || time.Now().After(deadline) {
					break
				}
			}
			if got != wantSteps {
				t.Errorf("%s, section %d: the bars' steps are\n%s\nwhere a page opened after the save has\n%s", v.name, i+1, got, wantSteps)
			}
			waitNone(p, fmt.Sprintf(`%s(%d)`, sectionFittedJS, i), fmt.Sprintf("%s: section %d's chords whole and inside their bars", v.name, i+1))
		}
		p.requireClean(v.name)
		fresh.requireClean(v.name + ", opened after the save")
	}
}

// waitNone waits until listJS, a list of what is wrong, is empty, polling every 25 ms as waitJS does,
// and fails the test after waitTimeout with what and the last list.
func waitNone(p *Page, listJS, what string) {
	p.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		bad := evalJS[[]string](p, listJS)
		if len(bad) == 0 {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s: %s", waitTimeout, what, strings.Join(bad, "; "))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// barsShowJS(want, label) lists the bars whose chords or accessible name differ from want (every
// bar's chords, space-separated, in order); the name is "<label> <n>: <chords>".
const barsShowJS = `((want, label) => {
	const bad = [];
	const bars = document.querySelectorAll('.grid li.bar');
	if (bars.length !== want.length) bad.push(bars.length + ' bars');
	bars.forEach((bar, i) => {
		const chords = [...bar.querySelectorAll('.chord')].map((c) => c.textContent).join(' ');
		const target = bar.querySelector('.bar-btn') || bar;
		const name = label + ' ' + (i + 1) + ': ' + want[i];
		if (chords !== want[i]) bad.push('bar ' + (i + 1) + ' shows ' + chords);
		if (target.getAttribute('aria-label') !== name) bad.push('bar ' + (i + 1) + ' is named ' + target.getAttribute('aria-label'));
	});
	return bad.slice(0, 5);
})`

// sectionFittedJS(i) lists the chords of section i broken inside their symbol or sticking out of
// their bar.
const sectionFittedJS = `((i) => {
	const bad = [];
	const box = (el) => {
		const r = document.createRange();
		r.selectNodeContents(el);
		return r.getBoundingClientRect();
	};
	for (const bar of document.querySelectorAll('.grid .section')[i].querySelectorAll('li.bar')) {
		const name = bar.dataset.path + ' (step ' + (bar.dataset.fit || 0) + ')';
		const edge = bar.getBoundingClientRect();
		const chords = [...bar.querySelectorAll('.chord')];
		const boxes = chords.map(box);
		chords.forEach((c, k) => {
			// A part with a ♭ or ♯ glyph has several boxes on one line: broken means boxes on two lines.
			if ([...c.children].some((part) => new Set([...part.getClientRects()].map((r) => Math.round(r.top))).size > 1)) bad.push(name + ': ' + c.textContent + ' broken');
			if (boxes[k].right > edge.right + 0.5 || boxes[k].left < edge.left - 0.5) bad.push(name + ': ' + c.textContent + ' outside its bar');
		});
	}
	return bad.slice(0, 5);
})`
