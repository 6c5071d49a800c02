// @ts-check
// A board opened from a set (/b/<board>?set=<set>): the set's title, the song's place in it, and the
// previous and next songs, by button or by PageUp/PageDown (what page-turner pedals send) and the left
// and right arrows outside the grid and the fields. The next song opens in this tab with the same set,
// so a page that leads the band keeps leading and the phones follow to it (share-panel.js). The bar
// follows GET /api/set-events: a set reordered, retitled or deleted elsewhere shows here at once.

import './band-strings.js';
import { byId, show } from './dom.js';
import { bindText } from './i18n.js';
import { request } from './api.js';
import { Stream } from './stream.js';

export async function bootSetNav(boardId) {
  const setId = new URLSearchParams(location.search).get('set');
  const bar = byId('set-nav');
  if (!setId || !bar) return null;
  let set;
  try {
    set = await request('GET', `/api/sets/${encodeURIComponent(setId)}`);
  } catch {
    return null;
  }
  let i = set.boards.indexOf(boardId);
  if (i < 0) return null;
  const go = (j) => {
    if (i < 0 || j < 0 || j >= set.boards.length) return;
    location.assign(`/b/${encodeURIComponent(set.boards[j])}?set=${encodeURIComponent(set.id)}`);
  };
  const paint = () => {
    i = set ? set.boards.indexOf(boardId) : -1;
    show(bar, i >= 0);
    if (i < 0) return;
    byId('set-title').textContent = set.title;
    bindText(byId('set-place'), 'set.place', { n: i + 1, of: set.boards.length });
    byId('set-prev').disabled = i === 0;
    byId('set-next').disabled = i === set.boards.length - 1;
  };
  paint();
  new Stream('/api/set-events', {
    sets: (data) => {
      set = (data.sets || []).find((s) => s.id === setId) || null;
      paint();
    },
  }, () => {});
  byId('set-prev').addEventListener('click', () => go(i - 1));
  byId('set-next').addEventListener('click', () => go(i + 1));
  document.addEventListener('keydown', (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || document.querySelector('dialog[open]')) return;
    const arrow = ev.key === 'ArrowLeft' || ev.key === 'ArrowRight';
    if (arrow && /** @type {Element} */ (ev.target).closest?.('input, textarea, select, [contenteditable], #grid')) return;
    const step = { PageUp: -1, ArrowLeft: -1, PageDown: 1, ArrowRight: 1 }[ev.key];
    if (!step) return;
    ev.preventDefault();
    go(i + step);
  });
  return { id: set.id, boards: set.boards, index: i };
}
