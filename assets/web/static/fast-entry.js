// @ts-check
// Fast entry on the chord grid (edit link): arrow keys move between bars, typing a chord on a focused bar
// opens its editor with what was typed, and pasting a chart line such as "|: C | % | F G :| N.C. |"
// makes one bar per cell, its repeat signs and % bars read as the form they are. parseCells and
// parsePaste are pure (node's unit tests import them); FastEntry wires the grid.

import { parseBar } from './chords.js';
import { writeBar } from './form.js';
import { durationsOf, readTimed } from './beats.js';

// A bar line of a pasted chart: "|", "||", "|:" (a repeat starts), ":|" (it ends; "x3" or "×3" after it
// says how many times it is played), ":||", "||:", and ":|:" (one repeat ends, the next starts).
const BAR_LINE = /:\|\|?:|\|\|?:|:\|\|?(?:\s*[x×]\s*([2-8])\b)?|\|\|?/g;

// isSimile: the cell is a repeat-bar sign, "%" as charts print it or "x" as iReal Pro writes it.
export function isSimile(text) {
  return /^\s*(?:%|x|X)\s*$/.test(text);
}

// readCells splits pasted text into its cells with their repeat signs: [{text, repeatStart, repeatEnd}],
// the cells between bar lines, or one cell per line when there is no "|". Empty cells are left out; a
// repeat sign on an empty cell's side goes to the bar it stands beside.
export function readCells(text) {
  const t = String(text || '').trim();
  if (!t.includes('|')) return t.split(/\r?\n/).map((c) => c.trim()).filter(Boolean).map((c) => ({ text: c, repeatStart: false, repeatEnd: 0 }));
  const cells = [];
  let start = false;
  let at = 0;
  const cell = (raw) => {
    const c = raw.trim();
    if (!c) return;
    cells.push({ text: c, repeatStart: start, repeatEnd: 0 });
    start = false;
  };
  for (const m of t.matchAll(BAR_LINE)) {
    cell(t.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[0].startsWith(':')) {
      const last = cells.at(-1);
      if (last) last.repeatEnd = Number(m[1] || 2);
    }
    if (m[0].endsWith(':')) start = true;
  }
  cell(t.slice(at));
  return cells;
}

// parseCells is the text of each pasted cell; null when it is a single cell (an ordinary paste).
export function parseCells(text) {
  const cells = readCells(text);
  return cells.length > 1 ? cells.map((c) => c.text) : null;
}

// parsePaste reads each cell as a bar with the catalogue: {bars, unknown} where bars are written as the
// schema writes them (a chord array, or an object for a % bar or one with a repeat sign), unknown is the
// first refused chord ({symbol, suggestion}) or null, and bars is null when a cell is empty or too full.
// A single bar with a repeat sign ("|: C :|") counts as a paste too: the signs are not dropped.
//
// A cell's chords may carry their beats as dots ("C . . G7": C for three beats, G7 for one); beats is
// the board's meter they must add up to, else bars is null and beatsWrong says {cell, sum, beats}.
export function parsePaste(text, catalogue, beats = 4) {
  const cells = readCells(text);
  if (cells.length < 1 || (cells.length === 1 && !cells[0].repeatStart && !cells[0].repeatEnd)) return null;
  const bars = [];
  for (const cell of cells) {
    const form = { simile: false, chords: [], durations: null, beats: 0, repeatStart: cell.repeatStart, repeatEnd: cell.repeatEnd, ending: 0, mark: '' };
    if (isSimile(cell.text)) form.simile = true;
    else {
      const timed = readTimed(cell.text);
      const { chords, unknown } = parseBar(timed.text, catalogue);
      if (unknown.length) return { bars: null, unknown: unknown[0] };
      if (chords.length < 1 || chords.length > 4 || timed.lead) return { bars: null, unknown: null };
      const sum = timed.counts ? timed.counts.reduce((a, c) => a + c, 0) : beats;
      if (sum !== beats) return { bars: null, unknown: null, beatsWrong: { cell: cell.text, sum, beats } };
      form.chords = chords;
      form.durations = durationsOf(timed.counts, beats);
    }
    bars.push(writeBar(form));
  }
  return { bars, unknown: null };
}

// nextBar is the bar button an arrow key moves to from `from` among `buttons` (in reading order):
// left/right step through every bar; up/down go to the nearest bar of the row above or below.
export function nextBar(buttons, from, key, rectOf = (el) => el.getBoundingClientRect()) {
  const i = buttons.indexOf(from);
  if (i < 0) return null;
  if (key === 'ArrowLeft') return buttons[i - 1] || null;
  if (key === 'ArrowRight') return buttons[i + 1] || null;
  if (key === 'Home') return buttons[0];
  if (key === 'End') return buttons[buttons.length - 1];
  if (key !== 'ArrowUp' && key !== 'ArrowDown') return null;
  const here = rectOf(from);
  const down = key === 'ArrowDown';
  let best = null;
  let bestScore = Infinity;
  for (const b of buttons) {
    const r = rectOf(b);
    const dy = down ? r.top - here.top : here.top - r.top;
    if (dy < here.height / 2) continue; // same row, or the wrong way
    const score = dy * 10000 + Math.abs(r.left - here.left);
    if (score < bestScore) [best, bestScore] = [b, score];
  }
  return best;
}

export class FastEntry {
  // grid is the #grid element; actions: buttons() → every bar button in order, locate(button) →
  // {s, b}, open(s, b) (the bar's editor, its field focused), paste(s, b, text) → true when it made bars.
  constructor(grid, actions) {
    grid.addEventListener('keydown', (ev) => {
      const btn = ev.target.closest?.('.bar-btn');
      if (!btn || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const to = nextBar(actions.buttons(), btn, ev.key);
      if (to) {
        ev.preventDefault();
        to.focus();
        return;
      }
      // A chord starts with a letter (or "n" for N.C.; "%" makes a % bar): typing it opens the editor, whose field takes the
      // focus with the bar's chords selected, so the key typed lands there and replaces them.
      if (ev.key.length === 1 && /[A-Ha-hNn%]/.test(ev.key)) {
        const { s, b } = actions.locate(btn);
        actions.open(s, b);
      }
    });
    grid.addEventListener('paste', (ev) => {
      const btn = ev.target.closest?.('.bar-btn');
      if (!btn) return;
      const { s, b } = actions.locate(btn);
      if (actions.paste(s, b, ev.clipboardData?.getData('text/plain') || '')) ev.preventDefault();
    });
  }
}
