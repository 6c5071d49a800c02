// @ts-check
// News from Pi while the page is hidden (issue 28): Pi finished a reply, changed the board, proposes
// a change, or waits for an answer in its terminal. The tab's title counts the news ("(2) Autumn
// Leaves · …") until the page is seen again; a musician who turned notifications on (a click asks the
// browser's permission: never on load) also gets a system notification, which brings the tab forward
// when clicked, and, if chosen, a soft sound. A notification says the board's title and the kind of
// news, nothing of the conversation.
//
// Other modules announce news with a `tele:news` event on document ({detail: {kind}}), so the chat
// panel and the board page need not know this module.

import { h, show } from './dom.js';
import { bindAttr, bindText, extend, setTitlePrefix, t } from './i18n.js';
import { read, write } from './storage.js';

export const KINDS = ['replied', 'edited', 'proposed', 'terminal'];
const ON_KEY = 'tele.notify';
const SOUND_KEY = 'tele.notify.sound';

extend({
  en: {
    'notify.turnOn': 'Notify me',
    'notify.on': 'Notifications on',
    'notify.hint': 'When this tab is hidden: a notification when Pi replies, changes or proposes, or needs you in its terminal.',
    'notify.blocked': 'Notifications are blocked for this page in the browser’s settings.',
    'notify.sound': 'Soft sound',
    'notify.kind.replied': 'Pi finished its reply',
    'notify.kind.edited': 'Pi changed the board',
    'notify.kind.proposed': 'Pi proposes a change to review',
    'notify.kind.terminal': 'Pi needs you in its terminal',
  },
  'zh-CN': {
    'notify.turnOn': '通知我',
    'notify.on': '通知已开启',
    'notify.hint': '此标签页隐藏时：Pi 回复完毕、修改或提议修改、或需要你在终端操作时发出通知。',
    'notify.blocked': '浏览器设置已禁止此页面发送通知。',
    'notify.sound': '轻提示音',
    'notify.kind.replied': 'Pi 已回复完毕',
    'notify.kind.edited': 'Pi 修改了和弦谱',
    'notify.kind.proposed': 'Pi 提出了修改，等你审阅',
    'notify.kind.terminal': 'Pi 需要你在终端里操作',
  },
});

// titlePrefix is what the title starts with for n unseen news: "(n) ", or nothing.
export function titlePrefix(n) {
  return n > 0 ? `(${n > 99 ? '99+' : n}) ` : '';
}

// notice is what a notification says for news of kind on board title: the title, and the kind in the
// page's language. Nothing else goes in (the conversation and the chords stay on the page).
export function notice(kind, title) {
  return { title: title || 'Tele', body: t(`notify.kind.${KINDS.includes(kind) ? kind : 'edited'}`), tag: `tele-${kind}` };
}

export class Notifier {
  // boardTitle(): the board's title as the page shows it.
  constructor(boardTitle) {
    this.boardTitle = boardTitle;
    this.count = 0;
    this.supported = typeof Notification === 'function';
    this.build();
    document.addEventListener('tele:news', (ev) => this.news(/** @type {CustomEvent} */ (ev).detail?.kind));
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.seen();
    });
  }

  build() {
    this.toggle = h('button', { type: 'button', id: 'notify-toggle', class: 'notify-toggle', 'aria-pressed': 'false' });
    this.toggle.addEventListener('click', () => this.switch());
    const box = h('input', { type: 'checkbox', id: 'notify-sound' });
    box.checked = read('local', SOUND_KEY) === 'on';
    box.addEventListener('change', () => {
      write('local', SOUND_KEY, box.checked ? 'on' : 'off');
      if (box.checked) this.audio(); // made in the click: a later sound needs no new gesture
    });
    this.sound = box;
    this.note = h('span', { id: 'notify-status', class: 'hint', role: 'status' });
    this.el = h('span', { id: 'notify', class: 'notify', role: 'group' }, this.toggle,
      h('label', { class: 'check' }, box, bindText(h('span'), 'notify.sound')), this.note);
    bindAttr(this.el, 'aria-label', 'notify.hint');
    bindAttr(this.toggle, 'title', 'notify.hint');
    // Below the chart, beside the export links: the sticky toolbar stays one line high.
    (document.getElementById('export-links') || document.querySelector('.toolbar'))?.after(this.el);
    this.paint();
  }

  on() {
    return this.supported && Notification.permission === 'granted' && read('local', ON_KEY) === 'on';
  }

  paint() {
    show(this.toggle, this.supported);
    const on = this.on();
    this.toggle.setAttribute('aria-pressed', String(on));
    bindText(this.toggle, on ? 'notify.on' : 'notify.turnOn');
    if (this.supported && Notification.permission === 'denied') bindText(this.note, 'notify.blocked');
  }

  // switch turns notifications on (asking the browser's permission, in this click) or off.
  async switch() {
    if (!this.supported) return;
    if (this.on()) {
      write('local', ON_KEY, 'off');
    } else {
      const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
      if (permission === 'granted') write('local', ON_KEY, 'on');
    }
    this.paint();
  }

  // news counts one piece of news of kind when the page is hidden, and tells the system when asked to.
  news(kind) {
    if (document.visibilityState !== 'hidden') return;
    this.count++;
    setTitlePrefix(titlePrefix(this.count));
    if (this.on()) {
      const n = notice(kind, this.boardTitle());
      try {
        const shown = new Notification(n.title, { body: n.body, tag: n.tag, lang: document.documentElement.lang });
        shown.addEventListener('click', () => {
          window.focus();
          shown.close();
        });
      } catch {
        // A browser that refuses to show one (some show them only from a service worker): the title counts.
      }
    }
    if (this.sound.checked) this.chime();
  }

  seen() {
    if (!this.count) return;
    this.count = 0;
    setTitlePrefix('');
  }

  audio() {
    if (!this.ctx && typeof AudioContext === 'function') this.ctx = new AudioContext();
    return this.ctx;
  }

  // chime is a short, quiet sine, falling away: heard in the room, not startling.
  chime() {
    const ctx = this.audio();
    if (!ctx) return;
    const at = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.06, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.45);
  }
}

// announce tells the page's notifier of news of kind.
export function announce(kind) {
  document.dispatchEvent(new CustomEvent('tele:news', { detail: { kind } }));
}
