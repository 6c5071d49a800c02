// Chord fitting on the grid: a chord symbol is never broken inside itself (CSS: white-space: nowrap per
// chord, wrapping only between chords). When a bar's chords do not fit on one line, or one of them is
// wider than the bar, the bar's chords step down in size (data-fit="1".."3" on the bar, sizes in
// app.css); when two steps down do not put them on one line, they wrap between chords at the largest
// size where no chord overflows its bar.
//
// It watches the grid without touching how it is rendered (board-view.js): a changed bar is fitted
// again in the next frame, and every bar when the grid's width or the chord size changes. Each pass
// reads every bar it checks before it writes any, so a pass costs one layout per step, not one per bar.

const FIT_STEPS = 3;
// Shrinking to keep a bar on one line stops here (smaller would be hard to read on a stand); beyond it
// the chords wrap between them.
const SHRINK_STEPS = 2;

export class ChordFit {
  constructor(grid) {
    this.grid = grid;
    this.pending = new Set();
    this.all = true;
    this.frame = 0;
    this.width = -1;
    this.passes = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
        const bar = el?.closest('.bar');
        if (bar) this.pending.add(bar);
        // New bars or sections arrive as added children of a list or of the grid.
        for (const n of r.addedNodes) {
          if (n.nodeType !== Node.ELEMENT_NODE) continue;
          if (n.matches('.bar')) this.pending.add(n);
          else for (const b of n.querySelectorAll('.bar')) this.pending.add(b);
        }
      }
      this.schedule();
    }).observe(grid, { childList: true, subtree: true, characterData: true });
    // A section off screen is not laid out (content-visibility: auto, app.css): its bars are fitted when
    // it comes near the window, so fitting never forces the layout the grid saves.
    grid.addEventListener('contentvisibilityautostatechange', (ev) => {
      if (ev.skipped) return;
      for (const b of ev.target.querySelectorAll('.bar')) this.pending.add(b);
      this.schedule();
    }, true);
    // Only a change of width changes what fits (a fit that changes the grid's height must not refit).
    new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w === this.width) return;
      this.width = w;
      this.refit();
    }).observe(grid);
    document.fonts?.ready.then(() => this.refit());
  }

  // refit fits every bar again in the next frame (the chord size or the layout changed).
  refit() {
    this.all = true;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.fitNow();
    });
  }

  // fitNow fits the bars waiting for it, at once; everything: those off screen too (printing calls it
  // between laying the chart out for paper and printing it, where no frame runs and every bar is drawn).
  fitNow(everything = false) {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    const waiting = this.all ? [...this.grid.querySelectorAll('.bar')] : [...this.pending].filter((b) => b.isConnected);
    const shown = new Map(); // section → whether its content is laid out
    const bars = everything ? waiting : waiting.filter((b) => {
      const sec = b.closest('.section');
      if (!sec) return true;
      if (!shown.has(sec)) shown.set(sec, sec.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }) !== false);
      return shown.get(sec);
    });
    this.all = false;
    this.pending.clear();
    for (const bar of bars) if (bar.dataset.fit) delete bar.dataset.fit;
    const wrapAt = new Map(); // bar → the first step where no chord overflows (it may still wrap)
    let todo = bars;
    for (let step = 0; step <= SHRINK_STEPS && todo.length; step++) {
      if (step > 0) for (const bar of todo) bar.dataset.fit = String(step);
      const next = [];
      for (const bar of todo) {
        const m = measure(bar);
        if (!m) continue; // not laid out (hidden): fitted when it shows, as its width changes
        if (m.oneLine && !m.overflow) continue;
        if (!m.overflow && !wrapAt.has(bar)) wrapAt.set(bar, step);
        next.push(bar);
      }
      todo = next;
    }
    // Still not on one line: wrap between chords, as large as no chord sticks out (the smallest step
    // for a symbol too long for its bar even so).
    for (const bar of todo) {
      const at = wrapAt.get(bar) ?? FIT_STEPS;
      if (at) bar.dataset.fit = String(at);
      else delete bar.dataset.fit;
    }
    this.passes++;
    this.grid.dataset.fitPasses = String(this.passes);
  }
}

// measure says whether a bar's chords sit on one line and whether one sticks out of the bar's chord
// area; null when the bar has no layout.
function measure(bar) {
  const area = bar.querySelector('.chords');
  const chords = area ? area.children : [];
  if (!area || !chords.length) return { oneLine: true, overflow: false };
  const box = area.getBoundingClientRect();
  if (!box.width) return null;
  let first = null;
  let oneLine = true;
  let overflow = false;
  for (const c of chords) {
    const r = c.getBoundingClientRect();
    if (!first) first = r;
    else if (r.top >= first.bottom - 1) oneLine = false;
    if (r.right > box.right + 0.5 || r.left < box.left - 0.5) overflow = true;
  }
  return { oneLine, overflow };
}
