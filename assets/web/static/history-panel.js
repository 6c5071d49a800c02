// @ts-check
// The board's history on the board page (issue 9): a History panel listing every kept revision (who,
// when, title, "restored from"), a read-only view of one revision with what differs from the current
// board, Restore this version (edit link only), and the banner that says what Pi just changed, with
// Undo (a restore of the revision before Pi's, guarded by If-Match, so an edit made in between becomes
// the page's conflict flow) and Show changes. The banner is a polite status: it never takes focus.
//
// The page gives this module its board events (arrived) and its state (base, editable, capability);
// this module writes only through the restore route and hands the new board back to the page (adopt).

import { byId, h, show } from './dom.js';
import { bindAttr, bindText, extend } from './i18n.js';
import { request } from './api.js';
import { diff, sectionName } from './content.js';
import { markedLines } from './lyrics-content.js';
import { barForm, writeBar } from './form.js';
import { barLine } from './form-view.js';

extend({
  en: {
    'hist.heading': 'History',
    'hist.close': 'Close history',
    'hist.loading': 'Loading the history…',
    'hist.failed': 'Could not load the history.',
    'hist.older': 'Show older revisions',
    'hist.author.browser': 'You',
    'hist.author.pi': 'Pi',
    'hist.author.tele': 'Tele',
    'hist.row': 'Revision {rev}',
    'hist.current': 'current',
    'hist.restoredFrom': 'restored from {rev}',
    'hist.when': (p, loc) => relativeTime(p.at, loc),
    'hist.exact': (p, loc) => exactTime(p.at, loc),
    'hist.viewHeading': 'Revision {rev}, by {author}',
    'hist.viewNote': 'Read-only. Marked: what differs from the current board (revision {rev}).',
    'hist.restore': 'Restore this version',
    'hist.back': 'Back to the list',
    'hist.restored': 'Restored: revision {rev} has the content of revision {from}.',
    'hist.restoreFailed': 'Not restored: {message}',
    'hist.stale': 'Not restored: the board changed since. Nothing was lost; look at the history and choose again.',
    'hist.mark.changed': 'differs',
    'hist.mark.added': 'only in this version',
    'hist.mark.removed': 'not in this version',
    'sum.bars': (p) => (p.n === 1 ? `1 bar changed in ${p.section}` : `${p.n} bars changed in ${p.section}`),
    'sum.barsMany': (p) => `${p.n} bars changed in ${p.k} sections`,
    'sum.fields': 'Title, key, tempo or sections changed',
    'sum.none': 'No difference in content',
    'pi.changed': 'Pi changed the board: {what}.',
    'pi.undo': 'Undo',
    'pi.show': 'Show changes',
    'pi.undone': 'Pi’s change is undone (revision {rev}).',
  },
  'zh-CN': {
    'hist.heading': '历史',
    'hist.close': '关闭历史',
    'hist.loading': '正在加载历史…',
    'hist.failed': '无法加载历史。',
    'hist.older': '显示更早的版本',
    'hist.author.browser': '你',
    'hist.author.pi': 'Pi',
    'hist.author.tele': 'Tele',
    'hist.row': '版本 {rev}',
    'hist.current': '当前',
    'hist.restoredFrom': '由版本 {rev} 恢复',
    'hist.viewHeading': '版本 {rev}，作者：{author}',
    'hist.viewNote': '只读。标出的是与当前和弦谱（版本 {rev}）不同之处。',
    'hist.restore': '恢复这个版本',
    'hist.back': '返回列表',
    'hist.restored': '已恢复：版本 {rev} 的内容来自版本 {from}。',
    'hist.restoreFailed': '未能恢复：{message}',
    'hist.stale': '未能恢复：和弦谱在此之后又有改动。没有丢失任何内容；请查看历史后重新选择。',
    'hist.mark.changed': '不同',
    'hist.mark.added': '仅此版本有',
    'hist.mark.removed': '此版本没有',
    'sum.bars': '“{section}”中有 {n} 个小节改动',
    'sum.barsMany': '{k} 个段落中共有 {n} 个小节改动',
    'sum.fields': '标题、调、速度或段落有改动',
    'sum.none': '内容没有差别',
    'pi.changed': 'Pi 修改了和弦谱：{what}。',
    'pi.undo': '撤销',
    'pi.show': '查看改动',
    'pi.undone': '已撤销 Pi 的修改（版本 {rev}）。',
  },
});

const ICONS = { browser: '●', pi: '✦', tele: '◆' }; // text glyphs: no emoji font needed
const PAGE = 50;

// barKey compares bars of either schema version: a chord array, or an object with chords and form,
// each as the schema writes it (the same bar written either way is the same bar).
const barKey = (bar) => (bar == null ? 'null' : JSON.stringify(writeBar(barForm(bar))));

// summarize says in one i18n entry how b differs from a: bars changed (in one section or several), or
// that other fields changed, or nothing.
export function summarize(a, b) {
  const bySection = new Map();
  const as = a.sections || [];
  const bs = b.sections || [];
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i]?.bars || [];
    const y = bs[i]?.bars || [];
    let n = 0;
    for (let j = 0; j < Math.max(x.length, y.length); j++) {
      if (barKey(x[j]) !== barKey(y[j])) n++;
    }
    if (n) bySection.set(sectionName(bs[i] || as[i], i), (bySection.get(sectionName(bs[i] || as[i], i)) || 0) + n);
  }
  const total = [...bySection.values()].reduce((s, n) => s + n, 0);
  if (bySection.size === 1) return ['sum.bars', { n: total, section: [...bySection.keys()][0] }];
  if (bySection.size > 1) return ['sum.barsMany', { n: total, k: bySection.size }];
  return diff(a, b).length ? ['sum.fields'] : ['sum.none'];
}

export class HistoryPanel {
  constructor(page) {
    this.page = page;
    this.rows = []; // newest first: {revision, author, updatedAt, title, restoredFrom}
    this.next = null;
    this.loaded = false;
    this.lastSeen = 0; // the newest revision this page has seen, for the Pi banner
    this.build();
  }

  url(suffix) {
    return `/api/boards/${encodeURIComponent(this.page.id)}${suffix}`;
  }

  build() {
    // The toggle is the page's (board.html), in its place from the first drawing on: made here, it
    // would push the chart down once this module arrived.
    this.toggle = byId('history-toggle');
    this.toggle.addEventListener('click', () => this.setOpen(byId('history').hidden));

    const close = bindAttr(h('button', { type: 'button', class: 'icon-btn history-close' }, h('span', { 'aria-hidden': 'true' }, '×')), 'aria-label', 'hist.close');
    close.addEventListener('click', () => this.setOpen(false, true));
    this.status = h('p', { id: 'history-status', class: 'history-status', role: 'status' });
    this.list = h('ol', { id: 'history-list', class: 'history-list' });
    this.older = bindText(h('button', { type: 'button', id: 'history-older', class: 'link-btn' }), 'hist.older');
    this.older.addEventListener('click', () => this.load(this.next));
    this.view = h('div', { id: 'history-view', class: 'history-view', hidden: '' });
    const panel = h('section', { id: 'history', class: 'panel history', 'aria-labelledby': 'history-heading', hidden: '' },
      h('div', { class: 'history-head' }, bindText(h('h2', { id: 'history-heading' }), 'hist.heading'), close),
      this.status, this.list, this.older, this.view);
    document.querySelector('.grid-wrap').before(panel);

    this.banner = h('div', { id: 'pi-banner', class: 'pi-banner', role: 'status', 'aria-live': 'polite', hidden: '' });
    byId('notices').append(this.banner);
  }

  setOpen(open, returnFocus) {
    show(byId('history'), open);
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open && !this.loaded) this.load(0);
    if (!open && returnFocus) this.toggle.focus();
  }

  async load(before) {
    this.loaded = true;
    if (!before) bindText(this.status, 'hist.loading');
    let page;
    try {
      page = await request('GET', this.url(`/revisions?limit=${PAGE}${before ? `&before=${before}` : ''}`));
    } catch {
      bindText(this.status, 'hist.failed');
      this.loaded = false;
      return;
    }
    this.status.textContent = '';
    delete this.status.dataset.i18n;
    const known = new Set(this.rows.map((r) => r.revision));
    for (const r of page.revisions) if (!known.has(r.revision)) this.rows.push(r);
    this.rows.sort((x, y) => y.revision - x.revision);
    if (before || this.next === null || this.rows.length <= PAGE) this.next = page.next;
    this.renderList();
  }

  renderList() {
    const current = this.lastSeen;
    const items = this.rows.map((r) => {
      const btn = h('button', { type: 'button', class: 'history-row', 'data-rev': String(r.revision), 'data-author': r.author });
      btn.append(
        h('span', { class: 'history-icon', 'aria-hidden': 'true' }, ICONS[r.author] || '•'),
        bindText(h('span', { class: 'history-author' }), `hist.author.${r.author}`),
        bindText(h('span', { class: 'history-rev' }), 'hist.row', { rev: r.revision }),
        h('span', { class: 'history-title' }, r.title),
        bindText(h('time', { class: 'history-when', datetime: r.updatedAt }), 'hist.when', { at: r.updatedAt }),
        bindText(h('span', { class: 'history-exact' }), 'hist.exact', { at: r.updatedAt }),
      );
      if (r.restoredFrom) btn.append(bindText(h('span', { class: 'history-restored' }), 'hist.restoredFrom', { rev: r.restoredFrom }));
      if (r.revision === current) btn.append(bindText(h('span', { class: 'history-current' }), 'hist.current'));
      bindAttr(btn, 'title', 'hist.exact', { at: r.updatedAt });
      btn.addEventListener('click', () => this.select(r.revision));
      return h('li', {}, btn);
    });
    this.list.replaceChildren(...items);
    show(this.older, Boolean(this.next));
  }

  // arrived is every board the page receives (load, stream, its own saves): a new row, and the banner
  // when the new revision is Pi's.
  arrived(board, initial) {
    if (!board || board.revision <= this.lastSeen) return;
    const previous = this.lastSeen;
    this.lastSeen = board.revision;
    if (this.loaded && !this.rows.some((r) => r.revision === board.revision)) {
      this.rows.unshift({ revision: board.revision, author: board.author, updatedAt: board.updatedAt, title: board.content.title, restoredFrom: board.restoredFrom ?? null });
    }
    if (this.loaded) this.renderList();
    // A revision naming a proposal is one a musician accepted (proposals-view.js), not Pi's own write.
    if (!initial && previous && board.author === 'pi' && !board.proposal) this.piChanged(board);
  }

  async fetchRevision(rev) {
    return request('GET', this.url(`/revisions/${rev}`));
  }

  // piChanged shows the banner for Pi's revision: what changed against the revision before it.
  async piChanged(board) {
    let before;
    try {
      before = await this.fetchRevision(board.revision - 1);
    } catch {
      return;
    }
    if (this.lastSeen !== board.revision) return; // a newer revision already arrived
    const undo = bindText(h('button', { type: 'button', id: 'pi-undo' }), 'pi.undo');
    const showBtn = bindText(h('button', { type: 'button', id: 'pi-show', class: 'link-btn' }), 'pi.show');
    const dismiss = bindAttr(h('button', { type: 'button', class: 'icon-btn' }, h('span', { 'aria-hidden': 'true' }, '×')), 'aria-label', 'toast.dismiss');
    const [key, params] = summarize(before.content, board.content);
    this.banner.replaceChildren(bindText(h('p', { id: 'pi-banner-text' }), 'pi.changed', { what: { $t: key, params } }), h('div', { class: 'actions' }, this.page.editable ? undo : '', showBtn, dismiss));
    undo.addEventListener('click', () => this.restore(board.revision - 1, board.revision, true));
    showBtn.addEventListener('click', () => {
      this.setOpen(true);
      this.select(board.revision - 1);
    });
    dismiss.addEventListener('click', () => show(this.banner, false));
    show(this.banner, true);
  }

  // select shows revision rev read-only, marked where it differs from the current board.
  async select(rev) {
    let b;
    try {
      b = await this.fetchRevision(rev);
    } catch (err) {
      bindText(this.status, 'hist.restoreFailed', { message: err.message });
      return;
    }
    const cur = this.page.base;
    const heading = bindText(h('h3', { id: 'history-view-heading', tabindex: '-1' }), 'hist.viewHeading', { rev: b.revision, author: { $t: `hist.author.${b.author}` } });
    const [key, params] = summarize(b.content, cur.content);
    const summary = bindText(h('p', { id: 'history-summary', class: 'history-summary' }), key, params);
    const note = bindText(h('p', { class: 'hint' }), 'hist.viewNote', { rev: cur.revision });
    const changes = h('ul', { class: 'history-changes' }, ...diff(b.content, cur.content).filter(([k]) => k !== 'chg.bar' && k !== 'chg.line').map(([k, p]) => bindText(h('li'), k, p)));
    const grid = h('div', { class: 'history-grid' }, ...markedSections(b.content, cur.content));
    const actions = h('div', { class: 'actions' });
    if (this.page.editable && b.revision !== cur.revision) {
      const restore = bindText(h('button', { type: 'button', id: 'history-restore', class: 'primary' }), 'hist.restore');
      restore.addEventListener('click', () => this.restore(b.revision, this.page.base.revision, false));
      actions.append(restore);
    }
    const back = bindText(h('button', { type: 'button' }), 'hist.back');
    back.addEventListener('click', () => {
      show(this.view, false);
      this.list.querySelector(`[data-rev="${rev}"]`)?.focus();
    });
    actions.append(back);
    this.view.replaceChildren(heading, summary, note, changes, grid, actions);
    show(this.view, true);
    heading.focus();
  }

  // restore makes revision from the board's next revision, over revision ifMatch. A 412 (the board
  // changed meanwhile) goes to the page's conflict flow; nothing is lost.
  async restore(from, ifMatch, fromBanner) {
    let board;
    try {
      board = await request('POST', this.url('/restore'), {
        body: { revision: from },
        headers: { 'If-Match': `"${ifMatch}"`, Authorization: `Bearer ${this.page.cap}` },
      });
    } catch (err) {
      if (err.status === 412 && this.page.base.revision <= ifMatch) {
        this.page.startConflict(); // the page has not seen the newer revision yet: the conflict flow shows it
        return;
      }
      if (err.status === 412) {
        bindText(fromBanner ? this.banner.firstChild : this.status, 'hist.stale');
        return;
      }
      bindText(fromBanner ? this.banner.firstChild : this.status, 'hist.restoreFailed', { message: err.message });
      return;
    }
    this.page.adopt(board);
    if (fromBanner) {
      this.banner.replaceChildren(bindText(h('p', { id: 'pi-banner-text' }), 'pi.undone', { rev: board.revision }));
    } else {
      show(this.view, false);
      bindText(this.status, 'hist.restored', { rev: board.revision, from });
    }
  }
}

// markedBars is what the revision view shows: content's sections, each bar as a line of chart text
// (its form included: repeats, endings, signs, %, meter) and how it differs from cur's bar at that place
// ('changed', 'added' when cur has none there, 'removed' when only cur has one, '' when the same).
export function markedBars(content, cur) {
  const beats = content.beatsPerBar;
  return (content.sections || []).map((sec, i) => {
    const other = cur.sections?.[i]?.bars || [];
    const own = sec.bars || []; // a section of words alone has none as stored
    const n = Math.max(own.length, other.length);
    const bars = [];
    for (let j = 0; j < n; j++) {
      const mine = own[j];
      const theirs = other[j];
      let mark = '';
      if (!mine) mark = 'removed';
      else if (!theirs) mark = 'added';
      else if (barKey(mine) !== barKey(theirs)) mark = 'changed';
      bars.push({ mark, text: barLine(barForm(mine || theirs), mine ? beats : cur.beatsPerBar) });
    }
    return { name: sectionName(sec, i), bars };
  });
}

// markedSections renders content's sections read-only, each bar marked where it differs from cur.
function markedSections(content, cur) {
  const item = (cls) => ({ mark, text }) => {
    const li = h('li', { class: cls, 'data-mark': mark }, h('span', { class: 'chords' }, text));
    if (mark) li.append(bindText(h('span', { class: 'history-mark' }), `hist.mark.${mark}`));
    return li;
  };
  return markedBars(content, cur).map(({ name, bars }, i) => {
    const lines = markedLines(content.sections[i], cur.sections?.[i]); // a section's words (lyrics-content.js)
    const sec = h('div', { class: 'history-section' }, h('h4', {}, name));
    if (bars.length) sec.append(h('ol', { class: 'history-bars' }, ...bars.map(item('history-bar'))));
    if (lines.length) sec.append(h('ol', { class: 'history-bars history-lines' }, ...lines.map(item('history-bar history-line'))));
    return sec;
  });
}

function relativeTime(iso, loc) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso ?? '');
  const secs = Math.round((d.getTime() - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(loc, { numeric: 'auto' });
  /** @type {Array<[Intl.RelativeTimeFormatUnit, number]>} */
  const units = [['day', 86400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit);
  }
  return rtf.format(secs, 'second');
}

function exactTime(iso, loc) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso ?? '');
  return new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'medium' }).format(d);
}
