// @ts-check
// The follow page (/ on the share listener): the chart the leader shares, read-only, its cursor on the
// bar the leader plays. The cursor is placed from the server's clock (band-clock.js): each bar change is
// computed from the transport's start and tempo and timed on this device's clock, so phones agree with
// each other and with the leader, not with when a message came in. Transpose, capo and numbers are
// this device's own (view-controls.js keeps them per board on this device); so are the chord size
// (chord-size.js, stage mode's), language and scheme.
// A stream that ends is reconnected and resynced from its first event; a 401 means sharing ended.

import './band-strings.js';
import { byId, show } from './dom.js';
import { bindText, setTitle } from './i18n.js';
import { request } from './api.js';
import { EventParser, watchPage } from './stream.js';
import { BoardView } from './board-view.js';
import { ViewControls } from './view-controls.js';
import { offsetFrom, positionAt, transportAt } from './band-clock.js';
import { playOrder } from './form.js';
import { boardWithBars } from './lyrics-content.js';
import { SIZES, loadSize, saveSize } from './chord-size.js';

const RETRY_MS = 2000;
// The cursor moves on a timer set for the next bar change, not on the next frame (a frame may come
// 50 ms late on a busy phone, and a bar line must not); a timer that fires early is set again.
const MAX_WAIT_MS = 1000;
// The clock's offset is the fastest round trip's of the last CLOCK_KEEP samples: five at the start
// (while the page loads, when round trips are slow) and one more every CLOCK_EVERY_MS.
const CLOCK_KEEP = 20;
const CLOCK_EVERY_MS = 10000;

export async function bootFollowPage() {
  const page = new FollowPage();
  await page.start();
  return page;
}

class FollowPage {
  constructor() {
    this.state = null; // the last state event
    this.previous = null; // the transport before the state's, which holds until the new one starts
    this.board = null; // the board shown
    this.offset = 0; // server − local clock, ms
    this.samples = []; // the clock's last samples
    this.view = new BoardView(byId('grid'), { editable: false });
    this.controls = null;
    this.pill = byId('band-pill');
  }

  async start() {
    setTitle('band.title');
    this.size = loadSize();
    byId('band-smaller').addEventListener('click', () => this.setSize(this.size - 1));
    byId('band-larger').addEventListener('click', () => this.setSize(this.size + 1));
    this.showSize();
    if (matchMedia('(max-width: 700px)').matches) document.body.classList.add('band-stage');
    this.setPill('connecting');
    // The chart needs no clock: it is drawn while the clock is measured, and the cursor placed again
    // once it is.
    this.measureClock(5).then(() => this.follow());
    setInterval(() => this.measureClock(1), CLOCK_EVERY_MS);
    // Leaving the page ends its stream, as every stream's (watchPage); coming back reconnects (connect).
    watchPage({ wake() {}, drop() {}, leave: () => this.abort?.abort() });
    this.connect();
  }

  // follow places the cursor now and, while the leader plays, again when the bar changes next.
  follow() {
    clearTimeout(this.timer);
    const next = this.placeCursor();
    if (next === undefined) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, next - (Date.now() + this.offset)));
    this.timer = setTimeout(() => this.follow(), wait);
  }

  // measureClock takes n round trips to /api/band/time; the offset is the fastest kept one's.
  async measureClock(n) {
    const samples = this.samples;
    for (let i = 0; i < n; i++) {
      const sent = Date.now();
      try {
        const { serverTime } = await request('GET', '/api/band/time');
        samples.push({ sent, serverTime, received: Date.now() });
      } catch {
        break;
      }
    }
    samples.splice(0, Math.max(0, samples.length - CLOCK_KEEP));
    this.offset = offsetFrom(samples);
  }

  // connect follows until the leader ends the share (the stream's last event, `ended`, or a 401 for a
  // device that slept through it); any other end is a lost connection, retried with the clock measured
  // again.
  async connect() {
    for (;;) {
      const status = await this.read();
      if (this.ended || status === 401) {
        this.setPill('ended');
        return;
      }
      this.setPill('offline');
      await new Promise((r) => setTimeout(r, RETRY_MS));
      await this.measureClock(5);
    }
  }

  // read runs one stream until it ends and returns its HTTP status (0 when unreachable).
  async read() {
    try {
      this.abort = new AbortController();
      const res = await fetch('/api/band/events', { headers: { Accept: 'text/event-stream' }, cache: 'no-store', signal: this.abort.signal });
      if (!res.ok || !res.body) return res.status;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new EventParser((name, text) => {
        let data;
        try {
          data = JSON.parse(text);
        } catch {
          return;
        }
        if (name === 'state') this.onState(data);
        else if (name === 'board') this.onBoard(data);
        else if (name === 'ended') this.ended = true;
      });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 200;
        parser.push(value);
      }
    } catch {
      return 0;
    }
  }

  setSize(i) {
    this.size = saveSize(i);
    this.showSize();
  }

  showSize() {
    document.documentElement.dataset.bandSize = String(this.size);
    bindText(byId('band-size-out'), 'stage.size', { n: SIZES[this.size] });
    byId('band-smaller').disabled = this.size === 0;
    byId('band-larger').disabled = this.size === SIZES.length - 1;
  }

  setPill(state, n) {
    this.pill.dataset.state = state;
    const key = { live: 'band.live', away: 'band.away', offline: 'band.offline', ended: 'band.ended' }[state] || 'band.connecting';
    bindText(this.pill, key, { n: n ?? 0 });
  }

  async onState(state) {
    const previous = this.state;
    if (JSON.stringify(previous?.transport) !== JSON.stringify(state.transport)) {
      this.previous = transportAt(this.previous, previous?.transport, Date.now() + this.offset);
    }
    this.state = state;
    this.setPill(state.leading === false ? 'away' : 'live', state.followers);
    this.follow();
    if (!state.board) {
      bindText(byId('band-title'), 'band.waiting');
      return;
    }
    if (previous?.board !== state.board || !this.board) {
      try {
        this.onBoard(await request('GET', `/api/band/boards/${encodeURIComponent(state.board)}`));
      } catch {
        // The stream's next state, or a reconnect, tries again.
      }
    }
  }

  onBoard(arrived) {
    const board = boardWithBars(arrived);
    if (!board?.content || board.id !== this.state?.board) return;
    if (this.board && this.board.id === board.id && board.revision < this.board.revision) return;
    const first = !this.board || this.board.id !== board.id;
    this.board = board;
    this.order = playOrder(board.content);
    if (first) this.controls = new ViewControls(board.id, { editable: false, onChange: () => this.render(false), onApply: () => {} });
    this.render(first);
  }

  render(first) {
    const c = this.board.content;
    setTitle('title.board', { title: c.title });
    byId('band-title').textContent = c.title;
    delete byId('band-title').dataset.i18n;
    delete byId('band-title').dataset.i18nArgs;
    const shown = this.controls.compute(c).shown;
    if (first) {
      this.view.stop();
      byId('grid').replaceChildren();
      this.view = new BoardView(byId('grid'), { editable: false });
      // Once every bar of the first board is in the document: the mark the join benchmark times by.
      const built = this.view.build(shown, () => {});
      if (!this.marked) built.then(() => performance.mark('tele:bars-rendered'));
      this.marked = true;
    } else this.view.render(shown);
    show(byId('band-view'), true);
    this.follow();
  }

  // placeCursor marks the bar being played now and returns the server time of the next change, or
  // undefined when nothing moves until the leader sends something.
  placeCursor() {
    if (!this.board) return undefined;
    const now = Date.now() + this.offset;
    const next = this.state?.transport;
    const transport = transportAt(this.previous, next, now);
    const pos = positionAt(this.board.content, transport, now, this.order);
    const key = pos && pos.section !== undefined ? `${pos.section}:${pos.bar}` : '';
    if (key !== this.cursorKey) {
      this.cursorKey = key;
      this.view.setCursor(pos);
    }
    const until = transport !== next && next?.playing ? Math.min(pos?.until ?? Infinity, next.startedAt) : pos?.until;
    return Number.isFinite(until) ? until : undefined;
  }
}
