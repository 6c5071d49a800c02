// Chord fitting on the grid: a chord symbol is never broken inside itself (CSS: white-space: nowrap per
// chord, wrapping only between chords). When a bar's chords do not fit on one line, or one of them is
// wider than the bar, the bar's chords step down in size (data-fit="1".."3" on the bar, sizes in
// app.css); when two steps down do not put them on one line, they wrap between chords at the largest
// size where no chord overflows its bar.
//
// It fits only what needs it: the bars the grid view just drew or patched (changed()), every bar when
// the grid's width or the chord size changes (refit()), and of those only the bars in sections that
// are laid out. A section off screen is not (content-visibility: auto, app.css): its bars are fitted
// when it comes near the window, so fitting never forces the layout the grid saves. A pass reads every
// bar once, as drawn, and works out each bar's step from its chords' widths (chord sizes scale with the
// step) before it writes any: one layout a pass, the one the frame makes anyway.

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
    // Sections laid out now, as the browser reports them (it reports every section once it has
    // decided, and again on each change). Asking instead (checkVisibility) would make the browser bring
    // the style of a skipped section up to date, which is the work content-visibility saves.
    this.shown = new Set();
    grid.addEventListener('contentvisibilityautostatechange', (ev) => {
      const sec = ev.target;
      if (ev.skipped) {
        this.shown.delete(sec);
        return;
      }
      this.shown.add(sec);
      for (const b of sec.querySelectorAll('.bar')) this.pending.add(b);
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

  // changed fits these bars (li.bar) in the next frame: the grid drew them anew or changed their chords.
  changed(bars) {
    if (!bars?.length) return;
    for (const b of bars) this.pending.add(b);
    this.schedule();
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
    // A bar of a section not laid out now waits for the section's turn (contentvisibilityautostatechange).
    const bars = everything ? waiting : waiting.filter((b) => {
      const sec = b.closest('.section');
      return !sec || this.shown.has(sec);
    });
    this.all = false;
    this.pending.clear();
    // Every bar is read first, as it is drawn now, and only then are the steps that differ written: one
    // layout for the pass (the one the frame would make anyway), never a read after a write.
    const steps = bars.map((bar) => {
      const m = measure(bar);
      return m && stepFor(m);
    });
    bars.forEach((bar, i) => {
      const step = steps[i];
      if (step === null || step === undefined) return; // not laid out (hidden): fitted when it shows, as its width changes
      const want = step ? String(step) : undefined;
      if (bar.dataset.fit !== want) {
        if (want) bar.dataset.fit = want;
        else delete bar.dataset.fit;
      }
    });
    this.passes++;
    this.grid.dataset.fitPasses = String(this.passes);
  }
}

// The chord size at each step, as a share of the unfitted size: app.css's --fit of .bar[data-fit].
const FIT_SCALE = [1, 0.88, 0.77, 0.62];
// A step is taken as fitting only with this much room to spare, in CSS px and as a share of the width:
// text does not scale exactly with its size, and a chord must never stick out.
const SPARE_PX = 1;
const SPARE_SHARE = 0.02;

// stepFor picks a bar's step from its chords' widths: the first of the shrinking steps where they sit
// on one line and none sticks out; failing that (they wrap between chords), the first where none
// sticks out, or the smallest.
function stepFor({ widths, gap, room }) {
  const fits = (w) => w * (1 + SPARE_SHARE) + SPARE_PX <= room;
  const line = widths.reduce((a, w) => a + w, 0);
  const widest = Math.max(0, ...widths);
  const gaps = gap * Math.max(0, widths.length - 1);
  let wrapAt = FIT_STEPS;
  for (let step = 0; step <= SHRINK_STEPS; step++) {
    const k = FIT_SCALE[step];
    if (!fits(widest * k)) continue;
    if (fits(line * k + gaps)) return step;
    if (wrapAt === FIT_STEPS) wrapAt = step;
  }
  return wrapAt;
}

// measure reads what fitting a bar needs: each chord's own width (its text, not the share of the line
// flex gives it) at the unfitted size, worked back from the step the bar is drawn at (every chord size
// scales with --fit), the gap between chords and the width the chords have (the chord area's content
// box); null when the bar has no layout.
function measure(bar) {
  const area = bar.querySelector('.chords');
  const chords = area ? area.children : [];
  if (!area || !chords.length) return { widths: [], gap: 0, room: Infinity };
  const width = area.clientWidth;
  if (!width) return null;
  const style = getComputedStyle(area);
  const room = width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const gap = parseFloat(style.columnGap) || 0;
  const scale = FIT_SCALE[Number(bar.dataset.fit) || 0] || 1;
  const widths = [];
  for (const c of chords) {
    const first = c.firstElementChild;
    const w = first ? c.lastElementChild.getBoundingClientRect().right - first.getBoundingClientRect().left : c.getBoundingClientRect().width;
    widths.push(w / scale);
  }
  return { widths, gap, room };
}
