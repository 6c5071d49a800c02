// The played length of a board: how many bars the band plays, repeats and jumps followed (form.js's
// playOrder, the page's copy of board.PlayOrder), and how long that takes at the board's tempo (each
// played bar's beats, its own meter or the board's, over the beats per minute). The page shows the
// draft's, so it follows every edit and live update as they come.

import { bindText } from './i18n.js';
import { playOrder } from './form.js';
import './form-strings.js';

// playedLength → {bars, seconds}; seconds rounded to the nearest whole second.
export function playedLength(content) {
  const order = playOrder(content);
  const beats = order.reduce((n, bar) => n + bar.beats, 0);
  const tempo = Number.isFinite(content?.tempo) && content.tempo > 0 ? content.tempo : 120;
  return { bars: order.length, seconds: Math.round((beats * 60) / tempo) };
}

// clock writes seconds as m:ss.
export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// paintPlayedLength shows content's played length in el, in the page's language.
export function paintPlayedLength(el, content) {
  const { bars, seconds } = playedLength(content);
  const params = { bars, time: clock(seconds), tempo: content.tempo };
  if (el.dataset.i18nArgs !== JSON.stringify(params)) bindText(el, 'length.played', params);
}
