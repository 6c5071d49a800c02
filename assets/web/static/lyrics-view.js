// @ts-check
// A section's lines of words on the grid: each line as words of pieces, a piece's chord over the
// syllable it falls on (lyrics-layout.js cuts the line), drawn with the grid's own chord typesetting.
// A recall of the chorus is the word "Chorus" in the page's language, and the chorus's words again (the
// nearest section before it whose role is chorus, docs/content.md), read-only.
//
// A line whose text and chord places are as last drawn keeps its elements: a transposition, capo or
// numbers change rewrites the chords' text in place, in three times (docs/performance.md):
// - the lines in the window, in the frame of the change;
// - the lines within a quarter of a window of it, in the frame after (before a scroll brings them in);
// - the rest (the lines further away, and the sections off screen, which content-visibility skips,
//   app.css) once the view has not changed for a moment (settle), in idle moments a few lines at a
//   time, or at once when they come near the window or before printing (flush). A musician stepping
//   to their key has them rewritten once, and a screen reader or find-in-page has them a moment later.

import { h } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { chordElement, setChord } from './board-view.js';
import { hasChords, layoutLine, wordsWidth } from './lyrics-layout.js';
import { hasLines, recallOf } from './lyrics-content.js';
import './lyrics-strings.js';

// How long the view must stay unchanged before what a paint left for later is done (settle).
const SETTLE = 300;
// How many lines an idle moment catches up at most.
const CATCH_UP_LINES = 8;

// LyricsView draws the lines of one section into el (created by the grid beside the section's bars).
export class LyricsView {
  // onLine(k), when given (edit mode), is called when line k is chosen for editing; onAdd() when a line
  // is to be added at the end (an "Add words" button after the lines, in every section).
  constructor(el, { onLine = null, onAdd = null } = {}) {
    this.el = el;
    this.onLine = onLine;
    this.rows = []; // [{el, path, shape, chords: [chord element], chorded, width, near, later}]
    this.byElement = new Map(); // each row by its line's element, for the observers (near)
    this.unobserved = new Set(); // the rows drawn since the observers were last given new ones
    this.behind = new Set(); // the rows with chords left until the view settles (catchUp)
    this.next = new Set(); // the rows with chords left for the frame after this one (soon)
    this.settling = false; // a catch-up is asked for (settle)
    this.changedAt = 0; // when a paint last left something for later
    this.recall = null;
    this.addBtn = null;
    if (onAdd) {
      this.addBtn = h('button', { type: 'button', class: 'lyrics-add' });
      bindText(this.addBtn, 'lyrics.addLine');
      this.addBtn.addEventListener('click', () => onAdd());
      el.append(this.addBtn);
    }
  }

  // paint shows section i's lines (and its recall), section as the view shows it; recalled are the
  // lines a recall repeats.
  paint(section, i, recalled = [], now = false) {
    this.watch();
    if (!now && this.skipped && this.drawn) {
      this.pending = [section, i, recalled];
      this.settle();
      return;
    }
    this.pending = null;
    this.drawn = true;
    const recall = recallOf(section);
    const lines = recall ? recalled : hasLines(section) ? section.lines : [];
    // A recall's lines are the chorus's: shown, not edited here.
    if (this.recalling !== Boolean(recall)) {
      this.recalling = Boolean(recall);
      while (this.rows.length) this.dropRow();
    }
    this.el.hidden = !lines.length && !recall && !this.addBtn;
    if (this.addBtn) {
      this.addBtn.hidden = Boolean(recall);
      bindAttr(this.addBtn, 'aria-label', 'lyrics.addLineAria', { name: section.label || String(i + 1) });
    }
    lines.forEach((line, k) => this.paintLine(this.rows[k] || this.addRow(k), line, i, k));
    while (this.rows.length > lines.length) this.dropRow();
    this.measure(recall);
    if (recall && !this.recall) {
      this.recall = h('p', { class: 'lyric-recall' });
      this.el.insertBefore(this.recall, this.rows[0]?.el || this.addBtn);
    }
    if (this.recall) {
      if (recall) bindText(this.recall, 'lyrics.recall', { name: recall });
      else {
        this.recall.remove();
        this.recall = null;
      }
    }
  }

  // measure gives the section what lyrics.css estimates its height from while it is not drawn: its
  // lines (a recall's word is one more), those with chords, and their width in letters. Set only when
  // they change: the properties are inherited, and a change restyles everything the section holds.
  measure(recall) {
    let chorded = 0;
    let width = 0;
    for (const row of this.rows) {
      chorded += row.chorded ? 1 : 0;
      width += row.width;
    }
    const n = this.rows.length + (recall ? 1 : 0);
    const m = `${n} ${chorded} ${width}`;
    if (this.measured === m) return;
    this.measured = m;
    const sec = this.el.parentElement;
    if (!sec) return;
    sec.style.setProperty('--lines', String(n));
    sec.style.setProperty('--chorded', String(chorded));
    sec.style.setProperty('--chars', String(width));
  }

  // watch follows whether the browser skips the section (it reports every section once it has decided,
  // and again on each change); asking it instead (checkVisibility) would bring a skipped section's style
  // up to date, the work skipping saves.
  watch() {
    if (this.watching) return;
    const sec = this.el.parentElement?.closest('.section');
    if (!sec) return;
    this.watching = true;
    sec.addEventListener('contentvisibilityautostatechange', (ev) => {
      if (ev.target !== sec) return;
      this.skipped = ev.skipped;
      if (!ev.skipped) this.flush();
    });
  }

  // flush paints what a paint left for later: the section, or the chords of its lines away from the
  // window.
  flush() {
    this.catchUpAll();
    if (!this.pending) return;
    const [section, i, recalled] = this.pending;
    this.pending = null;
    this.paint(section, i, recalled, true);
  }

  // near follows which lines are in the window (shown) and which are close to it (near). The browser
  // lays out every line of a section in view up to a window and a half or more away from it
  // (content-visibility); a new chord text in each of them would be laid out in the frame of the
  // change, so only the lines in the window take theirs there (paintLine). A new line counts as in the
  // window until the observers say otherwise; they are given the lines drawn in a task once its frame
  // is painted, so that the frame showing a song for the first time does not wait for them.
  near(row) {
    this.unobserved.add(row);
    if (this.observeAsked) return;
    this.observeAsked = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.observeAsked = false;
      if (!this.seen) {
        const follow = (key) => (entries) => {
          for (const e of entries) {
            const r = this.byElement.get(e.target);
            if (!r) continue;
            r[key] = e.isIntersecting;
            if (r[key]) this.catchUp(r);
          }
        };
        this.seen = new IntersectionObserver(follow('near'), { rootMargin: '25% 0px' });
        this.inWindow = new IntersectionObserver(follow('shown'));
      }
      for (const r of this.unobserved) {
        this.seen.observe(r.el);
        this.inWindow.observe(r.el);
      }
      this.unobserved.clear();
    }));
  }

  dropRow() {
    const row = this.rows.pop();
    this.unobserved.delete(row);
    this.byElement.delete(row.el);
    this.seen?.unobserve(row.el);
    this.inWindow?.unobserve(row.el);
    this.forget(row);
    row.el.remove();
  }

  // forget drops what a paint left for later on row (it is written now, or gone).
  forget(row) {
    row.later = null;
    this.behind.delete(row);
    this.next.delete(row);
  }

  // catchUp writes the chords a paint left for later on a line away from the window.
  catchUp(row) {
    this.behind.delete(row);
    this.next.delete(row);
    if (!row.later) return;
    const chords = row.later;
    row.later = null;
    chords.forEach((c, n) => setChord(row.chords[n], c.chord));
  }

  // later leaves row's chords for later: the section's lines away from the window catch up once the
  // view has settled (settle), or as they come near.
  later(row, chords) {
    row.later = chords;
    this.behind.add(row);
    this.settle();
  }

  // soon leaves row's chords (a line near the window, not in it) for the frame after the one that
  // shows the change: a task queued from this frame's animation callbacks runs once it is painted.
  soon(row, chords) {
    row.later = chords;
    this.next.add(row);
    if (this.nextAsked) return;
    this.nextAsked = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.nextAsked = false;
      for (const r of this.next) this.catchUp(r);
    }));
  }

  // settle asks for what paints left for later (a section off screen, the chords of lines away from
  // the window) to be done once the view has not changed for SETTLE ms, in idle moments: a musician
  // stepping the transposition three times to their key has the far lines rewritten once, and the
  // work does not crowd the frames that show each step.
  settle() {
    this.changedAt = performance.now();
    if (this.settling) return;
    this.settling = true;
    setTimeout(() => this.whenSettled(), SETTLE);
  }

  whenSettled() {
    const left = this.changedAt + SETTLE - performance.now();
    if (left > 0) setTimeout(() => this.whenSettled(), left);
    else requestIdleCallback((deadline) => this.catchUpIdle(deadline), { timeout: 500 });
  }

  // catchUpIdle paints the section left for later, or writes the chords left for later while the
  // idle period lasts and asks for another for the rest.
  catchUpIdle(deadline) {
    if (this.changedAt + SETTLE > performance.now()) {
      this.whenSettled();
      return;
    }
    this.settling = false;
    if (this.pending) {
      this.flush();
      return;
    }
    // A few lines at a time: those the browser lays out (content-visibility) cost their layout in
    // the next frame, which stays short.
    let n = 0;
    for (const row of this.behind) {
      if (n++ === CATCH_UP_LINES || (!deadline.didTimeout && deadline.timeRemaining() < 1)) break;
      this.catchUp(row);
    }
    if (this.behind.size) {
      this.settling = true;
      requestIdleCallback((d) => this.catchUpIdle(d), { timeout: 500 });
    }
  }

  // catchUpAll writes every chord left for later (flush: before printing, or the section came near).
  catchUpAll() {
    for (const row of [...this.behind, ...this.next]) this.catchUp(row);
  }

  addRow(k) {
    const row = { el: h('div', { class: 'lyric-line' }), path: '', shape: null, chords: [], chorded: false, width: 0, near: true, shown: true, later: null };
    if (this.onLine && !this.recalling) {
      row.el = h('button', { type: 'button', class: 'lyric-line lyric-btn' });
      row.el.addEventListener('click', () => this.onLine(k));
    }
    this.el.insertBefore(row.el, this.recalling ? this.addBtn : this.recall || this.addBtn);
    this.rows[k] = row;
    this.byElement.set(row.el, row);
    this.near(row);
    return row;
  }

  // made gives the elements a line is drawn with, copies of the view's finished ones: a word, a piece
  // with its chord row or without, a chord of a symbol (made by the grid's chordElement the first time).
  made() {
    if (this.shapes) return this.shapes;
    const span = (cls, ...kids) => {
      const el = document.createElement('span');
      el.className = cls;
      el.append(...kids);
      return el;
    };
    const chords = new Map();
    this.shapes = {
      word: span('lw'),
      piece: span('lp', span('lc'), span('lt')),
      plain: span('lp', span('lt')),
      chord: (symbol) => {
        let el = chords.get(symbol);
        if (!el) {
          el = chordElement(symbol);
          chords.set(symbol, el);
        }
        return /** @type {HTMLElement} */ (el.cloneNode(true));
      },
    };
    return this.shapes;
  }

  paintLine(row, line, i, k) {
    // Written when it changes only: a transposition rewrites no attribute of a line.
    const path = `sections[${i}].${this.recalling ? 'recalled' : 'lines'}[${k}]`;
    if (row.path !== path) {
      row.path = path;
      row.el.dataset.path = path;
    }
    const chords = line.chords || [];
    const shape = `${line.text}\u0000${chords.map((c) => c.at).join(',')}`;
    // In a section the browser skips, a new chord costs no layout: it is written at once.
    if (row.shape === shape && !row.shown && !this.skipped) {
      if (row.near) this.soon(row, chords);
      else this.later(row, chords);
    } else if (row.shape === shape) {
      this.forget(row);
      chords.forEach((c, n) => setChord(row.chords[n], c.chord));
    } else {
      row.shape = shape;
      this.forget(row);
      row.chords = [];
      const withChords = hasChords(line);
      row.chorded = withChords;
      row.el.classList.toggle('plain', !withChords);
      row.el.classList.toggle('blank', !line.text && !withChords);
      const laid = layoutLine(line);
      row.width = wordsWidth(laid);
      // A long song is thousands of these elements: each is a copy of a finished one (a word, a piece,
      // a chord of the same symbol), which the browser makes in a fraction of the time of building it.
      const made = this.made();
      const words = laid.map((word) => {
        const w = /** @type {HTMLElement} */ (made.word.cloneNode());
        for (const piece of word) {
          const p = /** @type {HTMLElement} */ ((withChords ? made.piece : made.plain).cloneNode(true));
          if (piece.joined) p.classList.add('joined');
          if (withChords && piece.chord) {
            const el = made.chord(piece.chord);
            row.chords.push(el);
            /** @type {HTMLElement} */ (p.firstChild).append(el);
          }
          p.lastChild.textContent = piece.text;
          w.append(p);
        }
        return w;
      });
      row.el.replaceChildren(...words);
    }
    if (this.onLine && !this.recalling) bindAttr(row.el, 'aria-label', 'lyrics.editLine', { n: k + 1, text: line.text || '—' });
  }
}
