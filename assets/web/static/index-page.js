// @ts-check
// The board list (/): every board with its title, revision and last change, and a form to create a
// board. A board whose edit key this device keeps (keyring.js) says so, opens editable from here (its
// link puts the key in the tab's sessionStorage, where the board page finds it, as "Open the board"
// does; a board opened by its bare address elsewhere stays read-only), and offers to forget the key. A created board's edit link is shown at once, with Copy and a line saying to keep it private
// (the create call is the only answer that carries its capability). "Open the board" opens it in edit
// mode: the capability is put in this tab's sessionStorage where the board page finds it, so it never
// appears in the address; only if sessionStorage is unavailable is it handed over in the #cap=
// fragment, which the board page erases.

import { byId, h, show } from './dom.js';
import { bindAttr, bindText, setTitle } from './i18n.js';
import * as api from './api.js';
import { write } from './storage.js';
import { claimLink, copyLink, editLink, linkFailed } from './link-box.js';
import { forget, keep, keyFor, keys } from './keyring.js';

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export async function bootIndexPage() {
  setTitle('title.index');
  const form = byId('new-form');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    create();
  });
  byId('created-copy').addEventListener('click', () => copyLink(byId('created-url'), byId('created-status')));
  const title = byId('new-title');
  title.addEventListener('input', () => {
    const max = title.maxLength > 0 ? title.maxLength : 120;
    const full = title.value.length >= max;
    if (full) bindText(byId('new-title-limit'), 'title.atLimit', { max });
    show(byId('new-title-limit'), full);
  });
  for (const id of ['new-id', 'new-title']) {
    byId(id).addEventListener('input', () => {
      byId(id).removeAttribute('aria-invalid');
      show(byId('new-error'), false);
    });
  }
  await refreshList();
}

// refreshList shows the server's boards, newest first; an import calls it too.
export async function refreshList() {
  const status = byId('list-status');
  const list = byId('board-list');
  bindText(status, 'home.loading');
  let boards, setAside;
  try {
    ({ boards, setAside } = await api.listBoards());
  } catch {
    bindText(status, 'home.loadFailed');
    return;
  }
  showSetAside(setAside);
  // A key of a board that is no longer here (deleted elsewhere) is of no use; one set aside may return.
  const ring = keys();
  const here = new Set([...boards.map((b) => b.id), ...setAside.map((x) => x.board)]);
  for (const id of Object.keys(ring)) if (!here.has(id)) forget(id);
  boards.sort((a, b) => String(b.updatedAt || '').localeCompare(String(a.updatedAt || '')) || a.id.localeCompare(b.id));
  bindText(status, boards.length ? 'home.count' : 'home.empty', { n: boards.length });
  list.replaceChildren(...boards.map(boardItem));
}

// showSetAside says which boards the server could not read and set aside (the rest all work); the
// reasons name files, so the server keeps them for tele board check.
function showSetAside(items) {
  const note = byId('set-aside');
  show(note, items.length > 0);
  if (!items.length) return;
  const key = { revision: 'home.setAsideRevision', capability: 'home.setAsideKey' };
  const names = items.map((it) => ({ $t: key[it.what] || 'home.setAsideBoard', params: { id: it.board, rev: it.revision } }));
  bindText(note, 'home.setAside', { n: items.length, names });
}

function boardItem(b) {
  const meta = h('p', { class: 'card-meta' }, h('span', { class: 'card-id' }, b.id));
  meta.append(bindText(h('span'), 'home.revision', { rev: b.revision }));
  if (b.updatedAt) {
    meta.append(bindText(h('time', { datetime: b.updatedAt }), 'home.updated', { date: b.updatedAt }));
  }
  const link = h('a', { class: 'card-link', href: `/b/${encodeURIComponent(b.id)}` }, b.title);
  const card = h('li', { class: 'card', dataset: { board: b.id } }, h('h3', { class: 'card-title' }, link), meta);
  if (keys()[b.id]) {
    // Read at the click: the key may have been forgotten, or replaced by another tab, since.
    link.addEventListener('click', () => {
      const cap = keyFor(b.id);
      if (cap) write('session', `tele.cap:${b.id}`, cap);
    });
    const held = bindText(h('span', { class: 'card-key' }), 'ring.held');
    const drop = bindAttr(bindText(h('button', { type: 'button', class: 'link-btn card-forget' }), 'ring.forget'), 'aria-label', 'ring.forgetAria', { title: b.title });
    drop.addEventListener('click', () => {
      forget(b.id);
      const note = bindText(h('p', { class: 'card-key-note', role: 'status' }), 'ring.forgotten', { id: b.id });
      card.querySelector('.card-keys').replaceWith(note);
      link.focus();
    });
    card.append(h('p', { class: 'card-keys' }, held, ' ', drop));
  }
  return card;
}

async function create() {
  const idEl = byId('new-id');
  const titleEl = byId('new-title');
  const button = byId('new-create');
  const id = idEl.value.trim();
  const title = titleEl.value.trim();
  if (!ID_RE.test(id)) return fail(idEl, ['new.badId']);
  if (!title) return fail(titleEl, ['new.needTitle']);
  button.disabled = true;
  bindText(button, 'new.creating');
  try {
    const created = await api.createBoard(id, starterContent(title));
    const boardId = created.id || created.board?.id || id;
    const capability = created.capability;
    const path = `/b/${encodeURIComponent(boardId)}`;
    if (!capability) {
      location.assign(path);
      return;
    }
    const stored = write('session', `tele.cap:${boardId}`, capability);
    keep(boardId, capability);
    await showCreated(boardId, created.content?.title || title, capability, stored ? path : editLink(boardId, capability));
    idEl.value = '';
    titleEl.value = '';
    show(byId('new-title-limit'), false);
    refreshList();
  } catch (err) {
    if (err.status === 409) fail(idEl, ['new.exists']);
    else if (err.code === 'rate_limited') fail(idEl, ['new.tooFast', { seconds: Math.max(1, Math.ceil((err.fields.retryAfterMs || 1000) / 1000)) }]);
    else if (err.fields?.path === 'title' || err.fields?.path?.startsWith('content.title')) fail(titleEl, ['new.failed', { message: err.message }]);
    else fail(idEl, ['new.failed', { message: err.message }]);
  } finally {
    button.disabled = false;
    bindText(button, 'new.create');
  }
}

// showCreated shows a new board's edit link (with a one-time code), to copy and keep, and the way to
// open it.
async function showCreated(id, title, capability, open) {
  bindText(byId('created-heading'), 'created.heading', { title });
  bindText(byId('created-text'), 'created.text', { id });
  byId('created-status').textContent = '';
  try {
    byId('created-url').value = await claimLink(id, capability);
  } catch (err) {
    byId('created-url').value = '';
    bindText(byId('created-status'), ...linkFailed(err));
  }
  byId('created-open').href = open;
  show(byId('created'), true);
  byId('created-heading').focus();
}

function fail(el, entry) {
  el.setAttribute('aria-invalid', 'true');
  const msg = byId('new-error');
  bindText(msg, ...entry);
  show(msg, true);
  el.focus();
}

// A new board starts as one section of four empty bars; the musician fills it in.
function starterContent(title) {
  return {
    title,
    description: '',
    tempo: 100,
    beatsPerBar: 4,
    sections: [{ label: 'A', bars: [['N.C.'], ['N.C.'], ['N.C.'], ['N.C.']] }],
  };
}
