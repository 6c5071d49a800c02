// A server-sent event stream that says how it is doing and comes back by itself: after a drop it
// reconnects with exponential backoff (1 s doubling to 30 s, with jitter), and at once when the tab
// becomes visible again or the browser goes back online. Each (re)connection starts with a fresh
// snapshot from the server (docs/api.md), so a reconnect is also a resync.
//
// onState(state, info): 'connecting' | 'live' | 'offline' ({seconds} until the next attempt).

const MIN_DELAY = 1000;
const MAX_DELAY = 30000;

export class Stream {
  constructor(url, events, onState) {
    this.url = url;
    this.events = events; // {name: handler(data)}
    this.onState = onState;
    this.source = null;
    this.timer = null;
    this.failures = 0;
    this.closed = false;
    this.onVisible = () => {
      if (document.visibilityState === 'visible' && !this.source) this.connect();
    };
    this.onOnline = () => {
      if (!this.source) this.connect();
    };
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.source?.close();
    this.onState('connecting');
    const source = new EventSource(this.url);
    this.source = source;
    for (const [name, handler] of Object.entries(this.events)) {
      source.addEventListener(name, (ev) => {
        if (this.source !== source) return;
        this.failures = 0;
        this.onState('live');
        let data;
        try {
          data = JSON.parse(ev.data);
        } catch {
          return;
        }
        handler(data);
      });
    }
    // EventSource would retry on its own at a fixed pace; take over to back off and to report it.
    source.addEventListener('error', () => {
      if (this.source !== source) return;
      source.close();
      this.source = null;
      this.scheduleReconnect();
    });
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
    this.source?.close();
    this.source = null;
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('online', this.onOnline);
  }
}
