// @ts-check
// The chat panel of the board page (docs/pairing.md, docs/api.md, docs/projection.md): pairing from the invitation in the URL
// fragment, the privacy-filtered conversation of the paired Pi session, send and stop, dock and collapse.
//
// Pairing. The invitation URL is /b/<board>#binding=<id>&invite=<secret>: one-time secrets only. app.js
// reads the fragment and erases it from the address bar before anything else runs; this module takes the
// binding and the one-time invitation from those parameters, posts them to /api/chat/pair, hands the
// board's capability from the answer to the board page (onCapability), and keeps only the binding id in
// localStorage (tele.chat.binding:<board>): the cookie that proves the pairing is HttpOnly and never
// visible here. A later page without an invitation reuses the stored binding while
// its cookie lives, and otherwise says how to pair again (/tele <board> in Pi).
//
// DOM discipline. The panel's markup is static (board.html); this module only changes text, attributes
// and the rows of the conversation, which it reconciles by item id (existing rows get their text
// updated, new rows are inserted, cut rows removed). The message box is never recreated, disabled,
// moved or written to except to clear it after Pi accepted a message, so its node, focus, selection
// and draft survive snapshots, streaming, board updates, dock changes, collapse and language switches.
// Reading older messages never jumps to the bottom: the log follows new messages only while the reader
// is at the bottom, and otherwise shows a "new messages" button.
//
// Sending. Each command gets a fresh random id. Nothing is ever resent automatically: when the answer
// is lost or uncertain the draft stays and the panel says to check the history and the Pi terminal.

import { boardIdFromPath } from './board-path.js';
import { byId, h, show } from './dom.js';
import { bindText, extend } from './i18n.js';
import { read, remove, write } from './storage.js';
import * as api from './chat-api.js';
import { ROLES, ViewModel, isView } from './chat-diff.js';
import { ChatStream } from './chat-stream.js';
import { STRINGS } from './chat-strings.js';
import { bindingKey } from './has-chat.js';
import { announce } from './notify.js';
import { ModeSwitch } from './chat-mode.js';
import { MessageChip, foldSelection, paintChip } from './bar-selection.js';

const DOCKS = ['right', 'left', 'bottom'];
const DOCK_KEY = 'tele.chat.dock';
const COLLAPSED_KEY = 'tele.chat.collapsed';
const MAX_TEXT_UNITS = 8000;
const STICK_SLACK = 24; // px from the end of the log that still count as "at the bottom"
const TOOL_STATUSES = ['calling', 'completed', 'failed'];
const ITEM_NOTICES = ['context-compacted', 'model-failed', 'reply-aborted'];
const VIEW_NOTICES = ['input-submitted', 'input-unobserved', 'submission-uncertain', 'stop-requested', 'input-observed', 'settled-unobserved', 'run-ended'];
const STATUSES = ['idle', 'submitting', 'running', 'stopping', 'terminal-prompt'];

// bootChatPanel starts the panel of the board page. It never throws: a chat that cannot start leaves
// the board page as it is.
// serverHasChat answers whether the server carries a chat (has-chat.js asked it already, or asks now).
export async function bootChatPanel({ fragment, onCapability = () => {}, serverHasChat }) {
  // The invitation is a one-time secret: take it out of the shared parameters at once.
  const binding = fragment.get('binding');
  const invitation = fragment.get('invite');
  fragment.delete('invite');
  fragment.delete('binding');
  const aside = byId('chat');
  const board = boardIdFromPath(location.pathname);
  if (!aside || !board) return null;
  extend(STRINGS);
  const panel = new ChatPanel(aside, board, onCapability, serverHasChat);
  try {
    await panel.start(binding, invitation);
  } catch {
    panel.showUnpaired('network');
  }
  return panel;
}

class ChatPanel {
  constructor(aside, board, onCapability, serverHasChat) {
    this.aside = aside;
    this.serverHasChat = serverHasChat;
    this.board = board;
    this.onCapability = onCapability;
    this.layout = byId('layout');
    this.body = byId('chat-body');
    this.log = byId('chat-log');
    this.list = byId('chat-items');
    this.form = byId('chat-form');
    this.input = byId('chat-input');
    this.sendBtn = byId('chat-send');
    this.stopBtn = byId('chat-stop');
    this.newBtn = byId('chat-new');
    this.collapseBtn = byId('chat-collapse');
    this.rows = new Map(); // item id → <li>
    this.binding = null;
    this.stream = null;
    this.view = null;
    this.model = new ViewModel(); // the view rebuilt from the stream's change messages
    this.conn = 'off'; // off | pairing | connecting | live | offline
    this.offlineSeconds = 0;
    this.sending = false;
    this.stopping = false;
    this.error = null; // [key, params] of the last command's failure
    this.stick = true; // the reader is at the end of the log
    this.ownScroll = -1; // scrollTop after the panel's own last scroll to the end
    this.savedScroll = 0;
    this.unread = false;
    this.rendered = false;
    this.checking = false;
    const dock = read('local', DOCK_KEY);
    this.dock = DOCKS.includes(dock) ? dock : 'right';
    this.collapsed = read('local', COLLAPSED_KEY) === 'true';

    byId('chat-pair-cmd').textContent = `/tele ${board}`; // a command: never translated
    this.mode = new ModeSwitch(this);
    this.chip = new MessageChip(this.input); // "Ask Pi about these bars"
    this.wire();
    this.applyDock();
    this.applyCollapsed();
    this.render();
  }

  wire() {
    for (const btn of this.aside.querySelectorAll('.chat-dock-btn')) {
      // A mouse click on a dock button leaves the focus (and the caret) where it was, in the message box.
      btn.addEventListener('mousedown', (ev) => ev.preventDefault());
      btn.addEventListener('click', () => this.setDock(btn.dataset.dock));
    }
    this.collapseBtn.addEventListener('click', () => this.setCollapsed(!this.collapsed));
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.send();
    });
    this.input.addEventListener('keydown', (ev) => {
      // Enter sends, Shift+Enter is a new line; never while an input method is composing (Chinese input).
      if (ev.key !== 'Enter' || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.isComposing || ev.keyCode === 229) return;
      ev.preventDefault();
      this.send();
    });
    // Some synthetic key sources (automation, a few input tools) deliver the Enter character separately
    // from its keydown: the newline of a plain Enter is never typed, whatever came first.
    this.input.addEventListener('keypress', (ev) => {
      if (ev.key === 'Enter' && !ev.shiftKey && !ev.altKey && !ev.ctrlKey && !ev.metaKey && !ev.isComposing) ev.preventDefault();
    });
    this.input.addEventListener('input', () => this.updateControls());
    this.stopBtn.addEventListener('click', () => this.stop());
    this.newBtn.addEventListener('click', () => {
      this.scrollToEnd();
      show(this.newBtn, false);
    });
    this.log.addEventListener('scroll', () => {
      // Scroll events arrive a frame late: one that reports our own scroll to the end (the log may have
      // shrunk since) says nothing about the reader.
      if (this.log.clientHeight === 0 || this.log.scrollTop === this.ownScroll) return;
      this.stick = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight <= STICK_SLACK;
      if (this.stick) show(this.newBtn, false);
    }, { passive: true });
    if (typeof ResizeObserver === 'function') {
      // A dock change or a resized window changes the log's height: keep a reader at the end there.
      new ResizeObserver(() => {
        if (this.stick && this.log.clientHeight > 0) this.scrollToEnd();
      }).observe(this.log);
    }
  }

  // ---- pairing and the stream ----

  async start(binding, invitation) {
    const stored = read('local', bindingKey(this.board));
    let reason = null;
    if (binding && invitation) {
      this.setConn('pairing');
      try {
        const res = await api.pair(binding, invitation);
        if (typeof res?.capability === 'string') this.onCapability(res.capability);
        this.connect(typeof res?.binding === 'string' ? res.binding : binding);
        return;
      } catch (err) {
        reason = { 429: 'rateLimited', 0: 'network' }[err.status] || (err.code === 'board_deleted' ? 'boardDeleted' : 'invalid');
      }
    }
    if (stored) {
      const resumed = await this.resume(stored);
      if (resumed === true) return;
      reason ||= resumed;
    }
    if (reason) {
      this.showUnpaired(reason);
      return;
    }
    if (await this.serverHasChat()) this.showUnpaired(null);
    else this.hide();
  }

  // resume checks a stored binding: true when it still works (or the server cannot be reached right
  // now: the stream keeps trying), else the reason to show.
  async resume(binding) {
    try {
      const view = await api.status(binding);
      this.connect(binding);
      this.apply(view);
      return true;
    } catch (err) {
      if (err.status === 0) {
        this.connect(binding);
        return true;
      }
      remove('local', bindingKey(this.board));
      if (err.status === 410) return 'revoked';
      if (err.status === 404) return 'noPi';
      return 'expired';
    }
  }

  connect(binding) {
    this.binding = binding;
    write('local', bindingKey(this.board), binding);
    this.aside.dataset.paired = 'true';
    this.showPanel();
    this.stream?.close();
    // The stream is read in a worker: the page gets what changed between snapshots (chat-stream.js).
    this.stream = new ChatStream(api.eventsURL(binding), (msg) => this.applyChange(msg), (state, info) => {
      this.offlineSeconds = info?.seconds || 0;
      this.setConn(state);
      if (state === 'offline') this.checkBinding();
    });
  }

  // checkBinding: after a dropped stream, is the pairing still good? A revoked or expired one ends the
  // stream (it would never come back); an unreachable server keeps the backoff going.
  async checkBinding() {
    if (this.checking || !this.binding) return;
    this.checking = true;
    const binding = this.binding;
    try {
      await api.status(binding);
    } catch (err) {
      if (this.binding === binding && [401, 404, 410].includes(err.status)) {
        this.lost(err.status === 410 ? 'revoked' : err.status === 404 ? 'noPi' : 'expired');
      }
    } finally {
      this.checking = false;
    }
  }

  // lost ends a pairing that no longer works; the conversation shown so far stays readable.
  lost(reason) {
    this.stream?.close();
    this.stream = null;
    this.binding = null;
    remove('local', bindingKey(this.board));
    this.showUnpaired(reason);
  }

  showPanel() {
    show(this.aside, true);
    this.layout.dataset.chat = 'shown';
  }

  hide() {
    this.conn = 'off';
    show(this.aside, false);
    delete this.layout.dataset.chat;
  }

  showUnpaired(reason) {
    this.setConn('off');
    this.aside.dataset.paired = 'false';
    const why = byId('chat-pair-reason');
    if (reason) setText(why, `chat.pair.${reason}`);
    show(why, Boolean(reason));
    this.showPanel();
    this.render();
  }

  setConn(state) {
    this.conn = state;
    this.render();
  }

  // ---- the view ----

  // apply shows a whole view (the status route's); changed, when given, holds the ids of the only
  // items that may differ from what the rows show.
  apply(view, changed = null) {
    if (!isView(view)) return;
    const before = this.view;
    this.view = view;
    if (before && before.idleVersion !== view.idleVersion && this.error && this.error[0] !== 'chat.err.uncertain') {
      this.error = null;
    }
    this.renderItems(view.items, changed);
    this.render();
    // News for a hidden page: a reply ended, or Pi's terminal asks something.
    if (before && before.status !== view.status) {
      if (view.status === 'terminal-prompt') announce('terminal');
      else if (view.status === 'idle' && ['running', 'stopping'].includes(before.status)) announce('replied');
    }
  }

  // applyChange shows a change message of the stream (chat-diff.js).
  applyChange(msg) {
    const { view, changed } = this.model.apply(msg);
    this.apply(view, changed);
  }

  renderItems(items, changed) {
    const prevLast = this.list.lastElementChild;
    const prevLastLen = prevLast ? prevLast.textContent.length : 0;
    const prevCount = this.rows.size;
    const seen = new Set();
    let cursor = this.list.firstElementChild;
    for (const it of items) {
      if (!it || typeof it.id !== 'string' || !ROLES.includes(it.role) || seen.has(it.id)) continue;
      seen.add(it.id);
      let row = this.rows.get(it.id);
      if (row && row.dataset.role !== it.role) {
        row.remove();
        row = null;
      }
      if (!row) {
        row = createRow(it.role);
        this.rows.set(it.id, row);
        updateRow(row, it);
      } else if (!changed || changed.has(it.id)) updateRow(row, it);
      if (row === cursor) cursor = cursor.nextElementSibling;
      else this.list.insertBefore(row, cursor);
    }
    for (const [id, row] of this.rows) {
      if (!seen.has(id)) {
        row.remove();
        this.rows.delete(id);
      }
    }
    const last = this.list.lastElementChild;
    const grew = last !== prevLast || (last && last.textContent.length > prevLastLen) || this.rows.size > prevCount;
    if (!this.rendered) {
      this.rendered = true;
      this.stick = true;
      this.scrollToEnd();
      return;
    }
    if (!grew) return;
    if (this.collapsed) {
      this.unread = true;
      this.renderCollapse();
    }
    if (this.stick) this.scrollToEnd();
    else show(this.newBtn, true);
  }

  scrollToEnd() {
    this.log.scrollTop = this.log.scrollHeight;
    this.ownScroll = this.log.scrollTop;
  }

  // render brings every piece of state text and every control in line with the state. It touches the
  // message box only to read it.
  render() {
    const a = this.aside;
    const v = this.view;
    const paired = a.dataset.paired === 'true';
    setData(a, 'conn', this.conn);
    setData(a, 'status', v && STATUSES.includes(v.status) ? v.status : '');
    // While a reply streams in, the log is busy: screen readers read the reply once it is complete
    // instead of every fragment.
    const busy = String(this.conn === 'live' && Boolean(v) && ['running', 'stopping'].includes(v.status));
    if (this.log.getAttribute('aria-busy') !== busy) this.log.setAttribute('aria-busy', busy);

    const connText = byId('chat-conn-text');
    if (this.conn === 'offline') setText(connText, 'chat.conn.offline', { s: this.offlineSeconds });
    else setText(connText, `chat.conn.${this.conn}`);

    show(byId('chat-pair'), !paired && this.conn === 'off');
    show(this.form, paired);
    const hasLog = paired || this.rows.size > 0;
    show(byId('chat-logwrap'), hasLog);
    setData(a, 'log', String(hasLog));
    show(byId('chat-trunc'), Boolean(v?.truncated));
    show(byId('chat-empty'), paired && Boolean(v) && this.rows.size === 0 && !v.truncated);

    const run = byId('chat-run');
    const code = paired && v && VIEW_NOTICES.includes(v.notice) ? v.notice : null;
    const live = this.conn === 'live' || this.conn === 'connecting';
    if (paired && this.conn === 'offline') setText(run, 'chat.offline', { cmd: `/tele ${this.board}` });
    // "ready" says nothing a notice does not already say better ("Pi has finished.").
    else if (paired && v && STATUSES.includes(v.status) && live && !(v.status === 'idle' && code)) setText(run, `chat.run.${v.status}`);
    else {
      run.textContent = '';
      delete run.dataset.i18n;
      delete run.dataset.i18nArgs;
    }
    show(run, Boolean(run.textContent));

    const notice = byId('chat-state-notice');
    if (code) setText(notice, `chat.notice.${code}`);
    show(notice, Boolean(code));
    setData(a, 'notice', code || '');

    const error = byId('chat-error');
    if (this.error && paired) setText(error, ...this.error);
    show(error, Boolean(this.error && paired));

    this.updateControls();
    this.mode.render();
    // The status lines above the message box come and go: a reader at the end stays there.
    if (this.stick && this.log.clientHeight > 0) this.scrollToEnd();
  }

  canSend() {
    const v = this.view;
    return this.conn === 'live' && Boolean(this.binding) && Boolean(v) && v.status === 'idle' && !this.sending;
  }

  updateControls() {
    const v = this.view;
    const ready = this.canSend();
    setDisabled(this.sendBtn, !ready || this.input.value.trim() === '');
    setDisabled(this.stopBtn, !(this.conn === 'live' && v && v.runId && v.status !== 'stopping' && !this.stopping));
    setData(this.aside, 'canSend', String(ready));
  }

  // ---- commands ----

  async send() {
    const text = this.input.value;
    if (!this.canSend() || text.trim() === '') return;
    const first = text.trimStart()[0];
    if (first === '/' || first === '!') {
      this.fail(['chat.err.command']);
      return;
    }
    if (text.length > MAX_TEXT_UNITS) {
      this.fail(['chat.err.tooLong']);
      return;
    }
    const v = this.view;
    const binding = this.binding;
    const selection = this.chip.selection;
    this.sending = true;
    this.error = null;
    this.render();
    try {
      const body = { type: 'send', id: api.newCommandId(), epoch: v.epoch, idleVersion: v.idleVersion, text };
      if (selection) body.selection = selection;
      await api.command(binding, body);
      // Accepted: the draft has gone to Pi. Anything typed meanwhile stays.
      if (this.input.value === text) this.input.value = '';
      if (this.chip.selection === selection) this.chip.set(null);
    } catch (err) {
      this.commandFailed('send', err);
    } finally {
      this.sending = false;
      this.render();
    }
  }

  async stop() {
    const v = this.view;
    if (this.stopBtn.disabled || !v?.runId) return;
    const binding = this.binding;
    this.stopping = true;
    this.error = null;
    this.render();
    try {
      await api.command(binding, { type: 'abort', id: api.newCommandId(), epoch: v.epoch, runId: v.runId });
    } catch (err) {
      this.commandFailed('abort', err);
    } finally {
      this.stopping = false;
      this.render();
    }
  }

  fail(entry) {
    this.error = entry;
    this.render();
  }

  commandFailed(kind, err) {
    const cmd = `/tele ${this.board}`;
    const code = err.code;
    if (err.status === 401) return this.lost('expired');
    if (err.status === 410 || code === 'revoked') return this.lost('revoked');
    if (err.status === 0 || err.status >= 500) {
      if (kind === 'abort') return this.fail([code === 'abort_failed' ? 'chat.err.abortFailed' : 'chat.err.abortUncertain']);
      return this.fail(['chat.err.uncertain']);
    }
    const byCode = {
      busy: ['chat.err.busy'],
      stale_idle_version: ['chat.err.stale'],
      terminal_prompt: ['chat.err.terminal'],
      stale_epoch: ['chat.err.staleEpoch', { cmd }],
      stale_run: ['chat.err.staleRun'],
      command_limit: ['chat.err.commandLimit', { cmd }],
      rate_limited: ['chat.err.rateLimited'],
      bad_text: ['chat.err.command'],
    };
    return this.fail(byCode[code] || ['chat.err.failed', { code: code || `HTTP ${err.status}` }]);
  }

  // ---- dock and collapse ----

  setDock(dock) {
    if (!DOCKS.includes(dock)) return;
    this.dock = dock;
    write('local', DOCK_KEY, dock);
    this.applyDock();
  }

  applyDock() {
    this.aside.dataset.dock = this.dock;
    this.layout.dataset.chatDock = this.dock;
    for (const btn of this.aside.querySelectorAll('.chat-dock-btn')) {
      btn.setAttribute('aria-pressed', String(btn.dataset.dock === this.dock));
    }
    if (this.stick) this.scrollToEnd();
  }

  setCollapsed(collapsed) {
    if (collapsed === this.collapsed) return;
    if (collapsed && this.log.clientHeight > 0) this.savedScroll = this.log.scrollTop;
    this.collapsed = collapsed;
    write('local', COLLAPSED_KEY, String(collapsed));
    if (!collapsed) this.unread = false;
    this.applyCollapsed();
    if (!collapsed) {
      if (this.stick) this.scrollToEnd();
      else this.log.scrollTop = this.savedScroll;
    }
  }

  applyCollapsed() {
    this.aside.dataset.collapsed = String(this.collapsed);
    this.layout.dataset.chatCollapsed = String(this.collapsed);
    show(this.body, !this.collapsed);
    this.collapseBtn.setAttribute('aria-expanded', String(!this.collapsed));
    this.renderCollapse();
  }

  renderCollapse() {
    const key = !this.collapsed ? 'chat.collapse' : this.unread ? 'chat.expandNew' : 'chat.expand';
    setText(byId('chat-collapse-label'), key);
    this.aside.dataset.unread = String(this.collapsed && this.unread);
  }
}

// setData and setDisabled write only what differs: render runs on every snapshot of a streaming reply,
// and writing an attribute, even the same value, makes the browser check the styles that depend on it
// in the next frame.
function setData(el, name, value) {
  if (el.dataset[name] !== value) el.dataset[name] = value;
}

function setDisabled(el, disabled) {
  if (el.disabled !== disabled) el.disabled = disabled;
}

// setText binds el to a translation only when the key or its parameters change: rewriting the same
// words into a live region would have screen readers announce them again on every snapshot.
function setText(el, key, params) {
  const args = params ? JSON.stringify(params) : undefined;
  if (el.dataset.i18n === key && el.dataset.i18nArgs === args) return el;
  return bindText(el, key, params);
}

// ---- rows ----

function createRow(role) {
  const li = h('li', { class: `chat-item chat-${role}`, dataset: { role } });
  if (role === 'user' || role === 'assistant') {
    const text = h('p', { class: 'chat-text' });
    text.append(document.createTextNode(''));
    li.append(bindText(h('span', { class: 'chat-who' }), `chat.who.${role}`), text);
  } else if (role === 'tool') {
    li.append(
      h('span', { class: 'chat-tool-icon', 'aria-hidden': 'true' }),
      bindText(h('span', { class: 'chat-who' }), 'chat.who.tool'),
      h('code', { class: 'chat-tool-name' }),
      h('span', { class: 'chat-tool-status' }),
    );
  } else {
    li.append(h('span', { class: 'chat-notice-icon', 'aria-hidden': 'true' }), h('p', { class: 'chat-notice-text' }));
  }
  return li;
}

// updateRow changes only what differs. Text grows in place while a reply streams (appendData), so a
// reader's selection in earlier text is kept.
function updateRow(li, it) {
  if (it.role === 'user' || it.role === 'assistant') {
    const node = li.querySelector('.chat-text').firstChild;
    // A message sent with bars asked about shows them as their chip, not written out (bar-selection.js).
    const folded = it.role === 'user' ? foldSelection(it.text) : null;
    paintChip(li, folded?.chip, node.parentNode);
    const text = folded ? folded.text : typeof it.text === 'string' ? it.text : '';
    const old = node.data;
    if (old !== text) {
      if (old && text.startsWith(old)) node.appendData(text.slice(old.length));
      else node.data = text;
    }
    show(li, text !== '');
    return;
  }
  if (it.role === 'tool') {
    const name = li.querySelector('.chat-tool-name');
    const n = typeof it.name === 'string' ? it.name : '';
    if (name.textContent !== n) name.textContent = n;
    const status = TOOL_STATUSES.includes(it.status) ? it.status : 'calling';
    setData(li, 'status', status);
    const el = li.querySelector('.chat-tool-status');
    setText(el, `chat.tool.${status}`);
    return;
  }
  const code = typeof it.code === 'string' ? it.code : '';
  setData(li, 'code', code);
  const el = li.querySelector('.chat-notice-text');
  if (ITEM_NOTICES.includes(code)) {
    setText(el, `chat.item.${code}`);
  } else {
    setText(el, 'chat.item.unknown', { code });
  }
}
