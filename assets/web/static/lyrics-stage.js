// @ts-check
// Stage mode's autoscroll for a song's words: sections of words alone have no bars for the player to
// follow, so the page scrolls through them at a reading speed. The speed starts from the song (its
// words' share of its length at its tempo) and the musician sets it (slower / faster, remembered on this
// device: tele.stage.scroll, not a secret). A tap on the chart, Space, or a page-turner pedal (PageUp /
// PageDown, the keys the set's song navigation also takes) pauses and resumes it; while it runs, the
// pedal is the autoscroll's, not the next song's.
//
// It scrolls only in stage mode (html[data-stage]) and only while the part of the chart being read is
// words alone or the player is not playing: the player's own follow keeps the bar being heard in view.

import { h } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { read, write } from './storage.js';
import { lyricOnly, readingSpeed } from './lyrics-content.js';
import './lyrics-strings.js';

const SPEED_KEY = 'tele.stage.scroll';
// The musician's speed, as a share of the song's own; each step is about a fifth faster or slower.
const FACTORS = [50, 60, 70, 80, 90, 100, 110, 125, 140, 160, 180, 200];
const SONG = FACTORS.indexOf(100);
export class LyricsStage {
  // tools is the stage controls' group (where the autoscroll's controls join them); grid the chart;
  // playing() tells whether the player is playing.
  /**
   * @param {HTMLElement} tools
   * @param {HTMLElement} grid
   * @param {{ playing?: () => boolean }} [opts]
   */
  constructor(tools, grid, { playing = () => false } = {}) {
    this.grid = grid;
    this.playing = playing;
    this.root = document.documentElement;
    this.factor = loadFactor();
    this.on = false;
    this.paused = false;
    this.content = null;

    this.toggle = h('button', { type: 'button', id: 'stage-scroll', 'aria-pressed': 'false' });
    bindText(this.toggle, 'lyrics.scroll');
    this.slower = h('button', { type: 'button', class: 'icon-btn', id: 'stage-scroll-slower' }, h('span', { 'aria-hidden': 'true' }, '−'));
    this.faster = h('button', { type: 'button', class: 'icon-btn', id: 'stage-scroll-faster' }, h('span', { 'aria-hidden': 'true' }, '+'));
    bindAttr(this.slower, 'aria-label', 'lyrics.scrollSlower');
    bindAttr(this.faster, 'aria-label', 'lyrics.scrollFaster');
    this.out = h('output', { class: 'stage-size-out', id: 'stage-scroll-out', 'aria-live': 'polite' });
    this.group = h('span', { class: 'stage-size stage-scroll', hidden: true }, this.toggle, this.slower, this.out, this.faster);
    tools.insertBefore(this.group, tools.querySelector('.print-btn'));

    this.toggle.addEventListener('click', () => this.setOn(!this.on));
    this.slower.addEventListener('click', () => this.setFactor(this.factor - 1));
    this.faster.addEventListener('click', () => this.setFactor(this.factor + 1));
    // A tap on the chart pauses or resumes (the stage's chart has nothing else a tap does).
    grid.addEventListener('click', () => this.on && this.setPaused(!this.paused));
    // Capture: the pedal is the autoscroll's before the set's song navigation sees it.
    document.addEventListener('keydown', (ev) => this.key(ev), true);
    new MutationObserver(() => this.stageChanged()).observe(this.root, { attributes: true, attributeFilter: ['data-stage'] });
    this.showFactor();
  }

  // render follows the board: the autoscroll is offered when it has sections of words alone.
  render(content) {
    this.content = content;
    this.stageChanged();
  }

  stageChanged() {
    const stage = 'stage' in this.root.dataset;
    const offered = stage && Boolean(this.content?.sections?.some(lyricOnly));
    this.group.hidden = !offered;
    if (!offered && this.on) this.setOn(false);
  }

  setOn(on) {
    this.on = on;
    this.paused = false;
    this.toggle.setAttribute('aria-pressed', String(on));
    this.showState();
    if (on) this.start();
  }

  setPaused(paused) {
    this.paused = paused;
    this.showState();
    if (!paused) this.start();
  }

  showState() {
    bindText(this.toggle, !this.on ? 'lyrics.scroll' : this.paused ? 'lyrics.scrollPaused' : 'lyrics.scrolling');
    if (this.on) this.root.dataset.autoscroll = this.paused ? 'paused' : 'on';
    else delete this.root.dataset.autoscroll;
  }

  setFactor(i) {
    const next = Math.max(0, Math.min(FACTORS.length - 1, i));
    if (next === this.factor) return;
    this.factor = next;
    write('local', SPEED_KEY, String(FACTORS[next]));
    this.showFactor();
  }

  showFactor() {
    bindText(this.out, 'lyrics.scrollSpeed', { n: FACTORS[this.factor] });
    this.slower.disabled = this.factor === 0;
    this.faster.disabled = this.factor === FACTORS.length - 1;
  }

  key(ev) {
    if (!this.on || !('stage' in this.root.dataset) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest?.('input, textarea, select, [contenteditable], button')) return;
    if (![' ', 'PageUp', 'PageDown'].includes(ev.key)) return;
    ev.preventDefault();
    ev.stopPropagation();
    this.setPaused(!this.paused);
  }

  // speed is the scroll in px a second: the song's reading speed times the musician's share.
  speed() {
    const height = [...this.grid.querySelectorAll('.section')].filter((el) => el.querySelector(':scope > .lyrics:not([hidden])') && !el.querySelector(':scope > .bars:not([hidden])'))
      .reduce((n, el) => n + el.getBoundingClientRect().height, 0);
    return (readingSpeed(this.content, height) * FACTORS[this.factor]) / 100;
  }

  // start runs the scroll a frame at a time while it is on and not paused; fractions of a px carry over.
  start() {
    if (this.running) return;
    this.running = true;
    let last = performance.now();
    let carry = 0;
    const step = (now) => {
      if (!this.on || this.paused) {
        this.running = false;
        return;
      }
      const dt = Math.min(0.1, (now - last) / 1000);
      last = now;
      if (!this.playing() || this.readingWords()) {
        carry += this.speed() * dt;
        const px = Math.floor(carry);
        if (px >= 1) {
          carry -= px;
          window.scrollBy({ top: px, behavior: 'instant' });
        }
      }
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  // readingWords: the section at a third of the window's height is words alone.
  readingWords() {
    const y = window.innerHeight / 3;
    for (const el of this.grid.querySelectorAll('.section')) {
      const r = el.getBoundingClientRect();
      if (r.top <= y && r.bottom >= y) return !el.querySelector(':scope > .bars:not([hidden])');
    }
    return false;
  }
}

function loadFactor() {
  const i = FACTORS.indexOf(Number(read('local', SPEED_KEY)));
  return i >= 0 ? i : SONG;
}
