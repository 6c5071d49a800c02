// @ts-check
// "Ask Pi about these bars" (issue 28, item 5). On the board page, shift-click on a bar, or Shift+← →
// from a focused bar, selects bars of one section; a note at the bottom of the window names them and,
// on a page paired with Pi, offers to ask about them: the chat's message box then shows a removable
// chip ("Verse, bars 5–8"), and the send carries the bars as the grid shows them (transposed, capo
// shapes or numbers, as the musician reads them) in a `selection` the host checks and writes out for
// the model (chat/selection.go). In the conversation the written-out bars come back folded into the
// same chip (foldSelection).

import { byId, h, show } from './dom.js';
import { bindAttr, bindText, extend } from './i18n.js';
import { sectionName } from './content.js';
import { barForm } from './form.js';
import { barLine } from './form-view.js';

extend({
  en: {
    'sel.chip': (p) => (p.from === p.to ? `${p.section}, bar ${p.from}` : `${p.section}, bars ${p.from}–${p.to}`),
    'sel.selected': '{what} selected',
    'sel.ask': 'Ask Pi about these bars',
    'sel.clear': 'Clear the selection',
    'sel.remove': 'Remove {what} from the message',
    'sel.hint': 'Shift-click or Shift+← → selects bars',
  },
  'zh-CN': {
    'sel.chip': (p) => (p.from === p.to ? `${p.section}，第 ${p.from} 小节` : `${p.section}，第 ${p.from}–${p.to} 小节`),
    'sel.selected': '已选中：{what}',
    'sel.ask': '就这些小节问 Pi',
    'sel.clear': '取消选择',
    'sel.remove': '从消息中移除“{what}”',
    'sel.hint': 'Shift+点击或 Shift+← → 选择小节',
  },
});

const HEADER = '[Tele selection: section ';

// viewWords says, for the model, how the grid's chords differ from the board's: '' when they do not.
export function viewWords(content, v, state) {
  const words = [];
  if (v.semitones) words.push(`transposed ${v.semitones > 0 ? '+' : ''}${v.semitones} semitones${content.key ? ` (sounding key ${v.soundingKey})` : ''}`);
  if (state.capo) words.push(`capo ${state.capo}: chord shapes${v.shapesKey ? ` in ${v.shapesKey}` : ''}`);
  if (v.instrument) words.push(`written for a ${v.instrument} instrument${v.shapesKey ? ` (in ${v.shapesKey})` : ''}`);
  if (state.numbers && !v.needsKey) words.push('Nashville numbers');
  return words.join('; ');
}

// selectionOf is the send's selection for bars b0..b1 of section s: the section's name, the first
// bar's number across the board (as the grid numbers it), and each bar as one line of chart text, as
// shown (the view's content).
export function selectionOf(content, shown, s, b0, b1, view = '') {
  const [lo, hi] = b0 <= b1 ? [b0, b1] : [b1, b0];
  let from = lo + 1;
  for (let i = 0; i < s; i++) from += content.sections[i].bars.length;
  const bars = shown.sections[s].bars.slice(lo, hi + 1).map((bar) => barLine(barForm(bar), shown.beatsPerBar));
  const sel = { section: sectionName(content.sections[s], s), from, bars };
  if (view) sel.view = view;
  return sel;
}

// chipOf is a selection's chip: {section, from, to}.
export function chipOf(sel) {
  return { section: sel.section, from: sel.from, to: sel.from + sel.bars.length - 1 };
}

// foldSelection finds the bars a send wrote out after its text (chat/selection.go's block) and returns
// {text, chip}; null when the text has none.
export function foldSelection(text) {
  const at = typeof text === 'string' ? text.lastIndexOf(`\n\n${HEADER}`) : -1;
  if (at < 0) return null;
  const m = /^\[Tele selection: section ("(?:[^"\\]|\\.)*"), bars (\d+)-(\d+)(?:; view: [^\n]*)?\]((?:\n\d+: [^\n]*)+)$/.exec(text.slice(at + 2));
  if (!m) return null;
  let section;
  try {
    section = JSON.parse(m[1]);
  } catch {
    return null;
  }
  return { text: text.slice(0, at), chip: { section, from: Number(m[2]), to: Number(m[3]) } };
}

// paintChip shows chip on el's chip element (made on first use, before the child before), or hides it.
export function paintChip(el, chip, before) {
  let c = el.querySelector(':scope > .sel-chip');
  if (!chip) {
    if (c) show(c, false);
    return;
  }
  if (!c) {
    c = h('span', { class: 'sel-chip' });
    el.insertBefore(c, before);
  }
  bindText(c, 'sel.chip', chip);
  show(c, true);
}

export class BarSelection {
  // page: the board page (view, draft, viewControls).
  constructor(page) {
    this.page = page;
    this.sel = null; // {s, anchor, end}
    this.build();
    const grid = byId('grid');
    // Capture: a shift-click selects; it must not open the bar's editor.
    grid.addEventListener('click', (ev) => {
      if (!ev.shiftKey) return;
      const at = this.locate(ev.target);
      if (!at) return;
      ev.preventDefault();
      ev.stopPropagation();
      getSelection()?.removeAllRanges();
      this.extendTo(at);
    }, true);
    grid.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.sel) {
        this.clear();
        return;
      }
      if (!ev.shiftKey || ev.ctrlKey || ev.metaKey || ev.altKey || (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight')) return;
      const at = this.locate(ev.target);
      if (!at) return;
      ev.preventDefault();
      ev.stopPropagation();
      if (!this.sel || this.sel.s !== at.s) this.sel = { s: at.s, anchor: at.b, end: at.b };
      const n = this.page.draft.sections[at.s].bars.length;
      const end = Math.max(0, Math.min(n - 1, this.sel.end + (ev.key === 'ArrowRight' ? 1 : -1)));
      this.extendTo({ s: at.s, b: end });
      this.page.view.barButton(at.s, end)?.focus();
    }, true);
  }

  build() {
    this.text = h('p', { id: 'bar-ask-text' });
    this.ask = bindText(h('button', { type: 'button', id: 'bar-ask', class: 'primary' }), 'sel.ask');
    this.ask.addEventListener('click', () => this.askPi());
    const clear = bindAttr(h('button', { type: 'button', class: 'icon-btn toast-close' }, h('span', { 'aria-hidden': 'true' }, '×')), 'aria-label', 'sel.clear');
    clear.addEventListener('click', () => this.clear());
    this.toast = h('div', { id: 'bar-selection', class: 'toast bar-selection', role: 'status', hidden: '' }, this.text, this.ask, clear);
    (document.querySelector('.toasts') || document.body).append(this.toast);
  }

  // locate is the bar an event's target is in: {s, b}.
  locate(target) {
    const m = /^sections\[(\d+)\]\.bars\[(\d+)\]$/.exec(target.closest?.('li.bar')?.dataset.path || '');
    return m ? { s: Number(m[1]), b: Number(m[2]) } : null;
  }

  extendTo(at) {
    if (!this.sel || this.sel.s !== at.s) this.sel = { s: at.s, anchor: at.b, end: at.b };
    else this.sel.end = at.b;
    this.paint();
  }

  current() {
    const { s, anchor, end } = this.sel;
    const c = this.page.draft;
    const v = this.page.viewControls.current;
    if (!c?.sections[s]) return null;
    const n = c.sections[s].bars.length;
    return selectionOf(c, v?.shown ?? c, s, Math.min(anchor, n - 1), Math.min(end, n - 1), v ? viewWords(c, v, this.page.viewControls.state) : '');
  }

  paint() {
    for (const el of document.querySelectorAll('#grid li.bar.is-selected')) el.classList.remove('is-selected');
    if (!this.sel) {
      show(this.toast, false);
      return;
    }
    const { s, anchor, end } = this.sel;
    const bars = this.page.view.sections[s]?.bars || [];
    for (let b = Math.min(anchor, end); b <= Math.max(anchor, end); b++) bars[b]?.li.classList.add('is-selected');
    const sel = this.current();
    if (!sel) return this.clear();
    bindText(this.text, 'sel.selected', { what: { $t: 'sel.chip', params: chipOf(sel) } });
    show(this.ask, byId('chat')?.dataset.paired === 'true');
    show(this.toast, true);
  }

  clear() {
    this.sel = null;
    this.paint();
  }

  // askPi hands the selection to the chat's message box (chat-chip.js listens).
  askPi() {
    const sel = this.current();
    if (!sel) return;
    document.dispatchEvent(new CustomEvent('tele:ask', { detail: { selection: sel } }));
    this.clear();
  }
}

// MessageChip is the selection waiting in the chat's message box: a chip with its name and a remove
// button, before the box. The chat panel sends selection with the next message and clears it once Pi
// has the message.
export class MessageChip {
  constructor(input) {
    this.input = input;
    this.selection = null;
    this.label = h('span', { class: 'sel-chip-label' });
    this.remove = h('button', { type: 'button', class: 'icon-btn sel-chip-remove' }, h('span', { 'aria-hidden': 'true' }, '×'));
    this.remove.addEventListener('click', () => {
      this.set(null);
      this.input.focus();
    });
    this.el = h('div', { id: 'chat-chip', class: 'sel-chip chat-chip', hidden: '' }, this.label, this.remove);
    input.before(this.el);
    document.addEventListener('tele:ask', (ev) => {
      this.set(/** @type {CustomEvent} */ (ev).detail?.selection || null);
      this.input.focus();
    });
  }

  set(selection) {
    this.selection = selection;
    if (selection) {
      const chip = chipOf(selection);
      bindText(this.label, 'sel.chip', chip);
      bindAttr(this.remove, 'aria-label', 'sel.remove', { what: { $t: 'sel.chip', params: chip } });
    }
    show(this.el, Boolean(selection));
  }
}
