// Fast entry on the chord grid (edit link): arrow keys move between bars, typing a chord on a focused bar
// opens its editor with what was typed, and pasting a chart line such as "| C | Am7 | F G | N.C. |" makes
// one bar per cell. parseCells is pure (node's unit tests import it); FastEntry wires the grid.

import { parseBar } from './chords.js';

// parseCells splits pasted text into bars: the cells between "|" (or "||", "|:" and ":|" bar lines), or
// one cell per line when there is no "|". Empty cells are left out. null when it is a single cell.
export function parseCells(text) {
  const t = String(text || '').trim();
  const cells = (t.includes('|') ? t.split(/\|+:?|:?\|+/) : t.split(/\r?\n/)).map((c) => c.trim()).filter(Boolean);
  return cells.length > 1 ? cells : null;
}

// parsePaste reads each cell as a bar with the catalogue: {bars, unknown} where unknown is the first
// refused chord ({symbol, suggestion}) or null, and bars is null when a cell is empty or too full.
export function parsePaste(text, catalogue) {
  const cells = parseCells(text);
  if (!cells) return null;
  const bars = [];
  for (const cell of cells) {
    const { chords, unknown } = parseBar(cell, catalogue);
    if (unknown.length) return { bars: null, unknown: unknown[0] };
    if (chords.length < 1 || chords.length > 4) return { bars: null, unknown: null };
    bars.push(chords);
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
      // A chord starts with a letter (or "n" for N.C.): typing it opens the editor, whose field takes the
      // focus with the bar's chords selected, so the key typed lands there and replaces them.
      if (ev.key.length === 1 && /[A-Ha-hNn]/.test(ev.key)) {
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
