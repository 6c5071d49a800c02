// @ts-check
// Where this device keeps how it shows boards (view-controls.js): each board's view (transposed, capo,
// numbers) and, for every board, the instrument and the short signs. first-view.js asks whether a board
// is shown here otherwise than as stored before the page's modules load, so this module is small.

import { read } from './storage.js';

/** @param {string} id */
export const viewKey = (id) => `tele.view:${id}`;
export const INSTRUMENT_KEY = 'tele.instrument';
export const SHORT_KEY = 'tele.shortSigns';

/**
 * ownView reports whether this device shows board id otherwise than as stored: transposed, with a
 * capo, in numbers, for an instrument, or with the short signs. A stored view it cannot read counts as
 * one: the page then draws what it makes of it.
 * @param {string} id
 */
export function ownView(id) {
  if (read('local', INSTRUMENT_KEY) || read('local', SHORT_KEY) === 'true') return true;
  const raw = read('local', viewKey(id));
  if (!raw) return false;
  try {
    const v = JSON.parse(raw);
    return !v || typeof v !== 'object' || Boolean(v.transpose || v.toKey || v.capo || v.numbers);
  } catch {
    return true;
  }
}
