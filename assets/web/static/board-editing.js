// @ts-check
// Editing on the board page (with its edit key): the board's fields, the bar editor, fast entry and
// pasting on the grid, sections moved, added and removed, the view's transposition written to the
// board. Each edit is an op (edit-ops.js, content.js) the page records and draws; saving is
// save-panel.js's.

import { byId, h } from './dom.js';
import { apply } from './content.js';
import { NO_CHORD } from './chords.js';
import { BarDialog } from './bar-dialog.js';
import { FastEntry, parsePaste } from './fast-entry.js';
import { flatten } from './player.js';
import { TOO_MANY_BARS, fits, newSection, numberOrNull, pasteOps, transposeOps } from './edit-ops.js';

export class BoardEditing {
  /** @param {import('./board-page.js').BoardPage} page */
  constructor(page) {
    this.page = page;
    const fields = /** @type {const} */ ([
      ['f-title', 'title', (/** @type {string} */ v) => v],
      ['f-description', 'description', (/** @type {string} */ v) => v],
      ['f-key', 'key', (/** @type {string} */ v) => v],
      ['f-tempo', 'tempo', numberOrNull],
      ['f-beats', 'beatsPerBar', numberOrNull],
    ]);
    for (const [elId, field, parse] of fields) {
      const el = /** @type {HTMLInputElement} */ (byId(elId));
      el.addEventListener('input', () => page.edit({ t: 'set', field, value: parse(el.value) }));
    }
    const key = byId('f-key');
    for (const r of page.catalogue.roots) {
      key.append(h('option', { value: r }, r), h('option', { value: `${r}m` }, `${r}m`));
    }
    page.saves.wire();
    this.dialog = new BarDialog(page.catalogue, {
      apply: (/** @type {number} */ s, /** @type {number} */ b, /** @type {string[]} */ chords, /** @type {object} */ form) => (page.edit({ t: 'bar', s, b, chords, form }) ? page.view.barButton(s, b) : null),
      move: (/** @type {number} */ s, /** @type {number} */ b, /** @type {number} */ delta) => (page.edit({ t: 'moveBar', s, b, to: b + delta }) ? page.view.barButton(s, b + delta) : null),
      insertAfter: (/** @type {number} */ s, /** @type {number} */ b) => (this.roomFor(1) && page.edit({ t: 'insertBar', s, b: b + 1, chords: [NO_CHORD] }) ? page.view.barButton(s, b + 1) : null),
      remove: (/** @type {number} */ s, /** @type {number} */ b) => (page.edit({ t: 'removeBar', s, b }) ? page.view.barButton(s, Math.max(0, b - 1)) : null),
    });
    this.setupFastEntry();
  }

  // setupFastEntry: arrow keys between bars, typing opens a bar's editor, a pasted chart line makes bars.
  setupFastEntry() {
    const page = this.page;
    const grid = byId('grid');
    new FastEntry(grid, {
      buttons: () => {
        page.view.complete();
        return [...grid.querySelectorAll('.bar-btn')];
      },
      locate: (/** @type {HTMLElement} */ btn) => {
        const m = /^sections\[(\d+)\]\.bars\[(\d+)\]$/.exec(btn.closest('li.bar')?.getAttribute('data-path') || '');
        return { s: Number(m?.[1]), b: Number(m?.[2]) };
      },
      open: (/** @type {number} */ s, /** @type {number} */ b) => this.openBar(s, b),
      paste: (/** @type {number} */ s, /** @type {number} */ b, /** @type {string} */ text) => this.pasteBars(s, b, text),
    });
    this.dialog.input.addEventListener('paste', (ev) => {
      const text = /** @type {ClipboardEvent} */ (ev).clipboardData?.getData('text/plain') || '';
      const target = this.dialog.target;
      if (!target || !parsePaste(text, page.catalogue)) return;
      ev.preventDefault();
      this.dialog.close(null);
      this.pasteBars(target.s, target.b, text);
    });
  }

  // pasteBeats is the meter pasted bars have: the board's (a chord's dots must add up to it).
  pasteBeats() {
    const b = this.page.draft?.beatsPerBar;
    return Number.isInteger(b) ? /** @type {number} */ (b) : 4;
  }

  /**
   * pasteBars puts pasted bars in place of bar b of section s and after it; false when the text is one
   * bar (an ordinary paste). Nothing changes when a cell is not a bar or the bars do not fit.
   * @param {number} s
   * @param {number} b
   * @param {string} text
   */
  pasteBars(s, b, text) {
    const page = this.page;
    const r = parsePaste(text, page.catalogue, this.pasteBeats());
    if (!r) return false;
    const plan = pasteOps(/** @type {Content} */ (page.draft), s, b, r);
    if ('refuse' in plan) {
      page.saves.refuse(plan.refuse);
      return true;
    }
    page.saves.showMessage(null);
    for (const op of plan.ops) page.edit(op);
    page.view.barButton(s, plan.last)?.focus();
    return true;
  }

  // transposeBoard writes the view's transposition to the board: the key and every bar that moves, as
  // edits saved in one revision through the usual save (PUT with If-Match). The view then shows the
  // board as it now is.
  transposeBoard() {
    const page = this.page;
    const { semitones, sounding } = page.viewControls.current || {};
    if (!page.editable || !semitones || !page.draft) return;
    const draft = page.draft;
    for (const op of transposeOps(draft, sounding)) if (apply(draft, op)) page.ops.push(op);
    page.viewControls.resetTranspose(); // renders the moved board untransposed
    page.saves.updateDirty();
    page.saves.save();
  }

  /** @param {string} value */
  ensureKeyOption(value) {
    const select = /** @type {HTMLSelectElement} */ (byId('f-key'));
    if (![...select.options].some((o) => o.value === value)) select.append(h('option', { value }, value));
  }

  /**
   * @param {number} s
   * @param {number} b
   */
  openBar(s, b) {
    const draft = /** @type {Content} */ (this.page.draft);
    const bars = draft.sections[s].bars;
    const n = flatten(draft).findIndex((x) => x.section === s && x.bar === b) + 1;
    this.dialog.open(s, b, n, bars[b], bars.length, this.page.view.barButton(s, b), draft.beatsPerBar);
  }

  /**
   * @param {number} s
   * @param {number} delta
   */
  moveSection(s, delta) {
    const view = this.page.view;
    if (!this.page.edit({ t: 'moveSection', s, to: s + delta })) return;
    const to = s + delta;
    const btn = /** @type {HTMLButtonElement | null} */ (view.sectionControl(to, delta < 0 ? 'up' : 'down'));
    (btn && !btn.disabled ? btn : view.sectionControl(to, 'input'))?.focus();
  }

  /** @param {number} s */
  removeSection(s) {
    const page = this.page;
    if (!page.edit({ t: 'removeSection', s })) return;
    const next = Math.min(s, /** @type {Content} */ (page.draft).sections.length - 1);
    page.view.sectionControl(next, 'input')?.focus();
  }

  /**
   * roomFor says whether n more bars fit on the board; when they do not, the page says so and nothing
   * is added (the server would refuse the save, naming a bar the user did not add).
   * @param {number} n
   */
  roomFor(n) {
    if (fits(/** @type {Content} */ (this.page.draft), n)) return true;
    this.page.saves.refuse(TOO_MANY_BARS);
    return false;
  }

  /** @param {number} s */
  addBar(s) {
    const page = this.page;
    if (!this.roomFor(1)) return;
    const b = /** @type {Content} */ (page.draft).sections[s].bars.length;
    if (page.edit({ t: 'insertBar', s, b, chords: [NO_CHORD] })) page.view.barButton(s, b)?.focus();
  }

  addSection() {
    const page = this.page;
    if (!this.roomFor(4)) return;
    const draft = /** @type {Content} */ (page.draft);
    const s = draft.sections.length;
    if (page.edit({ t: 'insertSection', s, section: newSection(draft) })) page.view.sectionControl(s, 'input')?.focus();
  }
}
