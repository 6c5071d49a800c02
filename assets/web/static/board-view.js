// @ts-check
// The chord grid: sections of bars, bars of chords. render(content) patches the DOM in place (nodes
// are reused by position, text changes only where it differs), so a live update never replaces the
// grid: focus, scroll position and a cursor on the playing bar survive it.
//
// The number of bars per row is CSS (a container query on .grid-wrap), so it follows the width of the
// grid's container, not the window. Chords of one bar share its width evenly.

import { h } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { split } from './chords.js';
import { GLYPH, isNumber, pieces, raised, spokenChord } from './notation.js';
import { sectionName } from './content.js';
import { SIMILE, barForm, endingSpans, jumpEndings } from './form.js';
import { paintForm } from './form-view.js';
import { RolePicker, paintRoleName } from './role-picker.js';
import { AT_ONCE, FAR_STEP, NEAR_BUILD, StepBuild, barCount, barsShown, nextTask, stepWait } from './grid-build.js';
import { LyricsView } from './lyrics-view.js';
import { recalledLines } from './lyrics-content.js';

export class BoardView {
  // handlers (edit mode only): editBar(s, b), label(s, value), role(s, value), moveSection(s, delta),
  // removeSection(s), addBar(s), addSection(), duplicateSection(s).
  /**
   * @param {HTMLElement} root
   * @param {{ editable: boolean, handlers?: Partial<{
   *   editBar: (s: number, b: number) => void, label: (s: number, value: string) => void,
   *   role: (s: number, value: string) => void, moveSection: (s: number, delta: number) => void,
   *   removeSection: (s: number) => void, addBar: (s: number) => void, addSection: () => void,
   *   duplicateSection: (s: number) => void, editLine: (s: number, k: number) => void, addLine: (s: number) => void,
   * }> }} opts
   */
  constructor(root, { editable, handlers = {} }) {
    this.root = root;
    this.editable = editable;
    this.handlers = handlers;
    this.sections = []; // [{el, mark, input, tools, barsEl, addBar, bars: [{li, target, num, chordsEl, key}]}]
    this.cursor = null;
    this.adopted = false; // the grid holds the server's drawing, not patched yet (adopt)
    // The first chord element made for each symbol, which later ones are copies of (chordCopy), and a
    // bar as createBar makes it before its content: a large board repeats a few symbols hundreds of
    // times, and a copy costs the browser a fraction of building one, the more so in a page's first
    // load, before its code is compiled.
    /** @type {Map<string, HTMLElement>} */
    this.chordShapes = new Map();
    /** @type {HTMLElement | null} */
    this.barShape = null;
    root.classList.add('grid');
    bindAttr(root, 'aria-label', 'grid.label');
    if (editable) {
      this.addSectionBtn = h('button', { type: 'button', class: 'add-section' });
      bindText(this.addSectionBtn, 'section.add');
      this.addSectionBtn.addEventListener('click', () => this.handlers.addSection());
      root.append(this.addSectionBtn);
    }
  }

  // adopt takes the sections the server drew into the grid for a reader (the first view, package
  // firstview: what createSection and createBar make, with their content) as this view's own drawing,
  // so that the next render patches them as it would bars it drew (the labels a screen reader reads,
  // the role's name) instead of making a large board's 13,000 elements again.
  adopt() {
    for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (this.root.children)) {
      if (!el.classList.contains('section')) continue;
      const head = /** @type {HTMLElement} */ (el.firstElementChild);
      const barsEl = /** @type {HTMLElement} */ (head.nextElementSibling);
      const lyricsEl = /** @type {HTMLElement} */ (barsEl.nextElementSibling);
      const s = { el, mark: head.firstElementChild, roleName: head.lastElementChild, barsEl, lyricsEl, lyrics: new LyricsView(lyricsEl, {}), bars: [] };
      for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (barsEl.children)) {
        const num = /** @type {HTMLElement} */ (li.firstElementChild);
        const chordsEl = /** @type {HTMLElement} */ (num.nextElementSibling);
        // Its form is painted again (plain: false) and its chords compared with the board's.
        s.bars.push({ plain: false, li, target: li, num, chordsEl, n: Number(num.textContent), count: chordsEl.children.length });
      }
      this.sections.push(s);
    }
    this.adopted = this.sections.length > 0;
  }

  // build draws content into the empty grid, a large board over several tasks (grid-build.js), the
  // grid aria-busy meanwhile; drawn(bars) gets the bars (li) each step drew. A grid holding bars is
  // patched at once, but for an adopted first view (adopt), patched over several tasks too. It returns a promise that
  // settles when the build is over: every bar drawn, by the build or by a render or a lookup (barButton,
  // sectionControl, complete()) that came first, or the build stopped (stop(), the view given up).
  build(content, drawn) {
    const total = barCount(content);
    if ((this.sections.length && !this.adopted) || total <= AT_ONCE) {
      this.render(content);
      drawn(this.changed);
      return Promise.resolve();
    }
    // Drawn by the server and laid out already, an adopted grid is patched a large step a task; what a
    // step has not reached yet is left as the server drew it.
    const adopted = this.adopted;
    this.adopted = false;
    const run = new StepBuild(total, {
      draw: (n) => {
        this.draw(content, n, adopted);
        drawn(this.changed);
      },
      end: () => {
        if (this.building === run) this.building = null;
        this.root.removeAttribute('aria-busy');
        this.root.removeAttribute(NEAR_BUILD);
      },
      next: adopted ? () => nextTask().then(() => FAR_STEP) : stepWait(this.root),
    });
    this.building = run;
    this.root.setAttribute('aria-busy', 'true');
    run.start();
    return run.done;
  }

  // complete draws the rest of a build in progress now, and the words of sections off screen.
  complete() {
    this.building?.finish();
    for (const s of this.sections) s.lyrics.flush();
  }

  // stop ends a build in progress where it is (the view is given up, or a render draws every bar).
  stop() {
    this.building?.stop();
  }

  // render patches the grid to show content; afterwards this.changed lists the bars (li) it drew anew
  // or patched, for what depends on their layout (chord fitting) to redo only those. A build in
  // progress ends: this draws every bar.
  render(content) {
    this.stop();
    this.draw(content);
  }

  // draw shows content, or with upTo its first upTo bars only (a step of a build): the sections after
  // them are not drawn yet, or with keep left as they are (an adopted grid's).
  draw(content, upTo = Infinity, keep = false) {
    const secs = content.sections || [];
    const shown = upTo === Infinity ? secs.map((s) => s.bars.length) : barsShown(content, upTo);
    let barNo = 0;
    this.changed = [];
    this.beatsPerBar = content.beatsPerBar;
    this.content = content; // a recall draws the words of a chorus before it
    // Which ending each bar is in: a volta bracket spans every bar of its ending (one pass per content).
    if (this.spansOf !== content) {
      this.spansOf = content;
      this.spans = endingSpans(content);
      this.alEndings = jumpEndings(content);
    }
    shown.forEach((n, i) => {
      const s = this.sections[i] || this.createSection(i);
      this.patchSection(s, secs[i], i, barNo, secs.length, n, keep);
      barNo += n;
    });
    while (!keep && this.sections.length > shown.length) this.sections.pop().el.remove();
    this.applyCursor();
  }

  createSection(i) {
    const s = { bars: [] };
    s.el = h('section', { class: 'section', dataset: { path: `sections[${i}]` } });
    const head = h('div', { class: 'section-head' });
    if (this.editable) {
      s.input = h('input', {
        class: 'mark mark-input', type: 'text', maxlength: 40, autocomplete: 'off', spellcheck: 'false',
        dataset: { path: `sections[${i}].label` },
      });
      s.input.addEventListener('input', () => this.handlers.label(i, s.input.value));
      const tool = (cls, text, fn) => {
        const b = h('button', { type: 'button', class: `icon-btn ${cls}` }, h('span', { 'aria-hidden': 'true' }, text));
        b.addEventListener('click', fn);
        return b;
      };
      s.up = tool('move-up', '↑', () => this.handlers.moveSection(i, -1));
      s.down = tool('move-down', '↓', () => this.handlers.moveSection(i, +1));
      s.dup = tool('duplicate', '', () => this.handlers.duplicateSection(i));
      s.remove = tool('remove', '×', () => this.handlers.removeSection(i));
      s.addBar = h('button', { type: 'button', class: 'add-bar' });
      bindText(s.addBar, 'section.addBarShort');
      s.addBar.addEventListener('click', () => this.handlers.addBar(i));
      s.role = new RolePicker(i, (value) => this.handlers.role(i, value));
      head.append(s.input, s.role.el, h('div', { class: 'section-tools' }, s.up, s.down, s.dup, s.remove), s.addBar);
    } else {
      s.mark = h('h2', { class: 'mark' });
      s.roleName = h('span', { class: 'role-name', hidden: true });
      head.append(s.mark, s.roleName);
    }
    s.barsEl = h('ol', { class: 'bars' });
    // A section's words go under its bars (lyrics-view.js).
    s.lyricsEl = h('div', { class: 'lyrics', hidden: true });
    s.lyrics = new LyricsView(s.lyricsEl, this.editable && this.handlers.editLine ? { onLine: (k) => this.handlers.editLine(i, k), onAdd: () => this.handlers.addLine(i) } : {});
    s.el.append(head, s.barsEl, s.lyricsEl);
    if (this.addSectionBtn) this.root.insertBefore(s.el, this.addSectionBtn);
    else this.root.append(s.el);
    this.sections[i] = s;
    return s;
  }

  // patchSection draws section i, its first shown bars (a build draws a section over several steps);
  // with keep, the bars after them are left as they are.
  patchSection(s, section, i, barNo, count, shown, keep = false) {
    const name = sectionName(section, i);
    if (s.name !== name) {
      s.name = name;
      bindAttr(s.el, 'aria-label', 'section.aria', { name });
      if (this.editable) {
        bindAttr(s.up, 'aria-label', 'section.moveUp', { name });
        bindAttr(s.down, 'aria-label', 'section.moveDown', { name });
        bindAttr(s.dup, 'aria-label', 'section.duplicate', { name });
        bindAttr(s.remove, 'aria-label', 'section.remove', { name });
        bindAttr(s.addBar, 'aria-label', 'section.addBar', { name });
      }
    }
    if (this.editable) {
      if (s.input.value !== section.label) s.input.value = section.label;
      bindAttr(s.input, 'aria-label', 'field.sectionLabel', { n: i + 1 });
      s.up.disabled = i === 0;
      s.down.disabled = i === count - 1;
      s.remove.disabled = count === 1; // a board has at least one section
      s.role.set(section.role, name);
    } else {
      if (s.mark.textContent !== section.label) s.mark.textContent = section.label;
      s.mark.hidden = !section.label;
      paintRoleName(s.roleName, section.role);
    }
    // The section's estimated height (app.css) counts every bar of it from the first step: the custom
    // property is inherited, and a change restyles every bar the section holds.
    if (s.count !== section.bars.length) {
      s.count = section.bars.length;
      s.el.style.setProperty('--bars', String(s.count));
    }
    // Bars made by this render go in at once, in one fragment; a bar whose content, number and meter
    // are as last drawn is not touched at all (a live update of one bar patches one bar).
    const added = document.createDocumentFragment();
    section.bars.slice(0, shown).forEach((raw, j) => {
      const bar = s.bars[j] || this.createBar(s, i, j, added);
      const n = barNo + j + 1;
      const inEnding = this.spans[i]?.[j] || 0;
      const alEnding = this.alEndings[i]?.[j] || 0;
      const sig = (Array.isArray(raw) ? raw.join(' ') : JSON.stringify(raw)) + (inEnding ? ` [${inEnding}` : '') + (alEnding ? ` al${alEnding}` : '');
      if (bar.sig === sig && bar.n === n && bar.beats === this.beatsPerBar) return;
      bar.sig = sig;
      bar.beats = this.beatsPerBar;
      this.changed.push(bar.li);
      const form = barForm(raw);
      this.patchBar(bar, form.simile ? [SIMILE] : form.chords, n, form.simile ? null : form.durations);
      // A bar of chords alone outside an ending has no form to draw: one that had none is left as it is.
      const plain = Array.isArray(raw) && !inEnding;
      if (!plain || !bar.plain) paintForm(bar.li, form, this.beatsPerBar, inEnding, alEnding);
      bar.plain = plain;
    });
    if (added.firstChild) s.barsEl.append(added);
    while (!keep && s.bars.length > shown) s.bars.pop().li.remove();
    s.lyrics.paint(section, i, recalledLines(this.content, i));
    s.barsEl.hidden = section.bars.length === 0;
  }

  createBar(s, i, j, parent) {
    const bar = { plain: true }; // no form drawn yet
    bar.li = /** @type {HTMLElement} */ (this.emptyBar().cloneNode(true));
    bar.li.dataset.path = `sections[${i}].bars[${j}]`;
    if (this.editable) {
      bar.target = /** @type {HTMLElement} */ (bar.li.firstElementChild);
      bar.target.addEventListener('click', () => this.handlers.editBar(i, j));
    } else {
      bar.target = bar.li;
    }
    bar.num = /** @type {HTMLElement} */ (bar.target.firstElementChild);
    bar.chordsEl = /** @type {HTMLElement} */ (bar.num.nextElementSibling);
    parent.append(bar.li);
    s.bars[j] = bar;
    return bar;
  }

  // emptyBar is the bar createBar copies: its number and its chords (in a button when editing), empty.
  emptyBar() {
    if (!this.barShape) {
      const num = h('span', { class: 'bar-num', 'aria-hidden': 'true' });
      const chords = h('span', { class: 'chords' });
      this.barShape = this.editable
        ? h('li', { class: 'bar' }, h('button', { type: 'button', class: 'bar-btn' }, num, chords))
        : h('li', { class: 'bar' }, num, chords);
    }
    return this.barShape;
  }

  // chordCopy is a chord element showing symbol, a copy of the first one made for it.
  chordCopy(symbol) {
    let el = this.chordShapes.get(symbol);
    if (!el) {
      el = chordElement(symbol);
      this.chordShapes.set(symbol, el);
    }
    return /** @type {HTMLElement} */ (el.cloneNode(true));
  }

  patchBar(bar, chords, n, durations = null) {
    const key = chords.join(' ');
    if (bar.key !== key || bar.n !== n) {
      // Nashville numbers are named apart from their quality (notation.js): "1 7", not "seventeen".
      const spoken = /(^| )[b#]?[1-7]/.test(key) ? chords.map((c) => spokenChord(split(c))).join(' ') : key;
      bindAttr(bar.target, 'aria-label', this.editable ? 'bar.edit' : 'bar.aria', { n, chords: spoken });
    }
    if (bar.n !== n) {
      bar.n = n;
      bar.num.textContent = String(n);
    }
    const timed = durations && durations.length === chords.length ? durations.join(' ') : '';
    if (bar.key === key && bar.timed === timed) return;
    bar.key = key;
    bar.timed = timed;
    const el = bar.chordsEl;
    if (bar.count !== chords.length) {
      bar.count = chords.length;
      el.dataset.n = String(chords.length);
      // A bar of three or four chords is busy: on a phone it takes two columns (app.css).
      bar.li.toggleAttribute('data-busy', chords.length >= 3);
    }
    // The chord elements already there are rewritten in place: a live update that changes every bar
    // changes text, not the tree.
    chords.forEach((symbol, k) => {
      const chord = el.children[k];
      if (chord) setChord(chord, symbol);
      else el.append(this.chordCopy(symbol));
    });
    while (el.children.length > chords.length) el.lastElementChild.remove();
    // Beat positions (content schema version 3): each chord takes its beats' share of the bar's width
    // (app.css grows it by data-b); a bar without durations shares it evenly.
    if (timed) {
      el.dataset.timed = timed;
      el.dataset.beats = String(durations.reduce((a, d) => a + d, 0));
    } else {
      delete el.dataset.timed;
      delete el.dataset.beats;
    }
    [...el.children].forEach((c, k) => {
      const chord = /** @type {HTMLElement} */ (c);
      if (timed) chord.dataset.b = String(durations[k]);
      else delete chord.dataset.b;
    });
  }

  // Player cursor: the bar being heard, or null.
  setCursor(pos) {
    this.cursor = pos && pos.section !== undefined ? pos : null;
    this.applyCursor();
  }

  applyCursor() {
    const want = this.cursor ? this.sections[this.cursor.section]?.bars[this.cursor.bar] : null;
    if (this.cursorBar === want) return;
    if (this.cursorBar) {
      this.cursorBar.li.classList.remove('is-current');
      this.cursorBar.li.removeAttribute('aria-current');
    }
    this.cursorBar = want || null;
    if (want) {
      want.li.classList.add('is-current');
      want.li.setAttribute('aria-current', 'true');
    }
  }

  // Element lookups for focus and validation errors.
  barButton(s, b) {
    this.complete();
    return this.sections[s]?.bars[b]?.target || null;
  }

  sectionControl(s, kind) {
    this.complete();
    const sec = this.sections[s];
    return sec ? { input: sec.input, up: sec.up, down: sec.down, duplicate: sec.dup, remove: sec.remove, addBar: sec.addBar }[kind] : null;
  }
}

// chordElement shows a symbol as text in three parts (root, quality, bass) for typesetting; its text
// content is exactly the symbol (accidentals are drawn as glyphs over it, notation.js).
export function chordElement(symbol) {
  const { root, quality, bass } = split(symbol);
  const el = part(chordClass(symbol, root), '');
  for (const [cls, text] of [['root', root], ['q', quality], ['bass', bass]]) {
    if (!text) continue;
    const p = part(cls, '');
    el.append(p);
    setPartText(p, text); // in its chord, which says whether it is a number's
  }
  return el;
}

// setChord makes a chord element show symbol as chordElement(symbol) would, reusing its parts.
export function setChord(el, symbol) {
  const { root, quality, bass } = split(symbol);
  const cls = chordClass(symbol, root);
  if (el.className !== cls) el.className = cls;
  const first = el.firstElementChild;
  setPartText(first, root);
  setPart(el, setPart(el, first.nextElementSibling, 'q', quality), 'bass', bass);
}

// setPart makes the chord's part of class name show text, or takes it away when text is empty; next is
// the element at the part's place, and it returns the element after the part.
function setPart(chord, next, name, text) {
  if (next && next.className === name) {
    const after = next.nextElementSibling;
    if (text) setPartText(next, text);
    else next.remove();
    return after;
  }
  if (text) setPartText(chord.insertBefore(part(name, ''), next), text);
  return next;
}

function chordClass(symbol, root) {
  return symbol === 'N.C.' ? 'chord nc' : isNumber(root) ? 'chord num' : 'chord';
}

// part is a span of class cls showing text (a chord and its parts: thousands of them on a large board,
// made without dom.js's general h()).
function part(cls, text) {
  const el = document.createElement('span');
  el.className = cls;
  if (text) setPartText(el, text);
  return el;
}

// setPartText writes a part's text: plain text, or with its accidentals as glyphs, and a number's
// quality raised from its first degree on (notation.js).
function setPartText(el, text) {
  const number = el.className === 'q' && el.parentElement?.classList.contains('num');
  // A part with neither b nor # (most of them) is plain text without running pieces' pattern.
  const parts = number || !/[b#]/.test(text) ? null : pieces(el.className, text);
  if (!number) {
    // removeAttribute, not the dataset: a new part has no dataset object to make for this.
    el.removeAttribute('data-num');
    const node = el.firstChild;
    if (!parts && node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) {
      if (node.data !== text) node.data = text;
    } else {
      patchPieces(el, parts || [text]);
    }
    return;
  }
  if (el.textContent === text && el.getAttribute('data-num') === 'true') return;
  el.setAttribute('data-num', 'true');
  const [line, up] = raised(text);
  const sup = document.createElement('span');
  sup.className = 'up';
  sup.append(...typeset('q', up));
  el.replaceChildren(...typeset('q', line), ...(up ? [sup] : []));
}

// patchPieces makes el's children show parts (text and accidentals, notation.js's pieces), keeping the
// nodes already there where they fit: a transposition changes most roots' letters in place, and makes
// or drops only the accidentals it adds or takes away.
function patchPieces(el, parts) {
  let node = el.firstChild;
  for (const p of parts) {
    if (typeof p === 'string') {
      if (node?.nodeType === Node.TEXT_NODE) {
        if (/** @type {Text} */ (node).data !== p) /** @type {Text} */ (node).data = p;
        node = node.nextSibling;
      } else {
        el.insertBefore(document.createTextNode(p), node);
      }
    } else if (node instanceof HTMLElement && node.className === 'acc') {
      if (node.firstChild?.nodeValue !== p.acc) {
        node.setAttribute('data-glyph', GLYPH[p.acc]);
        node.textContent = p.acc;
      }
      node = node.nextSibling;
    } else {
      el.insertBefore(accidental(p.acc), node);
    }
  }
  while (node) {
    const next = node.nextSibling;
    node.remove();
    node = next;
  }
}

// typeset is a part's text as nodes: text, and each accidental as its ASCII letter (kept for the
// text, hidden) under the glyph app.css draws.
function typeset(kind, text) {
  return typesetPieces(pieces(kind, text));
}

function typesetPieces(parts) {
  return parts.map((p) => (typeof p === 'string' ? p : accidental(p.acc)));
}

// An accidental is one element: its ASCII letter as its text, at no size, and the glyph drawn before it
// (app.css). A transposition into a flat key makes hundreds of them at once.
function accidental(letter) {
  const acc = document.createElement('span');
  acc.className = 'acc';
  acc.setAttribute('data-glyph', GLYPH[letter]);
  acc.append(letter);
  return acc;
}
