// Sets on the list page: every set with a link that opens its first song with the set's bar
// (set-nav.js), and a form that makes a set: a title and the songs in order, picked from the boards and
// ordered with Earlier/Later buttons (keyboard and pointer alike: each is a button). The set's key is
// kept in this tab's session storage, never shown: nothing on the pages changes a set after it is made
// but its maker (docs/api.md).

import './band-strings.js';
import { byId, h, show } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { listBoards, request } from './api.js';
import { write } from './storage.js';

export async function bootSetsPanel() {
  const panel = byId('sets-panel');
  if (!panel) return;
  const order = [];
  let boards = [];
  const list = byId('set-songs');
  const pick = byId('set-pick');
  const draw = () => {
    list.replaceChildren(...order.map((b, i) => {
      const up = bindText(h('button', { type: 'button', class: 'set-up' }), 'setForm.earlier');
      const down = bindText(h('button', { type: 'button', class: 'set-down' }), 'setForm.later');
      const remove = bindText(h('button', { type: 'button', class: 'set-remove' }), 'setForm.remove');
      for (const [btn, what] of [[up, 'setForm.earlierAria'], [down, 'setForm.laterAria'], [remove, 'setForm.removeAria']]) bindAttr(btn, 'aria-label', what, { title: b.title });
      up.disabled = i === 0;
      down.disabled = i === order.length - 1;
      up.addEventListener('click', () => move(i, -1, 'set-up'));
      down.addEventListener('click', () => move(i, 1, 'set-down'));
      remove.addEventListener('click', () => {
        order.splice(i, 1);
        draw();
        (list.querySelectorAll('li')[Math.min(i, order.length - 1)]?.querySelector('.set-remove') || pick).focus();
      });
      return h('li', { dataset: { board: b.id } }, h('span', { class: 'set-song' }, `${i + 1}. ${b.title}`), up, down, remove);
    }));
  };
  const move = (i, d, cls) => {
    const j = i + d;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
    draw();
    // Focus stays with the song moved: on the same button, or the other one at either end of the list.
    const li = list.querySelectorAll('li')[j];
    const btn = li.querySelector(`.${cls}`);
    (btn.disabled ? li.querySelector(cls === 'set-up' ? '.set-down' : '.set-up') : btn).focus();
  };
  byId('set-add').addEventListener('click', () => {
    const b = boards.find((x) => x.id === pick.value);
    if (b) order.push(b);
    draw();
  });
  byId('set-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const status = byId('set-status');
    try {
      const set = await request('POST', '/api/sets', { body: { title: byId('set-title-input').value, boards: order.map((b) => b.id) } });
      write('session', `tele.setcap:${set.id}`, set.capability);
      order.length = 0;
      byId('set-title-input').value = '';
      draw();
      bindText(status, 'setForm.made', { title: set.title });
      await refresh();
    } catch (err) {
      bindText(status, err.code === 'invalid_set' && err.fields.path === 'title' ? 'setForm.needTitle' : 'setForm.failed', { message: err.message });
    }
  });
  const refresh = async () => {
    let sets = [];
    try {
      [{ boards }, { sets }] = await Promise.all([listBoards(), request('GET', '/api/sets')]);
    } catch {
      return;
    }
    pick.replaceChildren(...boards.map((b) => h('option', { value: b.id }, b.title)));
    byId('set-list').replaceChildren(...sets.map((s) => {
      const first = s.boards[0];
      const item = h('li', { dataset: { set: s.id } });
      if (first) item.append(h('a', { href: `/b/${encodeURIComponent(first)}?set=${encodeURIComponent(s.id)}` }, s.title));
      else item.append(s.title);
      item.append(' ', bindText(h('span', { class: 'hint' }), 'setForm.songs', { n: s.boards.length }));
      return item;
    }));
  };
  await refresh();
  show(panel, true);
}
