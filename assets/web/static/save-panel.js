// @ts-check
// The board page's save/conflict cycle in the page: saving (one PUT with If-Match), what a refusal
// says, the 412 panel (somebody else saved first: reapply mine or discard), the list of bars, lines
// and fields both sides changed (keep mine / take theirs, each by pointer or keyboard), the 422 mark
// on the bad field, and Undo of the page's own last save. save-cycle.js holds the decisions.

import { byId, h, show } from './dom.js';
import { bindText } from './i18n.js';
import * as api from './api.js';
import { clone, diff, pathCandidates } from './content.js';
import { flatten } from './player.js';
import { forget } from './keyring.js';
import { barForm } from './form.js';
import { barLine } from './form-view.js';
import { boardWithBars, forSave } from './lyrics-content.js';
import { canSave, saveOutcome, saved, withoutOps } from './save-cycle.js';

/**
 * @typedef {import('./save-cycle.js').EditConflict} EditConflict
 * @typedef {import('./i18n.js').Entry} Entry
 */

const MAX_LISTED = 8;

export class SavePanel {
  /** @param {import('./board-page.js').BoardPage} page */
  constructor(page) {
    this.page = page;
  }

  // wire connects the editing controls (once the page is editable).
  wire() {
    byId('meta-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.save();
    });
    byId('save').addEventListener('click', () => this.save());
    byId('discard').addEventListener('click', () => this.discard());
    byId('undo-save').addEventListener('click', () => this.undoSave());
    byId('conflict-reapply').addEventListener('click', () => this.reapply());
    byId('conflict-discard').addEventListener('click', () => this.discard());
    document.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 's') {
        ev.preventDefault();
        this.save();
      }
    });
    window.addEventListener('beforeunload', (ev) => {
      if (this.page.ops.length) ev.preventDefault();
    });
  }

  // ---- saving ----

  async save() {
    const page = this.page;
    if (!canSave({ editable: page.editable, ops: page.ops, saving: page.saving, conflict: page.conflict, conflicts: page.barConflicts })) return;
    const base = /** @type {Board} */ (page.base);
    const sent = page.ops.length;
    const body = forSave(clone(/** @type {Content} */ (page.draft)));
    page.saving = true;
    page.inflight = sent;
    this.showMessage(null);
    this.updateDirty();
    try {
      const board = /** @type {Board} */ (boardWithBars(await api.putBoard(page.id, base.revision, body, /** @type {string} */ (page.cap))));
      page.history?.arrived(board, false);
      ({ ops: page.ops, draft: page.draft } = saved(board, page.ops, sent));
      page.base = board;
      this.clearInvalid();
      show(byId('rebased'), false);
      show(byId('dropped'), false);
      bindText(byId('save-status'), 'edit.saved', { rev: board.revision });
      page.ownSave = { revision: board.revision, before: board.revision - 1 };
      page.render();
    } catch (err) {
      this.saveFailed(/** @type {import('./api.js').ApiError} */ (err));
    } finally {
      page.saving = false;
      page.inflight = 0;
      this.updateDirty();
      const pending = page.pending;
      page.pending = null;
      if (pending) page.adopt(pending);
    }
  }

  /** @param {import('./api.js').ApiError} err */
  saveFailed(err) {
    const page = this.page;
    const out = saveOutcome(err, page.id);
    if ('conflict' in out) this.startConflict();
    else if ('invalid' in out) this.showInvalid(out.invalid.path, out.invalid.rule);
    else {
      if (out.forget && page.cap) forget(page.id, page.cap); // the ring's key no longer opens the board
      this.showMessage(out.message);
    }
  }

  // ---- undo the page's own last save ----

  // paintUndo offers Undo while the board is still at the revision this page saved and nothing is
  // typed since: a newer revision (anyone's) or an edit makes it a matter for the history.
  paintUndo() {
    const page = this.page;
    const own = page.ownSave;
    show(byId('undo-save'), Boolean(page.editable && own && page.base?.revision === own.revision && !page.ops.length && !page.saving));
  }

  // undoSave restores the revision before this page's last save, over that save (If-Match): a board
  // changed meanwhile is refused with nothing lost.
  async undoSave() {
    const page = this.page;
    const own = page.ownSave;
    if (!own || !page.editable || page.base?.revision !== own.revision || page.ops.length) return;
    const button = /** @type {HTMLButtonElement} */ (byId('undo-save'));
    button.disabled = true;
    try {
      const board = await api.restoreRevision(page.id, own.before, own.revision, /** @type {string} */ (page.cap));
      page.ownSave = null;
      page.adopt(board);
      bindText(byId('save-status'), 'edit.undone', { rev: board.revision, from: own.before });
    } catch (err) {
      const e = /** @type {import('./api.js').ApiError} */ (err);
      if (e.status === 412) this.showMessage(['edit.undoStale']);
      else if (e.status === 401 || e.status === 403) this.saveFailed(e);
      else this.showMessage(['edit.undoFailed', { message: e.message }]);
    } finally {
      button.disabled = false;
      this.paintUndo();
    }
  }

  /**
   * showMessage says entry in the page's message, near the top of the board (null: no message).
   * @param {Entry | null} entry
   */
  showMessage(entry) {
    const el = byId('message');
    show(byId('refused'), false);
    if (!entry) {
      show(el, false);
      return;
    }
    bindText(el, ...entry);
    show(el, true);
  }

  /**
   * refuse says why something done in the grid (a bar added, a paste, a section duplicated) changed
   * nothing, in a toast at the bottom of the window: the page's message may be a screen or more above
   * the bar the musician is at.
   * @param {Entry} entry
   */
  refuse(entry) {
    show(byId('message'), false);
    bindText(byId('refused-text'), ...entry);
    show(byId('refused'), true);
  }

  updateDirty() {
    const page = this.page;
    if (!page.editable) return;
    const dirty = page.ops.length > 0;
    this.paintUndo();
    /** @type {HTMLButtonElement} */ (byId('save')).disabled = !dirty || page.saving || Boolean(page.conflict) || Boolean(page.barConflicts.length);
    /** @type {HTMLButtonElement} */ (byId('discard')).disabled = !dirty || page.saving;
    page.main.dataset.dirty = String(dirty);
    const status = byId('save-status');
    if (page.saving) bindText(status, 'edit.saving');
    else if (dirty && !page.conflict && status.dataset.i18n !== 'edit.reapplied') bindText(status, 'edit.dirty');
    if (!dirty) show(byId('rebased'), false);
  }

  discard() {
    const page = this.page;
    if (page.conflict) {
      page.base = page.conflict.server;
      page.conflict = null;
      show(byId('conflict'), false);
    }
    const base = /** @type {Board} */ (page.base);
    page.ops = [];
    page.draft = clone(base.content);
    this.showConflicts([]);
    this.clearInvalid();
    show(byId('rebased'), false);
    show(byId('dropped'), false);
    page.render();
    this.updateDirty();
    bindText(byId('save-status'), 'edit.discarded', { rev: base.revision });
  }

  // ---- 412: somebody else saved first ----

  async startConflict() {
    const page = this.page;
    let server;
    try {
      server = await api.getBoard(page.id);
    } catch {
      this.showMessage(['edit.network']);
      return;
    }
    if (page.conflict || !page.base || server.revision <= page.base.revision) return;
    page.conflict = { server };
    this.showConflict(true);
  }

  /** @param {boolean} focus */
  showConflict(focus) {
    const page = this.page;
    const { server } = /** @type {{server: Board}} */ (page.conflict);
    const base = /** @type {Board} */ (page.base);
    bindText(byId('conflict-intro'), 'conflict.intro', { rev: server.revision });
    fillList(byId('conflict-theirs'), diff(base.content, server.content));
    fillList(byId('conflict-yours'), diff(base.content, /** @type {Content} */ (page.draft)));
    show(byId('conflict'), true);
    this.updateDirty();
    if (focus) byId('conflict-heading').focus();
  }

  reapply() {
    const page = this.page;
    const { server } = /** @type {{server: Board}} */ (page.conflict);
    page.conflict = null;
    show(byId('conflict'), false);
    show(byId('rebased'), false);
    page.rebase(server);
    page.render();
    bindText(byId('save-status'), 'edit.reapplied', { rev: server.revision });
    this.updateDirty();
    byId(page.ops.length ? 'save' : 'grid')?.focus();
  }

  /**
   * showConflicts lists bars, lines and fields both this page and someone else changed, each with a
   * choice: keep mine (the draft already has it) or take theirs (the edit is taken back). Saving waits
   * for every choice.
   * @param {EditConflict[]} conflicts
   */
  showConflicts(conflicts) {
    const page = this.page;
    page.barConflicts = conflicts;
    const draft = /** @type {Content} */ (page.draft);
    const bars = flatten(draft);
    const items = conflicts.map((c) => {
      if (c.k !== undefined) return page.lineEditor().conflictItem(c, (/** @type {boolean} */ useTheirs) => this.resolve(c, useTheirs));
      let params;
      let kind = 'barConflict';
      if (c.field !== undefined) {
        kind = 'fieldConflict';
        params = { field: this.fieldName(c.field), theirs: shown(c.theirs), mine: shown(c.mine) };
      } else {
        const n = bars.findIndex((x) => x.section === c.s && x.bar === c.b) + 1;
        // theirs is a bar as written (a chart with form writes an object); mine, the chords typed.
        params = { n, theirs: barLine(barForm(/** @type {Bar} */ (c.theirs)), draft.beatsPerBar), mine: /** @type {string[]} */ (c.mine).join(' ') };
      }
      const keep = bindText(h('button', { type: 'button' }), `${kind}.keepMine`, params);
      const take = bindText(h('button', { type: 'button' }), `${kind}.useTheirs`, params);
      keep.addEventListener('click', () => this.resolve(c, false));
      take.addEventListener('click', () => this.resolve(c, true));
      return h('li', {}, bindText(h('span'), `${kind}.item`, params), h('span', { class: 'actions' }, keep, take));
    });
    byId('bar-conflicts-list').replaceChildren(...items);
    // Lines of words in conflict are named as such (lyrics-strings.js), bars alone as bars, fields (with
    // bars or without) as things.
    const kind = conflicts.some((c) => c.k !== undefined) ? 'lineConflict' : conflicts.some((c) => c.field !== undefined) ? 'fieldConflict' : 'barConflict';
    const heading = byId('bar-conflicts-heading');
    bindText(heading, `${kind}.heading`);
    bindText(/** @type {HTMLElement} */ (heading.nextElementSibling), `${kind}.intro`);
    show(byId('bar-conflicts'), conflicts.length > 0);
    this.updateDirty();
  }

  /**
   * @param {EditConflict} conflict
   * @param {boolean} useTheirs
   */
  resolve(conflict, useTheirs) {
    const page = this.page;
    if (useTheirs) {
      ({ ops: page.ops, draft: page.draft } = withoutOps(/** @type {Board} */ (page.base).content, page.ops, conflict));
      page.render();
    }
    this.showConflicts(page.barConflicts.filter((c) => c !== conflict));
    if (!page.barConflicts.length) byId(page.ops.length ? 'save' : 'grid')?.focus();
  }

  // ---- 422: the rule and the field ----

  /**
   * @param {string} path
   * @param {unknown} rule
   */
  showInvalid(path, rule) {
    const page = this.page;
    this.clearInvalid();
    /** @type {HTMLElement | null} */
    let el = null;
    for (const p of pathCandidates(path)) {
      el = page.main.querySelector(`[data-path="${CSS.escape(p)}"]`);
      if (el) break;
    }
    const field = this.fieldName(path);
    this.showMessage(['edit.invalid', { field, rule }]);
    if (!el) return;
    const target = el.matches('li.bar') ? el.querySelector('button') || el : el;
    target.classList.add('is-invalid');
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-errormessage', 'message');
    target.dataset.path ||= el.dataset.path;
    page.invalid = target;
    if (typeof target.focus === 'function') target.focus();
  }

  clearInvalid() {
    const page = this.page;
    if (!page.invalid) return;
    page.invalid.classList.remove('is-invalid');
    page.invalid.removeAttribute('aria-invalid');
    page.invalid.removeAttribute('aria-errormessage');
    page.invalid = null;
    if (byId('message').dataset.i18n === 'edit.invalid') this.showMessage(null);
  }

  /**
   * fieldName names a JSON path for people, as a translatable param.
   * @param {string | undefined} path
   * @returns {import('./i18n.js').Param}
   */
  fieldName(path) {
    /** @type {Record<string, string>} */
    const simple = { title: 'field.title', description: 'field.description', key: 'field.key', tempo: 'field.tempo', beatsPerBar: 'field.beats', sections: 'field.sections' };
    if (path && simple[path]) return { $t: simple[path] };
    let m = /^sections\[(\d+)\]\.(label|role)$/.exec(path || '');
    if (m) return { $t: m[2] === 'role' ? 'field.sectionRole' : 'field.sectionLabel', params: { n: Number(m[1]) + 1 } };
    m = /^sections\[(\d+)\]\.bars\[(\d+)\]/.exec(path || '');
    if (m) {
      const [, s, b] = m;
      const n = flatten(/** @type {Content} */ (this.page.draft)).findIndex((x) => x.section === Number(s) && x.bar === Number(b)) + 1;
      if (n > 0) return { $t: 'field.bar', params: { n } };
    }
    return path || '—';
  }
}

/**
 * shown is a field's value as a conflict names it: '—' for none.
 * @param {unknown} v
 */
function shown(v) {
  return v === '' || v === null || v === undefined ? '—' : String(v);
}

/**
 * fillList renders i18n entries as list items, at most MAX_LISTED and a "more" line.
 * @param {HTMLElement} ul
 * @param {Entry[]} entries
 */
export function fillList(ul, entries) {
  const items = entries.slice(0, MAX_LISTED).map(([key, params]) => bindText(h('li'), key, params));
  if (entries.length > MAX_LISTED) items.push(bindText(h('li'), 'chg.more', { n: entries.length - MAX_LISTED }));
  if (entries.length === 0) items.push(bindText(h('li'), 'chg.none'));
  ul.replaceChildren(...items);
}
