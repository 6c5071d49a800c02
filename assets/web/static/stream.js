// @ts-check
// A server-sent event stream that says how it is doing and comes back by itself: after a drop it
// reconnects with exponential backoff (1 s doubling to 30 s, with jitter), and at once when the tab
// becomes visible again or the browser goes back online; it ends when the browser goes offline. Each
// (re)connection starts with a fresh snapshot from the server (docs/api.md), so a reconnect is also a
// resync.
//
// It reads the stream with fetch and parses the text/event-stream format itself, not with EventSource:
// Chromium's EventSource spends about twice the main thread's time on a large event (a 256 KiB chat
// snapshot: docs/performance.md) that a TextDecoderStream and a line split do. Every drop, HTTP error and
// end of the stream is handled the same way: backoff, then a new connection.
//
// onState(state, info): 'connecting' | 'live' | 'offline' ({seconds} until the next attempt).
// A page that is left ends its stream (watchPage: pagehide) and connects again if it comes back.
//
// A Stream runs on the page or in a worker (the chat's, chat-stream-worker.js, which has no document
// and no window): watch is the page watcher that wakes it and drops it (watchPage by default); a worker
// passes null, and the page forwards watchPage's calls to it (chat-stream.js).

const MIN_DELAY = 1000;
const MAX_DELAY = 30000;

export class Stream {
  // headers: what each connection sends besides Accept (the leader's token, share-panel.js).
  constructor(url, events, onState, watch = watchPage, headers = {}) {
    this.url = url;
    this.headers = headers;
    this.events = events; // {name: handler(data)}
    this.onState = onState;
    this.abort = null; // the current connection's AbortController
    this.timer = null;
    this.failures = 0;
    this.closed = false;
    this.unwatch = watch ? watch(this) : () => {};
    this.connect();
  }

  // wake connects at once unless a connection is open: the tab became visible, the browser is online.
  wake() {
    if (!this.abort) this.connect();
  }

  // drop ends the open connection: offline, it may hang without failing. The backoff follows, so the
  // page says it is offline and resyncs (or learns its board was deleted) once the browser is back.
  drop() {
    this.abort?.abort();
  }

  // leave ends the connection with no retry: the page is left (wake connects again if it comes back).
  leave() {
    clearTimeout(this.timer);
    this.timer = null;
    const abort = this.abort;
    this.abort = null; // read's end sees a replaced connection and schedules nothing
    abort?.abort();
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    this.onState('connecting');
    const abort = new AbortController();
    this.abort = abort;
    this.read(abort).then(() => {
      // The server ended the stream, or it failed: unless this connection was replaced or closed, try
      // again later.
      if (this.abort !== abort) return;
      abort.abort();
      this.abort = null;
      this.scheduleReconnect();
    });
  }

  // read runs one connection until it ends; it never throws.
  async read(abort) {
    try {
      const res = await fetch(this.url, {
        headers: { ...this.headers, Accept: 'text/event-stream' },
        cache: 'no-store',
        signal: abort.signal,
      });
      if (!res.ok || !res.body) return;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new EventParser((name, data) => {
        if (this.abort === abort) this.dispatch(name, data);
      });
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.abort !== abort) return;
        parser.push(value);
      }
    } catch {
      // A network error or the abort of this connection: the caller decides what follows.
    }
  }

  dispatch(name, text) {
    const handler = Object.hasOwn(this.events, name) ? this.events[name] : null;
    if (!handler) return;
    this.failures = 0;
    this.onState('live');
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    handler(data);
  }

  scheduleReconnect() {
    const base = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.failures);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.failures++;
    this.onState('offline', { seconds: Math.max(1, Math.round(delay / 1000)) });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.abort?.abort();
    this.abort = null;
    this.unwatch();
  }
}

// watchPage calls target.wake() when the tab becomes visible again, the browser goes back online or
// the page comes back from the back/forward cache, target.drop() when the browser goes offline, and
// target.leave() when the page is left (pagehide). That last is the one rule for every stream of every
// page: Chromium keeps a page left for Back with its fetches open, and each kept stream holds one of
// the six connections the browser opens to this server; after six pages left, the next page's own
// requests waited forever (TestStreamsEndWhenThePageIsLeft). It returns the function that stops
// watching.
export function watchPage(target) {
  const onVisible = () => {
    if (document.visibilityState === 'visible') target.wake();
  };
  const onOnline = () => target.wake();
  const onOffline = () => target.drop();
  const onHide = () => target.leave();
  const onShow = (ev) => {
    if (ev.persisted) target.wake();
  };
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  window.addEventListener('pagehide', onHide);
  window.addEventListener('pageshow', onShow);
  return () => {
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('pagehide', onHide);
    window.removeEventListener('pageshow', onShow);
  };
}

// EventParser reads text/event-stream text as it arrives (in chunks cut anywhere) and calls
// onEvent(name, data) for each event with data, as the HTML standard's "interpret an event stream"
// says: lines end with CR LF, LF or CR; `:` starts a comment; `event` names the event (default
// "message"); `data` lines are joined with LF; `id` and `retry` are ignored (every connection starts
// with a snapshot, and the backoff is ours).
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = '';
    this.name = '';
    this.data = [];
  }

  push(chunk) {
    // Most chunks of a large event hold no line end: keep them (a string concatenation, no copy) until
    // one does, or until a CR held back at the end can be told from half a CR LF.
    if (!/[\r\n]/.test(chunk) && !this.buffer.endsWith('\r')) {
      this.buffer += chunk;
      return;
    }
    const text = this.buffer + chunk;
    let start = 0;
    let lf = -2; // the next LF and CR at or after start; -1: none left
    let cr = -2;
    for (;;) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      if (end < 0) break;
      // A CR at the very end may be the first half of CR LF: wait for the next chunk.
      if (end === cr && cr === text.length - 1) break;
      this.line(text.slice(start, end));
      start = end + (end === cr && lf === cr + 1 ? 2 : 1);
    }
    this.buffer = text.slice(start);
  }

  line(line) {
    if (line === '') {
      if (this.data.length) this.onEvent(this.name || 'message', this.data.join('\n'));
      this.name = '';
      this.data = [];
      return;
    }
    if (line[0] === ':') return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value[0] === ' ') value = value.slice(1);
    if (field === 'event') this.name = value;
    else if (field === 'data') this.data.push(value);
  }
}
