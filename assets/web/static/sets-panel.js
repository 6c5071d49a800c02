// @ts-check
// Sets on the list page: every set with a link that opens its first song with the set's bar
// (set-nav.js), and a form that makes a set: a title and the songs in order, picked from the boards and
// ordered with Earlier/Later buttons (keyboard and pointer alike: each is a button). The set's key is
// kept in this tab's session storage, never shown: only the tab that made a set offers to edit (the same
// form, saved over the revision shown) or delete it (docs/api.md). The list follows GET /api/set-events,
// so every open list page shows the sets as they are.

import './band-strings.js';
import { byId, h, show } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { listBoards, request } from './api.js';
import { read, remove, write } from './storage.js';
import { Stream } from './stream.js';

const capKey = (id) => `tele.setcap:${id}`;

export async function bootSetsPanel() {
  const panel = byId('sets-panel');
  if (!panel) return;
  const order = [];
  let boards = [];
  let editing = null; // {id, revision} of the set the form edits, or null to make a new one
  const status = byId('set-status');
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
        /** @type {HTMLElement} */ (list.querySelectorAll('li')[Math.min(i, order.length - 1)]?.querySelector('.set-remove') || pick).focus();
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
    const btn = /** @type {HTMLButtonElement} */ (li.querySelector(`.${cls}`));
    (btn.disabled ? /** @type {HTMLButtonElement} */ (li.querySelector(cls === 'set-up' ? '.set-down' : '.set-up')) : btn).focus();
  };
  byId('set-add').addEventListener('click', () => {
    const b = boards.find((x) => x.id === pick.value);
    if (b) order.push(b);
    draw();
  });
  // edit puts the form in edit mode for set (or back to making a new one, for null).
  const edit = (set) => {
    editing = set ? { id: set.id, revision: set.revision } : null;
    order.length = 0;
    if (set) order.push(...set.boards.map((id) => boards.find((b) => b.id === id) || { id, title: id }));
    byId('set-title-input').value = set ? set.title : '';
    bindText(byId('set-create'), set ? 'setForm.save' : 'setForm.create');
    show(byId('set-cancel'), Boolean(set));
    draw();
    if (set) byId('set-title-input').focus();
  };
  byId('set-cancel').addEventListener('click', () => edit(null));
  byId('set-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { title: byId('set-title-input').value, boards: order.map((b) => b.id) };
    try {
      if (editing) {
        const set = await request('PUT', `/api/sets/${encodeURIComponent(editing.id)}`, { body, headers: auth(editing.id, editing.revision) });
        bindText(status, 'setForm.saved', { title: set.title });
      } else {
        const set = await request('POST', '/api/sets', { body });
        write('session', capKey(set.id), set.capability);
        drawSets(sets); // the list's event may have come before this answer: it offers Edit now
        bindText(status, 'setForm.made', { title: set.title });
      }
      edit(null);
    } catch (err) {
      if (err.code === 'revision_conflict') {
        const now = sets.find((x) => x.id === editing?.id);
        edit(now || null);
        bindText(status, 'setForm.changed');
      } else if (err.code === 'invalid_set' && err.fields?.path === 'title') bindText(status, 'setForm.needTitle');
      else bindText(status, editing ? 'setForm.notSaved' : 'setForm.failed', { message: err.message });
    }
  });
  const auth = (id, revision) => ({ Authorization: `Bearer ${read('session', capKey(id))}`, 'If-Match': `"${revision}"` });
  const del = async (set) => {
    try {
      await request('DELETE', `/api/sets/${encodeURIComponent(set.id)}`, { headers: auth(set.id, set.revision) });
      remove('session', capKey(set.id));
      if (editing?.id === set.id) edit(null);
      bindText(status, 'setForm.deleted', { title: set.title });
    } catch (err) {
      bindText(status, 'setForm.notSaved', { message: err.message });
    }
  };
  let sets = [];
  const drawSets = (list) => {
    sets = list;
    byId('set-list').replaceChildren(...sets.map((s) => {
      const first = s.boards[0];
      const item = h('li', { dataset: { set: s.id } });
      if (first) item.append(h('a', { href: `/b/${encodeURIComponent(first)}?set=${encodeURIComponent(s.id)}` }, s.title));
      else item.append(s.title);
      item.append(' ', bindText(h('span', { class: 'hint' }), 'setForm.songs', { n: s.boards.length }));
      if (read('session', capKey(s.id))) {
        const editBtn = bindText(h('button', { type: 'button', class: 'set-edit' }), 'setForm.edit');
        const delBtn = bindText(h('button', { type: 'button', class: 'set-delete danger' }), 'setForm.delete');
        bindAttr(editBtn, 'aria-label', 'setForm.editAria', { title: s.title });
        bindAttr(delBtn, 'aria-label', 'setForm.deleteAria', { title: s.title });
        editBtn.addEventListener('click', () => edit(s));
        delBtn.addEventListener('click', () => del(s));
        item.append(' ', editBtn, ' ', delBtn);
      }
      return item;
    }));
  };
  try {
    ({ boards } = await listBoards());
  } catch {
    return;
  }
  pick.replaceChildren(...boards.map((b) => h('option', { value: b.id }, b.title)));
  new Stream('/api/set-events', { sets: (data) => drawSets(data.sets || []) }, () => {});
  show(panel, true);
}
