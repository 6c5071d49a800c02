// @ts-check
// The board page's editing operations, as the ops content.js applies, without the DOM
// (board-editing.js wires them to the grid, the bar editor and the fields).

import { MAX_BARS, barCount, nextLabel, sameTarget } from './content.js';
import { NO_CHORD } from './chords.js';
import { barForm } from './form.js';

// The most bars a section holds (docs/content.md).
export const MAX_SECTION_BARS = 64;

/**
 * recordOp records op after the ops: typing on into the field the last op edits makes one op, not one
 * per keystroke, unless that op is being saved (the first inflight ops are).
 * @param {Op[]} ops changed in place
 * @param {number} inflight
 * @param {Op} op
 */
export function recordOp(ops, inflight, op) {
  const last = ops[ops.length - 1];
  if (ops.length > inflight && sameTarget(last, op)) ops[ops.length - 1] = op;
  else ops.push(op);
}

/**
 * fits says whether n more bars fit on the board.
 * @param {Content} content
 * @param {number} n
 */
export function fits(content, n) {
  return barCount(content) + n <= MAX_BARS;
}

/** @type {import('./i18n.js').Entry} */
export const TOO_MANY_BARS = ['edit.tooManyBars', { max: MAX_BARS }];

/**
 * pasteOps are the ops that put pasted bars (parsePaste's answer r) in place of bar b of section s and
 * after it: {ops, last} (the bar to focus after), or {refuse} (an i18n entry) when a cell is not a bar
 * or the bars do not fit. A pasted bar of chords alone keeps the form of the bar it lands on; pasted
 * repeat signs and % bars are added to it. The bars after it are inserted as pasted.
 * @param {Content} draft
 * @param {number} s
 * @param {number} b
 * @param {{ bars: unknown[] | null, unknown?: Record<string, unknown> | null, beatsWrong?: Record<string, unknown> }} r fast-entry.js's parsePaste
 * @returns {{ ops: Op[], last: number } | { refuse: import('./i18n.js').Entry }}
 */
export function pasteOps(draft, s, b, r) {
  if (!r.bars) return { refuse: r.unknown ? ['chord.unknown', r.unknown] : r.beatsWrong ? ['edit.pasteBeats', r.beatsWrong] : ['edit.pasteBad'] };
  const pasted = /** @type {Bar[]} */ (r.bars);
  const extra = pasted.length - 1;
  if (draft.sections[s].bars.length + extra > MAX_SECTION_BARS) return { refuse: ['edit.sectionFull'] };
  if (!fits(draft, extra)) return { refuse: TOO_MANY_BARS };
  const [first, ...rest] = pasted.map(barForm);
  /** @type {Op[]} */
  const ops = [];
  if (Array.isArray(pasted[0])) ops.push({ t: 'bar', s, b, chords: first.chords });
  else {
    const old = barForm(draft.sections[s].bars[b]);
    const form = { ...old, simile: first.simile, durations: first.durations, repeatStart: first.repeatStart || old.repeatStart, repeatEnd: first.repeatEnd || old.repeatEnd };
    ops.push({ t: 'bar', s, b, chords: first.chords, form });
  }
  rest.forEach((f, i) => ops.push({ t: 'insertBar', s, b: b + 1 + i, chords: f.chords, form: Array.isArray(pasted[i + 1]) ? undefined : f }));
  return { ops, last: b + extra };
}

/**
 * transposeOps are the edits that write a transposed view (sounding) to the board c: the key, and
 * every bar whose chords move. A bar's form stays; a % bar has no chords of its own.
 * @param {Content} c
 * @param {Content} sounding
 * @returns {Op[]}
 */
export function transposeOps(c, sounding) {
  /** @type {Op[]} */
  const ops = [];
  if (c.key && sounding.key !== c.key) ops.push({ t: 'set', field: 'key', value: sounding.key });
  sounding.sections.forEach((sec, s) => sec.bars.forEach((bar, b) => {
    const chords = barForm(bar).chords;
    if (chords.join(' ') !== barForm(c.sections[s].bars[b]).chords.join(' ')) ops.push({ t: 'bar', s, b, chords: [...chords] });
  }));
  return ops;
}

/**
 * newSection is the section Add section makes: the next free rehearsal letter, four empty bars.
 * @param {Content} content
 * @returns {Section}
 */
export function newSection(content) {
  return { label: nextLabel(content), bars: [[NO_CHORD], [NO_CHORD], [NO_CHORD], [NO_CHORD]] };
}

/**
 * numberOrNull reads a number field: an emptied field is no number.
 * @param {string} v
 */
export function numberOrNull(v) {
  return v === '' ? null : Number(v);
}
