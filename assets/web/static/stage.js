// @ts-check
// Stage mode and printing: the board as a musician plays from it.
//
// Stage mode (the Stage control, read-only and edit pages alike) shows only the chart and a few stage
// controls (stage.css), full screen where the browser allows it; Esc or the control leaves it, and
// leaving full screen by the browser's own means leaves it too. The chord size (A− / A+) is remembered
// on this device (chord-size.js); the number of bars a row follows it, in
// whole phrases (8, 4, 2 or 1). Print asks the browser to print; print.css keeps only the chart.
//
// While the player plays, follow() keeps the bar being played in view, on every page, in or out of
// stage mode; it scrolls only when that bar is not wholly visible, and without animation for a reader
// who asked for reduced motion.

import { byId, show } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { ChordFit } from './chord-fit.js';
import { SIZES, loadSize, saveSize } from './chord-size.js';

// The narrowest a bar may be in stage mode at 100%, in CSS px; a larger size asks for wider bars.
const STAGE_BAR_MIN = 84;
// Bars a row in stage mode: whole phrases only.
const PHRASES = [8, 4, 2, 1];
// Meters with more beats than this get half as many bars a row on a phone (app.css).
const LONG_METER = 6;

export class Stage {
  constructor() {
    this.root = document.documentElement;
    this.grid = byId('grid');
    this.toggle = byId('stage-toggle');
    this.label = byId('stage-toggle-label');
    this.sizeGroup = byId('stage-size');
    this.sizeOut = byId('stage-size-out');
    this.smaller = byId('stage-smaller');
    this.larger = byId('stage-larger');
    this.fit = new ChordFit(this.grid);
    this.active = false;
    this.size = loadSize();
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

    this.toggle.addEventListener('click', () => (this.active ? this.leave() : this.enter()));
    this.smaller.addEventListener('click', () => this.setSize(this.size - 1));
    this.larger.addEventListener('click', () => this.setSize(this.size + 1));
    byId('print').addEventListener('click', () => window.print());
    document.addEventListener('keydown', (ev) => this.key(ev));
    document.addEventListener('fullscreenchange', () => {
      // The browser left full screen (its own Esc, a gesture): stage mode ends with it.
      if (this.active && this.fullscreen && !document.fullscreenElement) this.leave();
    });
    new ResizeObserver(() => this.layout()).observe(this.grid);
    // Printing lays the chart out for paper (print.css, html[data-printing]) and fits its chords there
    // before the browser prints; a print preview (print media) gets the same layout.
    const printing = matchMedia('print');
    window.addEventListener('beforeprint', () => this.printing(true));
    window.addEventListener('afterprint', () => this.printing(false));
    printing.addEventListener('change', () => this.printing(printing.matches));
    this.showSize();
    bindAttr(this.toggle, 'title', 'stage.enterTitle');
  }

  // render follows the board: its meter sets the bars a row on a phone (so every bar's room, and
  // fit, may change); the bars the grid just drew anew or patched (changed) get their chords fitted.
  render(content, changed) {
    const meter = (content.beatsPerBar || 4) > LONG_METER ? 'long' : 'short';
    if (this.grid.dataset.meter !== meter) {
      this.grid.dataset.meter = meter;
      this.fit.refit();
    }
    this.fit.changed(changed);
  }

  async enter() {
    if (this.active) return;
    this.active = true;
    this.root.dataset.stage = '';
    this.showMode();
    this.fullscreen = false;
    if (this.root.requestFullscreen && document.fullscreenEnabled) {
      try {
        await this.root.requestFullscreen({ navigationUI: 'hide' });
        this.fullscreen = this.active;
      } catch {
        // Full screen refused (no gesture, a frame, a phone that has none): stage mode goes on without it.
      }
    }
  }

  leave() {
    if (!this.active) return;
    this.active = false;
    delete this.root.dataset.stage;
    this.showMode();
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    this.fullscreen = false;
  }

  showMode() {
    bindText(this.label, this.active ? 'stage.leave' : 'stage.enter');
    bindAttr(this.toggle, 'title', this.active ? 'stage.leaveTitle' : 'stage.enterTitle');
    show(this.sizeGroup, this.active);
    this.layout();
    this.fit.refit();
    this.toggle.focus({ preventScroll: true });
  }

  key(ev) {
    if (!this.active || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector('dialog[open]')) return;
    // Typing in a field: + and - are the field's.
    if (ev.key !== 'Escape' && ev.target.closest?.('input, textarea, select, [contenteditable]')) return;
    if (ev.key === 'Escape') {
      ev.preventDefault();
      this.leave();
    } else if (ev.key === '+' || ev.key === '=') {
      ev.preventDefault();
      this.setSize(this.size + 1);
    } else if (ev.key === '-') {
      ev.preventDefault();
      this.setSize(this.size - 1);
    }
  }

  setSize(i) {
    const next = Math.max(0, Math.min(SIZES.length - 1, i));
    if (next === this.size) return;
    this.size = saveSize(next);
    this.showSize();
    this.layout();
    this.fit.refit();
  }

  showSize() {
    this.root.dataset.stageSize = String(this.size);
    bindText(this.sizeOut, 'stage.size', { n: SIZES[this.size] });
    this.smaller.disabled = this.size === 0;
    this.larger.disabled = this.size === SIZES.length - 1;
  }

  // layout sets the bars a row in stage mode: as many whole phrases as bars of the chosen size allow,
  // never more than the page shows outside stage mode.
  layout() {
    if (!this.active) {
      if (this.grid.dataset.cols) delete this.grid.dataset.cols;
      return;
    }
    const width = this.grid.getBoundingClientRect().width;
    const bars = this.grid.querySelector('.bars');
    if (!width || !bars) return;
    const usual = this.usualColumns(bars);
    const min = (STAGE_BAR_MIN * SIZES[this.size]) / 100;
    const cols = PHRASES.find((n) => n <= usual && width / n >= min) || 1;
    if (this.grid.dataset.cols !== String(cols)) this.grid.dataset.cols = String(cols);
  }

  // usualColumns: the bars a row the page's CSS gives this width (stage columns set aside).
  usualColumns(bars) {
    const set = this.grid.dataset.cols;
    if (set) delete this.grid.dataset.cols;
    const n = getComputedStyle(bars).gridTemplateColumns.split(' ').length;
    if (set) this.grid.dataset.cols = set;
    return n;
  }

  printing(on) {
    if (on === ('printing' in this.root.dataset)) return;
    if (on) this.root.dataset.printing = '';
    else delete this.root.dataset.printing;
    this.fit.refit();
    if (on) this.fit.fitNow(true); // the browser prints right after beforeprint: no frame comes first
  }

  // follow keeps the bar being played in view: when it is not wholly inside the part of the window the
  // page's sticky bars and a docked chat panel leave free, it is scrolled to a third of the way down.
  //
  // It looks at the next frame, not in the player's bar change: measuring the bar there forced a style
  // and layout of the whole page inside the task that moves the cursor, and the band's phones, which
  // place theirs from the clock, saw the leader's bar that much late (BenchmarkBandCursorSkew).
  follow() {
    if (this.following) return;
    this.following = requestAnimationFrame(() => {
      this.following = 0;
      this.keepInView();
    });
  }

  keepInView() {
    const bar = this.grid.querySelector('.bar.is-current');
    if (!bar) return;
    const { top, bottom } = freeBand();
    const r = bar.getBoundingClientRect();
    if (r.top >= top && r.bottom <= bottom) return;
    const target = top + Math.max(0, (bottom - top - r.height) / 3);
    window.scrollBy({ top: r.top - target, behavior: this.reducedMotion.matches ? 'instant' : 'smooth' });
  }
}

// freeBand is the part of the window the chart is read in: below the sticky header and toolbar, above
// a chat panel docked at the bottom.
function freeBand() {
  let top = 0;
  let bottom = window.innerHeight;
  for (const el of document.querySelectorAll('.topbar, .toolbar')) {
    if (getComputedStyle(el).position !== 'sticky') continue;
    const r = el.getBoundingClientRect();
    if (r.height && r.top <= 1) top = Math.max(top, r.bottom);
  }
  const chat = byId('chat');
  if (chat && !chat.hidden && getComputedStyle(chat).display !== 'none') {
    const r = chat.getBoundingClientRect();
    if (r.width >= window.innerWidth * 0.6 && r.top > top && r.top < bottom) bottom = r.top;
  }
  return { top, bottom };
}
