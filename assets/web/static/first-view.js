// @ts-check
// The board page's first view: the chart the server drew into the page's grid (package firstview), so
// that a browser with nothing cached shows it while the page's modules still load. This module runs
// before app.js, once the page is parsed, and shows it only where the page is about to draw the same
// chart in the same place: a device with no view of its own of the board (view-keys.js), no key to
// edit it (the page would open the editor), no chat pairing (its panel narrows the grid), and a plain
// address (a fragment carries a key or an invitation; a set's navigation stands above the grid).
// Elsewhere it empties the grid, and the page loads as it would without a first view. The board page
// then takes the server's drawing as its own (board-view.js adopt).

import { boardIdFromPath } from './board-path.js';
import { read } from './storage.js';
import { keyFor } from './keyring.js';
import { capKey } from './capability.js';
import { bindingKey } from './has-chat.js';
import { ownView } from './view-keys.js';

const grid = /** @type {HTMLElement} */ (document.getElementById('grid'));
const id = boardIdFromPath(location.pathname);
if (grid.firstElementChild && id && drawnAlike(id)) {
  document.documentElement.dataset.firstView = 'shown';
  /** @type {HTMLElement} */ (document.getElementById('board-status')).hidden = true;
  /** @type {HTMLElement} */ (document.getElementById('board-body')).hidden = false;
  // Every bar of the board is in the document and shown: the mark the load benchmarks time (the board
  // page sets it when it draws the bars itself).
  performance.mark('tele:bars-rendered');
  requestAnimationFrame(() => setTimeout(takePreloads));
} else {
  grid.replaceChildren();
  takePreloads();
}

/**
 * drawnAlike reports whether the page will draw board id as the first view shows it.
 * @param {string} id
 */
function drawnAlike(id) {
  return !location.hash && !location.search && !keyFor(id) && !read('session', capKey(id)) && !read('local', bindingKey(id)) && !ownView(id);
}

// takePreloads names the page's modules as preloads, so that the browser fetches them all at once
// rather than one level of imports after another. A page carrying its first view holds them inert
// (<template id="deferred">, assets): named while the page was parsed, they slowed the chart's parsing;
// the page takes them once the chart is painted.
function takePreloads() {
  const deferred = document.getElementById('deferred');
  if (deferred instanceof HTMLTemplateElement) document.head.append(deferred.content);
}
