// @ts-check
// The chord size a device reads at: one of a few steps, as a share of the page's own, remembered on this
// device (localStorage, tele.stage.size: not a secret). Stage mode on the board page and the band's
// follow page read and set the same one; their style sheets map each step's index to its scale.

import { read, write } from './storage.js';

const SIZE_KEY = 'tele.stage.size';
export const SIZES = [80, 90, 100, 115, 130, 150, 175, 200];
export const DEFAULT_SIZE = SIZES.indexOf(100);

// loadSize is the index of the size this device chose, or the default's.
export function loadSize() {
  const i = SIZES.indexOf(Number(read('local', SIZE_KEY)));
  return i >= 0 ? i : DEFAULT_SIZE;
}

// saveSize keeps size i (clamped to the steps) for this device and returns it.
export function saveSize(i) {
  const next = Math.max(0, Math.min(SIZES.length - 1, i));
  write('local', SIZE_KEY, String(SIZES[next]));
  return next;
}
