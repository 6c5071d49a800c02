// @ts-check
// The board page's first view: the chart the server drew into the page (#first-view, package
// firstview), so that a browser with nothing cached shows it while the page's modules still load. This
// module runs before app.js, once the page is parsed, and shows it only where the page is about to draw
// the same chart in the same place: a device with no view of its own of the board (view-keys.js), no key
// to edit it (the page would open the editor), no chat pairing (its panel narrows the grid), and a plain
// address (a fragment carries a key or an invitation; a set's navigation stands above the grid).
// Elsewhere it takes the first view away, and the page loads as it would without one. The board page
// draws its own grid and then takes the first view's place (board-page.js).

import { boardIdFromPath } from './board-path.js';
import { read } from './storage.js';
import { keyFor } from './keyring.js';
import { capKey } from './capability.js';
import { bindingKey } from './has-chat.js';
import { ownView } from './view-keys.js';

const view = document.getElementById('first-view');
const id = boardIdFromPath(location.pathname);
if (view && id && drawnAlike(id)) {
  document.documentElement.dataset.firstView = 'shown';
  /** @type {HTMLElement} */ (document.getElementById('board-status')).hidden = true;
  /** @type {HTMLElement} */ (document.getElementById('board-body')).hidden = false;
  // Every bar of the board is in the document and shown: the mark the load benchmarks time (the board
  // page sets it when it draws the bars itself).
  performance.mark('tele:bars-rendered');
} else {
  view?.remove();
}

/**
 * drawnAlike reports whether the page will draw board id as the first view shows it.
 * @param {string} id
 */
function drawnAlike(id) {
  return !location.hash && !location.search && !keyFor(id) && !read('session', capKey(id)) && !read('local', bindingKey(id)) && !ownView(id);
}
