// The follow page (/ on the share listener): the chart the leader shares, read-only, its cursor on the
// bar the leader plays. The cursor is placed from the server's clock (band-clock.js), every frame, so
// phones agree with each other and not with when a message came in. Transpose, capo and numbers are
// this device's own (view-controls.js keeps them per board on this device); so are language and scheme.
// A stream that ends is reconnected and resynced from its first event; a 401 means sharing ended.

import './band-strings.js';
import { byId, show } from './dom.js';
import { bindText, setTitle } from './i18n.js';
import { request } from './api.js';
import { EventParser } from './stream.js';
import { BoardView } from './board-view.js';
import { ViewControls } from './view-controls.js';
import { offsetFrom, positionAt } from './band-clock.js';
import { playOrder } from './form.js';
import { boardWithBars } from './lyrics-content.js';

const RETRY_MS = 2000;
// TICK_MS is how often the cursor is placed while the leader plays: a timer, not the next frame, since
// a frame may come 50 ms late on a busy phone and a bar line must not.
const TICK_MS = 4;

export async function bootFollowPage() {
  const page = new FollowPage();
  await page.start();
  return page;
}

class FollowPage {
  constructor() {
    this.state = null; // the last state event
    this.board = null; // the board shown
    this.offset = 0; // server − local clock, ms
    this.view = new BoardView(byId('grid'), { editable: false });
    this.controls = null;
    this.pill = byId('band-pill');
  }

  async start() {
    setTitle('band.title');
    if (matchMedia('(max-width: 700px)').matches) document.body.classList.add('band-stage');
    this.setPill('connecting');
    await this.measureClock();
    this.connect();
  }

  // follow places the cursor now and, while the leader plays, again every TICK_MS.
  follow() {
    clearTimeout(this.timer);
    this.placeCursor();
    if (this.state?.transport?.playing) this.timer = setTimeout(() => this.follow(), TICK_MS);
  }

  // measureClock takes five round trips to /api/band/time and keeps the fastest one's offset.
  async measureClock() {
    const samples = [];
    for (let i = 0; i < 5; i++) {
      const sent = Date.now();
      try {
        const { serverTime } = await request('GET', '/api/band/time');
        samples.push({ sent, serverTime, received: Date.now() });
      } catch {
        break;
      }
    }
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
      await this.measureClock();
    }
  }

  // read runs one stream until it ends and returns its HTTP status (0 when unreachable).
  async read() {
    try {
      const res = await fetch('/api/band/events', { headers: { Accept: 'text/event-stream' }, cache: 'no-store' });
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

  setPill(state, n) {
    this.pill.dataset.state = state;
    const key = { live: 'band.live', offline: 'band.offline', ended: 'band.ended' }[state] || 'band.connecting';
    bindText(this.pill, key, { n: n ?? 0 });
  }

  async onState(state) {
    const previous = this.state;
    this.state = state;
    this.setPill('live', state.followers);
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
      this.view.build(shown, () => {});
    } else this.view.render(shown);
    show(byId('band-view'), true);
    this.follow();
  }

  placeCursor() {
    if (!this.board) return;
    const pos = positionAt(this.board.content, this.state?.transport, Date.now() + this.offset, this.order);
    const key = pos && pos.section !== undefined ? `${pos.section}:${pos.bar}` : '';
    if (key === this.cursorKey) return;
    this.cursorKey = key;
    this.view.setCursor(pos);
  }
}
