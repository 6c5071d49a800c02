// @ts-check
// Import on the board list page: a chart file chosen with the file picker, or text pasted (a ChordPro
// chart, an iReal Pro irealb:// or irealbook:// link, the HTML of an iReal Pro playlist, or Tele's own
// content JSON), becomes one board per chart through POST /api/import (the server tells the format by
// the text). Then each new board is listed with its edit link, a Copy button and what the reader could
// not take over as written, and the songs that could not become boards with the reason, both said in
// the page's language from their codes (import-notes.js).
//
// The edit link shown carries a one-time claim code (#claim=), as every edit link Tele shows does,
// never the key; the capability goes in this device's key ring (keyring.js), as a board made on the
// list page does, and the board's title opens it for editing in this tab (by sessionStorage).

import { byId, h, show } from './dom.js';
import { bindText } from './i18n.js';
import { ApiError, request } from './api.js';
import { ruleEntry } from './content.js';
import { failureEntry, noteEntry } from './import-notes.js';
import { keep } from './keyring.js';
import { write } from './storage.js';
import { claimLink, editLink, linkFailed } from './link-box.js';

const MAX_TEXT = 1 << 20; // the server's import limit (boardhttp.MaxImportBytes)

// onImported runs after an import made boards, so the page can list them.
/** @param {{ onImported?: () => void }} [opts] */
export function bootImportPanel({ onImported } = {}) {
  const root = byId('import-panel');
  if (!root) return;
  const file = byId('import-file');
  const text = byId('import-text');
  const form = byId('import-form');
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    if (f.size > MAX_TEXT) {
      say(['import.tooLarge']);
      return;
    }
    text.value = await f.text();
    say(null);
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    importText(text.value, onImported);
  });
}

async function importText(text, onImported) {
  const button = byId('import-go');
  if (!text.trim()) {
    say(['import.empty']);
    byId('import-text').focus();
    return;
  }
  button.disabled = true;
  say(['import.working']);
  try {
    const out = await request('POST', '/api/import', { body: { text } });
    for (const { board, capability } of out.boards) keep(board.id, capability);
    showResult(out);
    say(['import.done', { n: out.boards.length }]);
    if (out.boards.length) onImported?.();
  } catch (err) {
    say(errorEntry(err));
  } finally {
    button.disabled = false;
  }
}

// errorEntry says why nothing was imported, in the page's language where the code has words (a rule
// of Tele JSON in the page's words where it names one); the reader's own message (which names the line
// or the chord, in English) is kept beside it (detail).
function errorEntry(err) {
  if (!(err instanceof ApiError) || err.status === 0) return ['import.network'];
  if (!failureEntry(err.code)) return ['import.failed', { message: err.message }];
  const rule = err.code === 'invalid_content' ? ruleEntry(err.fields?.path, err.message, err.fields || {}) : null;
  return [`import.error.${err.code}`, { message: rule ? { $t: rule[0], params: rule[1] } : err.message }, err.message];
}

function say(entry) {
  const el = byId('import-status');
  const old = el.nextElementSibling?.classList.contains('import-detail') ? el.nextElementSibling : null;
  old?.remove();
  if (!entry) {
    el.textContent = '';
    delete el.dataset.i18n;
    return;
  }
  bindText(el, entry[0], entry[1]);
  if (entry[2]) el.after(detail(entry[2]));
}

// detail holds the reader's English words under a page in another language (import.css hides it on an
// English page, whose sentence already says them).
function detail(message) {
  return h('details', { class: 'import-detail' }, bindText(h('summary'), 'import.detail'), h('p', { lang: 'en' }, message));
}

function showResult(out) {
  const list = byId('import-result');
  const items = out.boards.map(({ board, capability, notes, noteCodes }, i) => {
    const input = h('input', { type: 'text', readonly: true, class: 'import-link', id: `import-link-${i}`, autocomplete: 'off', spellcheck: 'false', value: '' });
    const label = bindText(h('label', { for: input.id, class: 'sr-only' }), 'import.linkLabel', { title: board.content.title });
    const status = h('span', { class: 'import-copy-status', role: 'status', 'aria-live': 'polite' });
    claimLink(board.id, capability).then((link) => { input.value = link; }, (err) => bindText(status, ...linkFailed(err)));
    const copy = bindText(h('button', { type: 'button', class: 'import-copy' }), 'import.copy');
    copy.addEventListener('click', () => copyLink(input, status));
    const path = `/b/${encodeURIComponent(board.id)}`;
    const open = h('a', { href: path, class: 'import-open' }, board.content.title);
    open.addEventListener('click', (ev) => {
      ev.preventDefault();
      // The board page finds the key in this tab's sessionStorage; the fragment only where that fails.
      location.assign(write('session', `tele.cap:${board.id}`, capability) ? path : editLink(board.id, capability));
    });
    const noteItems = notes.map((n, j) => bindText(h('li'), ...noteEntry(n, noteCodes?.[j])));
    return h('li', { class: 'import-board', dataset: { board: board.id } },
      h('p', {}, open, ' ', h('span', { class: 'card-id' }, board.id)),
      h('p', { class: 'import-link-row' }, label, input, copy, status),
      noteItems.length ? h('details', { class: 'import-notes' }, bindText(h('summary'), 'import.notes', { n: notes.length }), h('ul', {}, noteItems)) : bindText(h('p', { class: 'hint' }), 'import.asWritten'));
  });
  const failed = (out.failed || []).map((f) => {
    const reason = failureEntry(f.code);
    const line = reason
      ? bindText(h('span'), 'import.songFailedCode', { title: f.title, reason: { $t: reason }, message: f.message })
      : bindText(h('span'), 'import.songFailed', { title: f.title, message: f.message });
    return h('li', { class: 'import-failed', dataset: { code: f.code || '' } }, line, reason ? detail(f.message) : '');
  });
  list.replaceChildren(...items, ...failed);
  show(list, true);
}

async function copyLink(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    bindText(status, 'import.copied');
  } catch {
    input.select();
    bindText(status, 'import.copyFailed');
  }
}
