// @ts-check
// Draws a bar's form on the chord grid the way printed charts do (form.css): repeat bar lines (with the
// count when it is not 2), the volta bracket with its number, segno and coda signs, D.C./D.S./Fine/
// To Coda text at the bar they belong to, and the bar's meter when it differs from the board's. The
// signs are text, the same in both languages as on any chart (Italian words, and § and ⊕ for segno and
// coda: the musical-symbol characters are missing from common fonts), so they are read out and can be
// found; % bars show the % sign as their chord (board-view.js).

import { h } from './dom.js';

export const MARK_TEXT = {
  segno: '§', coda: '⊕', fine: 'Fine', dc: 'D.C.', ds: 'D.S.',
  'dc-al-fine': 'D.C. al Fine', 'dc-al-coda': 'D.C. al Coda', 'ds-al-fine': 'D.S. al Fine', 'ds-al-coda': 'D.S. al Coda',
  'to-coda': 'To Coda ⊕',
};

// ORDINAL ends the number of an ending a jump leads to, as charts write it (D.C. al 3rd ending).
const ORDINAL = { 1: 'st', 2: 'nd', 3: 'rd' };

function setData(el, name, value) {
  if (value === null || value === undefined || value === false) delete el.dataset[name];
  else if (el.dataset[name] !== String(value)) el.dataset[name] = String(value);
}

// formWords are the words a chart writes beside a bar's chords: the volta number, the bar's meter when
// it is not the board's, the sign and the repeat count when it is not 2.
export function formWords(f, beatsPerBar, alEnding = 0) {
  const words = [];
  if (f.ending) words.push(`${f.ending}.`);
  if (f.beats && f.beats !== beatsPerBar) words.push(`${f.beats}/4`);
  if (f.mark) words.push((MARK_TEXT[f.mark] || f.mark) + (alEnding ? ` al ${alEnding}${ORDINAL[alEnding] || 'th'} ending` : ''));
  if (f.toCoda) words.push(MARK_TEXT['to-coda']);
  if (f.repeatEnd > 2) words.push(`×${f.repeatEnd}`);
  return words;
}

// barLine is a bar as one line of chart text, its form drawn in the signs of a chart
// ("1. |: C § :|", "%", "Am 3/4"): the history view lists bars this way.
export function barLine(f, beatsPerBar) {
  const [ending, ...rest] = f.ending ? formWords(f, beatsPerBar) : ['', ...formWords(f, beatsPerBar)];
  return [ending, f.repeatStart ? '|:' : '', f.simile ? '%' : f.chords.join(' '), f.repeatEnd ? ':|' : '', ...rest].filter(Boolean).join(' ');
}

// paintForm sets a bar's form on its list item li: data attributes for the bar lines and bracket, and
// one text element for the volta number, the sign and the meter. inEnding is the ending the bar is in
// (form.js endingSpans): the bracket runs on over the ending's other bars. alEnding is the ending a
// plain D.C. or D.S. on the bar leads to (form.js jumpEndings), written after it.
export function paintForm(li, f, beatsPerBar, inEnding = 0, alEnding = 0) {
  setData(li, 'repeatStart', f.repeatStart ? '' : null);
  setData(li, 'repeatEnd', f.repeatEnd || null);
  setData(li, 'ending', f.ending || null);
  setData(li, 'inEnding', inEnding && !f.ending ? inEnding : null);
  setData(li, 'mark', f.mark || null);
  setData(li, 'toCoda', f.toCoda ? '' : null);
  const text = formWords(f, beatsPerBar, alEnding).join(' ');
  let el = li.querySelector(':scope > .form-text');
  if (!text) {
    el?.remove();
    return;
  }
  if (!el) {
    el = h('span', { class: 'form-text' });
    li.append(el);
  }
  if (el.textContent !== text) el.textContent = text;
}
