// @ts-check
// The played length of a board: how many bars the band plays, repeats and jumps followed (form.js's
// playOrder, the page's copy of board.PlayOrder), and how long that takes at the board's tempo (each
// played bar's beats, its own meter or the board's, over the beats per minute). The page shows the
// draft's, so it follows every edit and live update as they come.

import { bindText } from './i18n.js';
import { playOrder } from './form.js';
import './form-strings.js';

// The tempi a board may have (docs/content.md).
const MIN_TEMPO = 30;
const MAX_TEMPO = 300;

// tempoOK: a tempo the board may have, an integer 30–300. An emptied or half-typed tempo field is not.
export function tempoOK(tempo) {
  return Number.isInteger(tempo) && tempo >= MIN_TEMPO && tempo <= MAX_TEMPO;
}

// playedLength → {bars, seconds}; seconds rounded to the nearest whole second, null while the tempo is
// not one the board may have (there is no time to tell).
export function playedLength(content) {
  const order = playOrder(content);
  const beats = order.reduce((n, bar) => n + bar.beats, 0);
  const seconds = tempoOK(content?.tempo) ? Math.round((beats * 60) / content.tempo) : null;
  return { bars: order.length, seconds };
}

// clock writes seconds as m:ss.
export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// paintPlayedLength shows content's played length in el, in the page's language: at the practice tempo
// when the musician changed it while playing (the board's tempo beside it), else at the board's.
// While the tempo field is empty or out of range it says so in words (never "at null BPM").
export function paintPlayedLength(el, content, practice = null) {
  const board = content?.tempo;
  const practising = tempoOK(practice) && practice !== board && tempoOK(board);
  const { bars, seconds } = playedLength(practising ? { ...content, tempo: practice } : content);
  const [key, params] = seconds === null
    ? ['length.playedNoTempo', { bars, min: MIN_TEMPO, max: MAX_TEMPO }]
    : practising
      ? ['length.playedPractice', { bars, time: clock(seconds), tempo: practice, board }]
      : ['length.played', { bars, time: clock(seconds), tempo: board }];
  if (el.dataset.i18n !== key || el.dataset.i18nArgs !== JSON.stringify(params)) bindText(el, key, params);
}
