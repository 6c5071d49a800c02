// @ts-check
// Chord fitting on the grid: a chord symbol is never broken inside itself (CSS: white-space: nowrap per
// chord, wrapping only between chords). When a bar's chords do not fit on one line, or one of them is
// wider than the bar, the bar's chords step down in size (data-fit="1".."3" on the bar, sizes in
// app.css); when two steps down do not put them on one line, they wrap between chords at the largest
// size where no chord overflows its bar.
//
// Fitting reads no layout of the bars it fits. Every bar of the grid has the same room for its chords
// (equal columns), so the room, the gap between chords and each kind of chord part's font are read
// once from one bar as laid out (the grid's geometry), and read again only when they can change: the
// grid's width, the stage size, printing, the meter (bars a row on a phone), the fonts, or that bar
// gone from the grid. A chord's width is its parts' text measured on a canvas in their fonts (the
// same shaping as the page's, to within a fraction of a pixel), kept by text and font. So the bars a
// live update patched are fitted in the same task, before the frame lays them out, and that frame lays
// the grid out once with the steps set; measuring the chords as drawn forced a layout, and the steps
// it changed then made the frame lay the grid out a second time. Bars of a section off screen
// (content-visibility: auto, app.css) are fitted when it comes near the window. A part with glyphs
// (notation.js) is measured as drawn.

import { shown } from './notation.js';

const FIT_STEPS = 3;
// Shrinking to keep a bar on one line stops here (smaller would be hard to read on a stand); beyond it
// the chords wrap between them.
const SHRINK_STEPS = 2;
// The chord size at each step, as a share of the unfitted size: app.css's --fit of .bar[data-fit].
const FIT_SCALE = [1, 0.88, 0.77, 0.62];
// A step is taken as fitting only with this much room to spare, in CSS px and as a share of the width:
// text does not scale exactly with its size, and a chord must never stick out.
const SPARE_PX = 1;
const SPARE_SHARE = 0.02;
// Fonts whose measured widths are kept: far more than a page uses at once (chord counts, parts, sizes).
const FONTS_KEPT = 64;

export class ChordFit {
  constructor(grid) {
    this.grid = grid;
    this.pending = new Set(); // bars to fit once their section is laid out
    this.all = true;
    this.frame = 0;
    this.width = -1;
    this.passes = 0;
    this.geometry = null;
    this.widths = new TextWidths();
    // Sections laid out now, as the browser reports them (it reports every section once it has
    // decided, and again on each change). A bar of a section off screen is fitted when the section
    // comes near the window (before it is seen); the geometry is read from a bar of a section laid
    // out. Asking instead (checkVisibility) would make the browser bring the style of a skipped section
    // up to date, and reading a bar of one would lay it out: the work content-visibility saves.
    this.shown = new Set();
    grid.addEventListener('contentvisibilityautostatechange', (ev) => {
      const sec = ev.target;
      if (!sec.classList.contains('section')) return; // a bar's own state (app.css) changes no fit
      if (ev.skipped) {
        this.shown.delete(sec);
        return;
      }
      this.shown.add(sec);
      if (!this.current()) {
        this.schedule();
        return;
      }
      const bars = [...this.pending].filter((b) => sec.contains(b));
      for (const b of bars) this.pending.delete(b);
      this.fit(bars);
    }, true);
    // Only a change of width changes what fits (a fit that changes the grid's height must not refit).
    new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w === this.width) return;
      this.width = w;
      this.refit();
    }).observe(grid);
    document.fonts?.ready.then(() => this.refit());
    // Sections in the grid before fitting starts (the server's first view, which the page takes as
    // its own: board-view.js adopt) were laid out before their state could be heard: they are taken as
    // shown until the browser says otherwise (a bar fitted before its section is near costs only the
    // work), so none near the window is left unfitted.
    for (const sec of grid.querySelectorAll(':scope > .section')) this.shown.add(/** @type {HTMLElement} */ (sec));
  }

  // changed fits these bars (li.bar): the grid drew them anew or changed their chords. With the grid's
  // geometry known, those of sections laid out now, the others when their section comes near the
  // window; else in the next frame.
  changed(bars) {
    if (!bars?.length) return;
    if (!this.current()) {
      for (const b of bars) this.pending.add(b);
      this.schedule();
      return;
    }
    const now = [];
    for (const b of bars) {
      if (this.isShown(b)) {
        this.pending.delete(b);
        now.push(b);
      } else {
        this.pending.add(b);
      }
    }
    this.fit(now);
  }

  // refit fits every bar again in the next frame (the chord size or the layout changed).
  refit() {
    this.all = true;
    this.geometry = null;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.fitNow();
    });
  }

  // fitNow fits the bars waiting for it at once, reading the grid's geometry first when it may have
  // changed. Printing calls it between laying the chart out for paper and printing it, where no frame
  // runs: every bar is laid out there and fitted at once, those of sections off screen too.
  fitNow(printing = false) {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    if (!this.current()) {
      // The bar the geometry was read from is gone: when the grid was drawn anew (an edit link's page
      // has buttons for bars), the room may differ for every bar, so every bar is fitted again.
      if (this.geometry) this.all = true;
      this.geometry = this.readGeometry(printing);
    }
    if (!this.geometry) return; // nothing laid out yet: a section shown schedules the next pass
    if (this.all) {
      for (const b of this.grid.querySelectorAll('.bar')) this.pending.add(b);
      this.all = false;
    }
    const bars = [];
    for (const b of this.pending) {
      if (b.isConnected && !printing && !this.isShown(b)) continue;
      this.pending.delete(b);
      if (b.isConnected) bars.push(b);
    }
    this.fit(bars);
  }

  current() {
    return Boolean(this.geometry && !this.all && this.geometry.source.isConnected);
  }

  isShown(bar) {
    return this.shown.has(bar.closest('.section'));
  }

  // readGeometry reads the room, the gap and the fonts of one laid-out bar (one layout, the one the
  // frame makes anyway); null when no bar is laid out.
  // A busy bar (data-busy) may span columns (--busy-span, app.css): its room is one bar's more per
  // column it spans (the columns have no gap between them).
  readGeometry(anyBar) {
    let source = null;
    const pick = (root) => root.querySelector('.bar:not([data-busy]) .chords') || root.querySelector('.bar .chords');
    for (const sec of this.shown) {
      if (!sec.isConnected) this.shown.delete(sec);
      else source = pick(sec);
      if (source) break;
    }
    if (!source && anyBar) source = pick(this.grid);
    if (!source) return null;
    const style = getComputedStyle(source);
    const span = Math.max(1, parseInt(getComputedStyle(this.grid).getPropertyValue('--busy-span'), 10) || 1);
    const own = source.closest('.bar');
    const sourceSpan = own.hasAttribute('data-busy') ? span : 1;
    const barWidth = own.getBoundingClientRect().width / sourceSpan;
    const room = source.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (sourceSpan - 1) * barWidth;
    if (!(room > 0)) return null;
    return { source, room, busyRoom: room + (span - 1) * barWidth, gap: parseFloat(style.columnGap) || 0, fonts: new Map() };
  }

  // fit sets each bar's step from its chords' widths: every width is worked out first (reading only
  // text, and a part's font the first time its kind is met), then the steps that differ are written.
  fit(bars) {
    const g = this.geometry;
    const steps = bars.map((bar) => stepFor({ widths: this.chordWidths(bar, g), gap: g.gap, ...(bar.hasAttribute('data-busy') ? { room: g.busyRoom, shares: true } : { room: g.room }) }));
    bars.forEach((bar, i) => {
      const want = steps[i] ? String(steps[i]) : undefined;
      if (bar.dataset.fit !== want) {
        if (want) bar.dataset.fit = want;
        else delete bar.dataset.fit;
      }
    });
    this.passes++;
    this.grid.dataset.fitPasses = String(this.passes);
  }

  // chordWidths is the width of each chord of a bar at the unfitted size: the sum of its parts' (root,
  // quality, bass: adjacent inline text).
  chordWidths(bar, g) {
    const area = bar.querySelector('.chords');
    if (!area) return [];
    const n = area.dataset.n;
    const widths = [];
    for (const chord of area.children) {
      let w = 0;
      for (const part of chord.children) {
        const kind = `${n}|${chord.className}|${part.className}`;
        let font = g.fonts.get(kind);
        if (!font) {
          font = this.widths.font(partFont(bar, part));
          g.fonts.set(kind, font);
        }
        const text = part.textContent;
        w += this.widths.of(font, part.firstElementChild ? shown(part.className, text) : text);
      }
      widths.push(w);
    }
    return widths;
  }
}

// partFont is the canvas font of a chord part at the unfitted size. Parts of a kind (the bar's chord
// count, the chord's and the part's class) share it, and it is read from the first of the kind met,
// its size worked back from its bar's step (every chord size scales with --fit).
function partFont(bar, part) {
  const s = getComputedStyle(part);
  const size = parseFloat(s.fontSize) / (FIT_SCALE[Number(bar.dataset.fit) || 0] || 1);
  return `${s.fontStyle} ${s.fontWeight} ${size}px ${s.fontFamily}`;
}

// TextWidths measures text on a canvas, keeping each font's widths by text.
class TextWidths {
  constructor() {
    this.fonts = new Map();
    this.ctx = null;
    this.set = '';
  }

  // font is a font's widths kept so far (a font a size: a window resized by dragging makes many).
  font(name) {
    let font = this.fonts.get(name);
    if (!font) {
      if (this.fonts.size >= FONTS_KEPT) this.fonts.clear();
      font = { name, widths: new Map() };
      this.fonts.set(name, font);
    }
    return font;
  }

  of(font, text) {
    let w = font.widths.get(text);
    if (w === undefined) {
      this.ctx ??= document.createElement('canvas').getContext('2d');
      if (this.set !== font.name) {
        this.set = font.name;
        this.ctx.font = font.name;
      }
      w = this.ctx.measureText(text).width;
      font.widths.set(text, w);
    }
    return w;
  }
}

// stepFor picks a bar's step from its chords' widths at the unfitted size, the gap between chords and
// the room they have: the first of the shrinking steps where they sit on one line and none sticks out;
// failing that (they wrap between chords), the first where none sticks out, or the smallest. With
// shares (a busy bar), first the first step where every chord fits its beat's share of the line.
export function stepFor({ widths, gap, room, shares = false }) {
  const fitsIn = (w, r) => w * (1 + SPARE_SHARE) + SPARE_PX <= r;
  const fits = (w) => fitsIn(w, room);
  const line = widths.reduce((a, w) => a + w, 0);
  const widest = Math.max(0, ...widths);
  const gaps = gap * Math.max(0, widths.length - 1);
  if (shares && widths.length) {
    const share = (room - gaps) / widths.length;
    for (let step = 0; step <= SHRINK_STEPS; step++) if (fitsIn(widest * FIT_SCALE[step], share)) return step;
  }
  let wrapAt = FIT_STEPS;
  for (let step = 0; step <= SHRINK_STEPS; step++) {
    const k = FIT_SCALE[step];
    if (!fits(widest * k)) continue;
    if (fits(line * k + gaps)) return step;
    if (wrapAt === FIT_STEPS) wrapAt = step;
  }
  return wrapAt;
}
