// @ts-check
// Pi's proposals on the board page (issue 28, docs/api.md "Proposals"): when the board has open
// proposals, a panel above the player and the grid shows one as the chart, each bar Pi changed marked old → new, and
// the musician takes or leaves all of it, a section or single bars, by pointer or keyboard (A takes
// the focused change, R leaves it, ↑ ↓ move between changes). Every change has its words for a screen
// reader. Choices go to the server as one accept ({}, {bars} or {sections}) or one reject; what the
// server says is written comes back to the page through adopt, as any revision does. When the board
// changed the same bars since Pi read it (412 proposal_conflict), each such bar is the musician's to
// choose, as when two browsers edited it: the other bars are accepted, and the bars where Pi's chords
// are chosen become the page's own edits, saved as any edit is.
//
// The list comes from GET …/proposals at load and after each reconnection, then from the board
// stream's `proposals` events. A proposal that appears while the page is open is news (notify.js).

import { byId, h, show } from './dom.js';
import { bindAttr, bindText, extend } from './i18n.js';
import { request } from './api.js';
import { barForm } from './form.js';
import { acceptRequest, conflictBars, fieldAt, fieldText, markProposal, sectionItems, settleFields, spoken } from './proposal-marks.js';
import { STRINGS } from './proposal-strings.js';

extend(STRINGS);

export class ProposalsView {
  // page: the board page (id, base, editable, cap, adopt, edit, save, startConflict).
  constructor(page, { onNew = () => {} } = {}) {
    this.page = page;
    this.onNew = onNew;
    this.rows = null; // the open proposals, newest first; null until first listed
    this.shown = null; // {row, proposal, base, marks, decisions, conflicts}
    this.build();
  }

  url(suffix = '') {
    return `/api/boards/${encodeURIComponent(this.page.id)}/proposals${suffix}`;
  }

  build() {
    this.heading = h('h2', { id: 'proposals-heading', tabindex: '-1' });
    this.picker = h('div', { class: 'prop-picker', role: 'group' });
    this.info = h('p', { id: 'proposals-info', class: 'hint' });
    this.status = h('p', { id: 'proposals-status', class: 'prop-status', role: 'status', 'aria-live': 'polite' });
    this.actions = h('div', { class: 'actions prop-actions' });
    this.body = h('div', { id: 'proposals-body', class: 'prop-body' });
    this.panel = h('section', { id: 'proposals', class: 'panel proposals', 'aria-labelledby': 'proposals-heading', hidden: '' },
      this.heading, this.picker, this.info, this.actions, this.status, this.body);
    // Above the player toolbar, which sticks under the header: a choice scrolled to is never under it.
    document.querySelector('.toolbar').before(this.panel);
    this.panel.addEventListener('keydown', (ev) => this.key(ev));
    // One listener for every choice: a proposal of the largest board has a thousand of them.
    this.panel.addEventListener('click', (ev) => {
      const btn = ev.target.closest?.('.prop-take, .prop-leave');
      const item = btn && this.shown?.byKey.get(btn.dataset.key);
      if (item) this.decide([item], btn.classList.contains('prop-take') ? 'accept' : 'reject');
    });
  }

  // refresh lists the open proposals again (at load, after a reconnection).
  async refresh() {
    try {
      const data = await request('GET', this.url());
      this.listed({ board: this.page.id, proposals: data?.proposals || [] });
    } catch {
      // The list comes again with the next event or reconnection.
    }
  }

  // listed takes a list of open proposals (the route's, or a `proposals` event's).
  listed(event) {
    if (!event || (event.board && event.board !== this.page.id) || !Array.isArray(event.proposals)) return;
    const before = this.rows;
    this.rows = event.proposals;
    if (before) {
      const known = new Set(before.map((r) => r.id));
      if (this.rows.some((r) => !known.has(r.id))) this.onNew();
    }
    if (!this.rows.length) {
      this.shown = null;
      show(this.panel, false);
      this.body.replaceChildren(); // a thousand choices need not stay in the document, hidden
      this.itemEls = new Map();
      return;
    }
    const keep = this.shown && this.rows.find((r) => r.id === this.shown.row.id);
    this.paintPicker();
    if (!keep && this.opening !== this.rows[0].id) this.open(this.rows[0].id);
    else this.paintHead();
  }

  paintPicker() {
    const many = this.rows.length > 1;
    show(this.picker, many);
    if (!many) return;
    this.picker.replaceChildren(...this.rows.map((r, i) => {
      const b = bindText(h('button', { type: 'button', class: 'link-btn', 'data-proposal': r.id, 'aria-pressed': String(r.id === this.shown?.row.id) }), 'prop.pick', { n: i + 1 });
      b.addEventListener('click', () => this.open(r.id));
      return b;
    }));
  }

  // open shows proposal pid: its content, and the base it was made on, to mark what Pi changed.
  async open(pid) {
    const row = this.rows.find((r) => r.id === pid);
    if (!row) return;
    this.opening = pid; // a list arriving meanwhile does not open it again
    try {
      await this.load(row, pid);
    } finally {
      if (this.opening === pid) this.opening = null;
    }
  }

  async load(row, pid) {
    let proposal;
    let base = null;
    try {
      proposal = await request('GET', this.url(`/${encodeURIComponent(pid)}`));
    } catch {
      return;
    }
    const cur = this.page.base;
    if (!cur) return;
    if (proposal.baseRevision === cur.revision) base = cur.content;
    else {
      try {
        base = (await request('GET', `/api/boards/${encodeURIComponent(this.page.id)}/revisions/${proposal.baseRevision}`)).content;
      } catch {
        base = null; // not kept: marked against the board as it is
      }
    }
    if (!this.rows.some((r) => r.id === pid)) return; // closed meanwhile
    this.shown = { row, proposal, base, decisions: new Map(), conflicts: null };
    this.render();
    show(this.panel, true);
    this.paintPicker();
  }

  // boardChanged re-marks the shown proposal against the board's new revision ("old" is the board now).
  // While an accept or reject is out, the revision it makes is not worth drawing the panel for: the
  // panel closes with the answer. A choice that had the focus keeps it in the new drawing.
  boardChanged() {
    if (!this.shown || this.sending) return;
    const at = /** @type {HTMLElement | null} */ (document.activeElement);
    const keep = this.panel.contains(at) && at.dataset.key ? `.${at.classList[at.classList.length - 1]}[data-key="${CSS.escape(at.dataset.key)}"]` : at?.id && this.panel.contains(at) ? `#${CSS.escape(at.id)}` : null;
    this.render();
    if (keep) this.panel.querySelector(keep)?.focus();
  }

  paintHead() {
    const sh = this.shown;
    bindText(this.heading, 'prop.heading', { n: this.rows.length });
    const lines = [];
    if (sh.row.note) lines.push(['prop.note', { note: sh.row.note }]);
    if (this.page.base && sh.proposal.baseRevision !== this.page.base.revision) lines.push(['prop.base', { rev: sh.proposal.baseRevision, now: this.page.base.revision }]);
    this.info.replaceChildren(...lines.map(([k, p]) => bindText(h('span', { class: 'prop-line' }), k, p)));
    show(this.info, lines.length > 0);
  }

  render() {
    const sh = this.shown;
    sh.marks = markProposal(sh.base, this.page.base.content, sh.proposal.content);
    const { items, sections } = sh.marks;
    sh.byKey = new Map(items.map((it) => [it.key, it]));
    this.paintHead();
    const editable = this.page.editable;
    this.actions.replaceChildren();
    if (editable) {
      const all = bindText(h('button', { type: 'button', id: 'prop-accept-all', class: 'primary' }), 'prop.acceptAll');
      all.addEventListener('click', () => this.send({ all: true }));
      const none = bindText(h('button', { type: 'button', id: 'prop-reject-all' }), 'prop.rejectAll');
      none.addEventListener('click', () => this.send({ reject: true }));
      this.applyBtn = bindText(h('button', { type: 'button', id: 'prop-apply' }), 'prop.apply');
      this.applyBtn.addEventListener('click', () => this.applyChoices());
      this.actions.append(all, none, this.applyBtn, bindText(h('span', { class: 'hint prop-keys' }), 'prop.keys'));
    } else {
      this.actions.append(bindText(h('p', { class: 'hint' }), 'prop.readonly'));
    }
    bindText(this.status, 'prop.count', { n: items.length });
    this.itemEls = new Map();
    const frag = document.createDocumentFragment();
    const others = items.filter((it) => it.kind === 'field' || it.kind === 'removed');
    if (others.length) frag.append(h('ul', { class: 'prop-others' }, ...others.map((it) => this.itemRow(it, 'li', editable))));
    for (const sec of sections) frag.append(this.sectionEl(sec, items, editable));
    this.body.replaceChildren(frag);
    this.paintDecisions();
  }

  sectionEl(sec, items, editable) {
    const head = h('div', { class: 'prop-section-head' }, h('h3', {}, sec.name));
    const own = sectionItems(items, sec.s);
    if (editable && own.length) {
      const take = bindText(h('button', { type: 'button', class: 'prop-take-section', 'data-section': String(sec.s) }), 'prop.acceptSection', { section: sec.name });
      take.addEventListener('click', () => this.decide(own, 'accept'));
      const leave = bindText(h('button', { type: 'button', class: 'prop-leave-section', 'data-section': String(sec.s) }), 'prop.rejectSection', { section: sec.name });
      leave.addEventListener('click', () => this.decide(own, 'reject'));
      head.append(take, leave);
    }
    const whole = this.shown.byKey.get(`s:${sec.s}`);
    const el = h('div', { class: 'prop-section', 'data-section': String(sec.s) }, head);
    if (whole) el.append(h('p', { class: 'prop-whole' }, this.itemRow(whole, 'span', editable)));
    const ol = document.createElement('ol');
    ol.className = 'prop-bars';
    for (const bar of sec.bars) {
      const li = document.createElement('li');
      li.className = 'prop-bar';
      const num = document.createElement('span');
      num.className = 'bar-num';
      num.setAttribute('aria-hidden', 'true');
      num.textContent = String(bar.n);
      li.append(num);
      const item = this.shown.byKey.get(`b:${bar.s}:${bar.b}`);
      if (!bar.changed) {
        li.append(h('span', { class: 'chords' }, bar.new));
      } else if (!item) {
        li.dataset.mark = 'changed';
        li.append(h('span', { class: 'chords' }, h('ins', {}, bar.new)));
      } else {
        this.changedBar(li, item, bar, editable);
      }
      ol.append(li);
    }
    el.style.setProperty('--bars', String(sec.bars.length));
    el.append(ol);
    return el;
  }

  // changedBar fills li with a changed bar: old → new, its words, its choices. The largest proposal has
  // 512 of them: each is a copy of one template, its texts and labels then written.
  changedBar(li, item, bar, editable) {
    if (!this.barTemplate) {
      const take = h('button', { type: 'button', class: 'icon-btn prop-take', 'aria-pressed': 'false' }, h('span', { 'aria-hidden': 'true' }, '✓'));
      const leave = h('button', { type: 'button', class: 'icon-btn prop-leave', 'aria-pressed': 'false' }, h('span', { 'aria-hidden': 'true' }, '✗'));
      this.barTemplate = [h('span', { class: 'chords', 'aria-hidden': 'true' }, h('del'), ' → ', h('ins')), h('span', { class: 'sr-only' }), h('span', { class: 'prop-choice' }, take, leave)];
    }
    const [chords, words, choice] = this.barTemplate.map((n) => n.cloneNode(true));
    li.dataset.mark = 'changed';
    li.dataset.key = item.key;
    chords.firstChild.textContent = bar.old || '—';
    chords.lastChild.textContent = bar.new;
    li.append(chords, bindText(words, ...spoken(item)));
    if (editable) {
      const [take, leave] = choice.children;
      take.dataset.key = leave.dataset.key = item.key;
      bindAttr(take, 'aria-label', 'prop.acceptBar', { n: bar.n });
      bindAttr(leave, 'aria-label', 'prop.rejectBar', { n: bar.n });
      li.append(choice);
    }
    this.itemEls.set(item.key, li);
  }

  // itemRow is a change that is not one bar: its words and, to edit, its two choices.
  itemRow(item, tag, editable) {
    const el = h(tag, { class: 'prop-item', 'data-key': item.key }, bindText(h('span', {}), ...spoken(item)));
    const [k, p] = spoken(item);
    if (editable) el.append(...this.choiceButtons(item, 'prop.acceptItem', 'prop.rejectItem', { what: { $t: k, params: p } }));
    this.itemEls?.set(item.key, el);
    return el;
  }

  choiceButtons(item, acceptKey, rejectKey, params) {
    const take = bindAttr(h('button', { type: 'button', class: 'icon-btn prop-take', 'aria-pressed': 'false', 'data-key': item.key }, h('span', { 'aria-hidden': 'true' }, '✓')), 'aria-label', acceptKey, params);
    const leave = bindAttr(h('button', { type: 'button', class: 'icon-btn prop-leave', 'aria-pressed': 'false', 'data-key': item.key }, h('span', { 'aria-hidden': 'true' }, '✗')), 'aria-label', rejectKey, params);
    return [take, leave];
  }

  decide(items, decision) {
    for (const it of items) this.shown.decisions.set(it.key, decision);
    this.paintDecisions();
  }

  paintDecisions() {
    const d = this.shown.decisions;
    for (const [key, el] of this.itemEls) {
      const v = d.get(key) || '';
      if ((el.dataset.decision || '') !== v) {
        if (v) el.dataset.decision = v;
        else delete el.dataset.decision;
        for (const b of el.querySelectorAll('.prop-take, .prop-leave')) {
          b.setAttribute('aria-pressed', String(b.classList.contains('prop-take') ? v === 'accept' : v === 'reject'));
        }
      }
    }
    if (this.applyBtn) this.applyBtn.disabled = d.size === 0;
  }

  // key: A takes the focused change, R leaves it, ↑ ↓ move between the changes' first buttons.
  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !this.shown) return;
    const btn = ev.target.closest?.('.prop-take, .prop-leave');
    if (!btn) return;
    const k = ev.key.toLowerCase();
    if (k === 'a' || k === 'r') {
      const item = this.shown.byKey.get(btn.dataset.key);
      if (item) this.decide([item], k === 'a' ? 'accept' : 'reject');
      ev.preventDefault();
    } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      const all = [...this.panel.querySelectorAll('.prop-take')];
      const at = all.findIndex((b) => b.dataset.key === btn.dataset.key);
      const next = all[at + (ev.key === 'ArrowDown' ? 1 : -1)];
      if (next) next.focus();
      ev.preventDefault();
    }
  }

  applyChoices() {
    const sh = this.shown;
    const req = acceptRequest(sh.marks.items, sh.decisions);
    if (req.error) {
      bindText(this.status, `prop.${req.error}`);
      return;
    }
    this.send(req);
  }

  // send accepts or rejects the shown proposal as req says ({all}, {reject} or {body}).
  async send(req) {
    const sh = this.shown;
    if (!sh || !this.page.editable || this.sending) return;
    const pid = sh.proposal.id;
    const auth = { Authorization: `Bearer ${this.page.cap}` };
    this.sending = true;
    try {
      if (req.reject) {
        await request('POST', this.url(`/${pid}/reject`), { body: {}, headers: auth });
        this.closed(pid, 0);
      } else {
        const rev = this.page.base.revision;
        const board = await request('POST', this.url(`/${pid}/accept`), { body: req.all ? {} : req.body, headers: { ...auth, 'If-Match': `"${rev}"` } });
        this.closed(pid, board.revision); // first: the panel is not drawn again for the revision that closes it
        this.page.adopt(board);
      }
    } catch (err) {
      this.refused(err, req);
    } finally {
      this.sending = false;
    }
  }

  // closed drops proposal pid from the list at once (its `proposals` event follows) and says what was
  // written (rev, or 0 for nothing) beside the page's save state. A choice that had the focus gives it
  // to the next proposal's heading, or to the grid's first bar.
  closed(pid, rev) {
    const focused = this.panel.contains(document.activeElement);
    bindText(byId('save-status'), 'prop.done', { rev });
    this.listed({ board: this.page.id, proposals: (this.rows || []).filter((r) => r.id !== pid) });
    if (!focused) return;
    if (this.rows.length) this.heading.focus();
    else this.page.view.barButton(0, 0)?.focus();
  }

  async refused(err, req) {
    switch (err.code) {
      case 'proposal_conflict':
        this.showConflicts(err.fields.bars || [], err.fields.fields || [], req);
        return;
      case 'revision_conflict':
        // The page had not seen the newest revision: take it, and the musician chooses again on it.
        try {
          this.page.adopt(await request('GET', `/api/boards/${encodeURIComponent(this.page.id)}`));
        } catch {
          // the stream brings it
        }
        bindText(this.status, 'prop.moved');
        return;
      case 'proposal_stale':
        bindText(this.status, 'prop.stale');
        return;
      case 'proposal_not_found':
        bindText(this.status, 'prop.gone');
        this.refresh();
        return;
      case 'rate_limited':
        bindText(this.status, 'edit.rateLimited');
        return;
      case 'unauthorized':
      case 'bad_capability':
        bindText(this.status, 'edit.unauthorized', { id: this.page.id });
        return;
      case 'network':
        bindText(this.status, 'edit.network');
        return;
      default:
        bindText(this.status, 'prop.failed', { message: err.message });
    }
  }

  // showConflicts asks, for each bar and each field (title, tempo, a section's label or words, …) the
  // board also changed, which to keep: the board's or Pi's. Once every one is answered, the rest is
  // accepted and what was chosen of Pi's is the page's own edits (settleFields).
  showConflicts(bars, fields, req) {
    const sh = this.shown;
    const items = conflictBars(sh.marks.items, bars);
    const named = fields.filter((f) => typeof f === 'string');
    if (!items.length && !named.length) {
      bindText(this.status, 'prop.failed', { message: 'proposal_conflict' });
      return;
    }
    sh.conflicts = { items, fields: named, req, choice: new Map() };
    const list = h('ul', { id: 'prop-conflicts', class: 'bar-conflicts' });
    const now = this.page.base.content;
    for (const f of named) {
      const params = { field: fieldParam(f), board: fieldText(fieldAt(now, f)), pi: fieldText(fieldAt(sh.proposal.content, f)) };
      const keep = bindText(h('button', { type: 'button', class: 'prop-keep-board', 'data-key': f }), 'prop.keepBoardField', params);
      const take = bindText(h('button', { type: 'button', class: 'prop-take-pi', 'data-key': f }), 'prop.takePiField', params);
      keep.addEventListener('click', () => this.resolve({ key: f }, 'board'));
      take.addEventListener('click', () => this.resolve({ key: f }, 'pi'));
      list.append(h('li', { 'data-key': f }, bindText(h('span', {}), 'prop.fieldConflict', params), keep, take));
    }
    for (const it of items) {
      const board = now.sections[it.s]?.bars[it.b];
      const pi = sh.proposal.content.sections[it.s].bars[it.b];
      const keep = bindText(h('button', { type: 'button', class: 'prop-keep-board', 'data-key': it.key }), 'prop.keepBoard', { chords: board ? barForm(board).chords.join(' ') : '—' });
      const take = bindText(h('button', { type: 'button', class: 'prop-take-pi', 'data-key': it.key }), 'prop.takePi', { chords: barForm(pi).chords.join(' ') });
      keep.addEventListener('click', () => this.resolve(it, 'board'));
      take.addEventListener('click', () => this.resolve(it, 'pi'));
      list.append(h('li', { 'data-key': it.key }, bindText(h('span', {}), ...spoken(it)), keep, take));
    }
    bindText(this.status, named.length ? 'prop.conflictFields' : 'prop.conflict', { n: items.length + named.length });
    this.body.prepend(list);
    list.querySelector('button')?.focus();
  }

  async resolve(item, side) {
    const c = this.shown?.conflicts;
    if (!c) return;
    c.choice.set(item.key, side);
    byId('prop-conflicts')?.querySelector(`li[data-key="${CSS.escape(item.key)}"]`)?.setAttribute('data-choice', side);
    if (c.choice.size < c.items.length + c.fields.length) return;
    const sh = this.shown;
    const pi = sh.proposal.content;
    // Everything but the disputed bars and fields through the accept; Pi's chords and fields where
    // chosen as this page's edits.
    let decisions = new Map(sh.decisions);
    if (c.req.all) for (const it of sh.marks.items) decisions.set(it.key, 'accept');
    for (const it of c.items) decisions.set(it.key, 'reject');
    let ops = [];
    if (c.fields.length) ({ decisions, ops } = settleFields(sh.marks.items, decisions, c.fields, c.choice, { base: sh.base, board: this.page.base.content, proposal: pi }));
    const rest = acceptRequest(sh.marks.items, decisions, !c.fields.length);
    const mine = c.items.filter((it) => c.choice.get(it.key) === 'pi');
    await this.send(rest.error ? { reject: true } : rest);
    let edited = false;
    for (const it of mine) {
      const f = barForm(pi.sections[it.s].bars[it.b]);
      if (this.page.draft?.sections[it.s]?.bars.length === pi.sections[it.s].bars.length) edited = this.page.edit({ t: 'bar', s: it.s, b: it.b, chords: f.chords, form: f }) || edited;
    }
    for (const op of ops) edited = this.page.edit(op) || edited;
    if (edited) this.page.save();
  }
}

// fieldParam names a field a conflict names for people, as a translatable param: "Title", "Section 2's
// label", "Section 3's words".
function fieldParam(path) {
  const m = /^sections\[(\d+)\]\.(\w+)$/.exec(path);
  if (m) return { $t: `prop.field.section.${m[2]}`, params: { n: Number(m[1]) + 1 } };
  return { $t: `field.${path === 'beatsPerBar' ? 'beats' : path}` };
}
