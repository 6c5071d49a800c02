// @ts-check
// The review-mode switch of the paired page's chat panel (issue 28, docs/api.md "Chat commands"): off,
// Pi's edits go onto the board (apply, the default); on, each becomes a proposal the musician reviews
// (propose). Switching posts the mode command, epoch-gated like send; the binding's status document
// says the mode, so every page of the binding shows the same one, and this switch follows it.

import { byId, h, show } from './dom.js';
import { bindText, extend } from './i18n.js';
import * as api from './chat-api.js';

extend({
  en: {
    'chat.mode.label': 'Review Pi’s changes before they go on the board',
    'chat.mode.on': 'Pi proposes; you take or leave each change.',
    'chat.mode.off': 'Pi’s changes go onto the board; undo them from the history.',
  },
  'zh-CN': {
    'chat.mode.label': '先审阅 Pi 的修改，再写入和弦谱',
    'chat.mode.on': 'Pi 只提出修改；由你逐一决定采纳与否。',
    'chat.mode.off': 'Pi 的修改直接写入和弦谱；可以在历史中撤销。',
  },
});

export class ModeSwitch {
  // panel: the chat panel (view, binding, conn, aside, commandFailed, render).
  constructor(panel) {
    this.panel = panel;
    this.pending = null; // the mode asked for, until the status says it
    this.box = h('input', { type: 'checkbox', id: 'chat-mode', role: 'switch', 'aria-describedby': 'chat-mode-hint' });
    this.hint = h('span', { id: 'chat-mode-hint', class: 'chat-hint' });
    this.el = h('div', { id: 'chat-mode-row', class: 'chat-mode', hidden: '' },
      h('label', { class: 'check' }, this.box, bindText(h('span'), 'chat.mode.label')), this.hint);
    byId('chat-form').before(this.el);
    this.box.addEventListener('change', () => this.set(this.box.checked ? 'propose' : 'apply'));
  }

  render() {
    const p = this.panel;
    const v = p.view;
    const shown = p.aside.dataset.paired === 'true' && Boolean(v) && typeof v.edits === 'string';
    show(this.el, shown);
    if (!shown) return;
    const edits = this.pending ?? v.edits;
    this.box.checked = edits === 'propose';
    this.box.disabled = p.conn !== 'live' || this.pending !== null;
    bindText(this.hint, edits === 'propose' ? 'chat.mode.on' : 'chat.mode.off');
  }

  async set(edits) {
    const p = this.panel;
    const v = p.view;
    if (!v || !p.binding || this.pending !== null) return;
    this.pending = edits;
    this.render();
    try {
      await api.command(p.binding, { type: 'mode', id: api.newCommandId(), epoch: v.epoch, edits });
    } catch (err) {
      p.commandFailed('mode', err);
    } finally {
      this.pending = null;
      p.render();
    }
  }
}
