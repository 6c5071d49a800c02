// @ts-check
// Managing a board from its page: copy the edit link, copy the board (anyone who can read it), delete
// it (edit link only, after a confirmation dialog), duplicate a section, paste a chart line onto a
// section, and the title's length. board-page.js creates one BoardManage and hands it its page; this
// module only uses the page's documented parts (id, cap, editable, base, draft, ops, edit, roomFor,
// showMessage, refuse, view, stream, player, dialog).

import './manage-strings.js';
import { byId, show } from './dom.js';
import { bindText } from './i18n.js';
import * as api from './api.js';
import { MAX_BARS, MAX_SECTIONS, barCount, clone, sectionName } from './content.js';
import { parsePaste } from './fast-entry.js';
import { barForm } from './form.js';
import { write } from './storage.js';
import { forget, keep } from './keyring.js';
import { claimLink, copyLink, editLink, linkFailed } from './link-box.js';

const MAX_SECTION_BARS = 64;

export class BoardManage {
  constructor(page) {
    this.page = page;
    this.status = byId('manage-status');
    this.panel = byId('manage-panel');
    byId('copy-edit-link').addEventListener('click', () => this.copyEditLink());
    byId('copy-board').addEventListener('click', () => this.copyBoard());
    byId('manage-url-copy').addEventListener('click', () => copyLink(byId('manage-url'), byId('manage-url-status')));
    this.setupDelete();
    this.setupTitleLimit();
    byId('grid').addEventListener('paste', (ev) => this.pasteOnSection(ev));
  }

  // ---- edit links ----

  // copyEditLink copies an edit link of this board with a one-time claim code (never the key, which a
  // browser opening it would keep in its history); where the clipboard is refused, the link is shown
  // selected to copy by hand. Either way the page says to keep it private.
  async copyEditLink() {
    const { id, cap } = this.page;
    if (!cap) return;
    this.status.textContent = '';
    let url;
    try {
      url = await claimLink(id, cap);
    } catch (err) {
      bindText(this.status, ...linkFailed(err));
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      show(this.panel, false);
      bindText(this.status, 'manage.editLinkCopied');
    } catch {
      this.showLink(null, url, null);
      const input = byId('manage-url');
      input.focus();
      input.select();
      bindText(byId('manage-url-status'), 'link.copyFailed');
    }
  }

  // showLink fills the panel below the tools: a text (an i18n entry, or none), an edit link to copy,
  // and an address to open (or none).
  showLink(text, url, open) {
    const p = byId('manage-panel-text');
    if (text) bindText(p, ...text);
    show(p, Boolean(text));
    byId('manage-url').value = url;
    byId('manage-url-status').textContent = '';
    const a = byId('manage-open');
    if (open) a.href = open;
    show(a, Boolean(open));
    show(this.panel, true);
  }

  // ---- copy the board ----

  // copyBoard makes a new board of the saved content (reading is enough) and shows its edit link, with
  // a link that opens it for editing in this tab (its capability goes to this tab's sessionStorage).
  async copyBoard() {
    const button = byId('copy-board');
    button.disabled = true;
    bindText(this.status, 'manage.copying');
    try {
      const made = await api.copyBoard(this.page.id);
      const stored = write('session', `tele.cap:${made.id}`, made.capability);
      keep(made.id, made.capability);
      this.status.textContent = '';
      const open = stored ? `/b/${encodeURIComponent(made.id)}` : editLink(made.id, made.capability);
      let url = '';
      let failed = null;
      try {
        url = await claimLink(made.id, made.capability);
      } catch (err) {
        failed = linkFailed(err);
      }
      this.showLink(['manage.copyMade', { title: made.content?.title ?? '', id: made.id }], url, open);
      if (failed) bindText(byId('manage-url-status'), ...failed);
      this.panel.focus();
    } catch (err) {
      if (err.code === 'rate_limited') bindText(this.status, 'manage.copyTooFast', { seconds: Math.max(1, Math.ceil((err.fields.retryAfterMs || 1000) / 1000)) });
      else if (err.status === 0) bindText(this.status, 'manage.copyNetwork');
      else bindText(this.status, 'manage.copyFailed', { message: err.message });
    } finally {
      button.disabled = false;
    }
  }

  // ---- delete the board ----

  setupDelete() {
    const dialog = byId('delete-dialog');
    byId('delete-board').addEventListener('click', () => {
      const { draft, base, ops } = this.page;
      bindText(byId('delete-text'), 'delete.text', { title: (draft || base?.content)?.title ?? this.page.id });
      show(byId('delete-unsaved'), ops.length > 0);
      show(byId('delete-error'), false);
      dialog.showModal();
      byId('delete-cancel').focus();
    });
    byId('delete-cancel').addEventListener('click', () => dialog.close());
    byId('delete-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.deleteBoard();
    });
    dialog.addEventListener('close', () => byId('delete-board').focus());
  }

  async deleteBoard() {
    const { id, cap, base } = this.page;
    if (!cap || !base) return;
    const confirm = byId('delete-confirm');
    const error = byId('delete-error');
    confirm.disabled = true;
    bindText(confirm, 'delete.deleting');
    show(error, false);
    try {
      await api.deleteBoard(id, base.revision, cap);
      byId('delete-dialog').close();
      this.gone();
    } catch (err) {
      const entry = {
        412: ['delete.changed', { rev: err.fields.currentRevision ?? '?' }],
        401: ['delete.unauthorized'],
        403: ['delete.unauthorized'],
        404: null,
        429: ['delete.rateLimited'],
        0: ['delete.network'],
      }[err.status] ?? ['delete.failed', { message: err.message }];
      if (!entry) {
        byId('delete-dialog').close();
        this.gone(); // someone else deleted it first
        return;
      }
      bindText(error, ...entry);
      show(error, true);
    } finally {
      confirm.disabled = false;
      bindText(confirm, 'delete.confirm');
    }
  }

  // deleted handles the stream's `deleted` event: another page (or this one) deleted the board.
  deleted(event) {
    if (event?.id === this.page.id) this.gone();
  }

  // gone stops everything the page does with the board and says it was deleted, with a way to the
  // list. Unsaved changes are dropped (there is nothing left to save them to).
  gone() {
    const page = this.page;
    if (page.isGone) return;
    page.isGone = true;
    forget(page.id); // no board, no key to keep
    page.stream?.close();
    page.player?.stop();
    page.ops = [];
    page.editable = false;
    for (const id of ['bar-dialog', 'delete-dialog']) {
      const d = byId(id);
      if (d.open) d.close();
    }
    show(byId('board-body'), false);
    show(byId('board-status'), false);
    show(byId('board-gone'), true);
    byId('conn').hidden = true;
    show(byId('conn-retry'), false);
    page.main.setAttribute('aria-busy', 'false');
    byId('board-gone-text').focus();
  }

  // checkGone asks whether the board still exists when its stream is down (a `deleted` event missed
  // while offline): a 404 means it was deleted.
  async checkGone() {
    if (this.page.isGone || this.checking) return;
    this.checking = true;
    try {
      await api.getBoard(this.page.id);
    } catch (err) {
      if (err.status === 404) this.gone();
    } finally {
      this.checking = false;
    }
  }

  // ---- sections ----

  // duplicateSection inserts a copy of section s right after it, when the board has room for it.
  duplicateSection(s) {
    const c = this.page.draft;
    const section = c?.sections[s];
    if (!section) return;
    if (c.sections.length >= MAX_SECTIONS) {
      this.page.refuse(['section.dupTooManySections', { max: MAX_SECTIONS }]);
      return;
    }
    const n = barCount(c) + section.bars.length;
    if (n > MAX_BARS) {
      this.page.refuse(['section.dupTooManyBars', { max: MAX_BARS, name: sectionName(section, s), n }]);
      return;
    }
    this.page.showMessage(null);
    if (this.page.edit({ t: 'insertSection', s: s + 1, section: clone(section) })) this.page.view.sectionControl(s + 1, 'input')?.focus();
  }

  // pasteOnSection: a chart line pasted on a section's header (its label, its tools or its "Add bar"
  // control) adds one bar per cell at the end of that section. Text without cells pastes as usual (a
  // label), and so does a label that only looks like lines of text.
  pasteOnSection(ev) {
    const head = ev.target.closest?.('.section-head');
    const path = head?.closest('section.section')?.dataset.path;
    const m = /^sections\[(\d+)\]$/.exec(path || '');
    if (!m || !this.page.editable) return;
    const text = ev.clipboardData?.getData('text/plain') || '';
    const r = parsePaste(text, this.page.catalogue);
    if (!r || (!r.bars && ev.target.matches('.mark-input') && !text.includes('|'))) return;
    ev.preventDefault();
    const s = Number(m[1]);
    if (!r.bars) {
      this.page.refuse(r.unknown ? ['chord.unknown', r.unknown] : ['edit.pasteBad']);
      return;
    }
    const start = this.page.draft.sections[s].bars.length;
    if (start + r.bars.length > MAX_SECTION_BARS) {
      this.page.refuse(['edit.sectionFull']);
      return;
    }
    if (!this.page.roomFor(r.bars.length)) return;
    this.page.showMessage(null);
    // A pasted bar with a repeat sign or % is an object (form.js): it goes in with its form, as the
    // page's own paste inserts it.
    r.bars.forEach((bar, i) => {
      const f = barForm(bar);
      this.page.edit({ t: 'insertBar', s, b: start + i, chords: f.chords, form: Array.isArray(bar) ? undefined : f });
    });
    this.page.view.barButton(s, start + r.bars.length - 1)?.focus();
  }

  // ---- the title's length ----

  // setupTitleLimit says, in the page's words, when the title reaches its limit (the field keeps no
  // more: a longer paste is cut there), rather than letting the rest vanish silently.
  setupTitleLimit() {
    const input = byId('f-title');
    const hint = byId('title-limit');
    const max = Number(input.maxLength) > 0 ? Number(input.maxLength) : 120;
    input.addEventListener('input', () => {
      const full = input.value.length >= max;
      if (full) bindText(hint, 'title.atLimit', { max });
      show(hint, full);
    });
  }
}
