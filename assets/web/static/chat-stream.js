// @ts-check
// The chat panel's event stream, read in a module worker (chat-stream-worker.js) so that receiving
// and parsing a 256 KiB snapshot per streamed word costs the page's main thread next to nothing: the
// page gets only what changed (chat-diff.js), and the connection states of stream.js as before. Same
// origin, under the page's CSP (script-src 'self' covers workers).
//
// new ChatStream(url, onChange, onState): onChange(msg) with each change message, onState(state, info)
// as stream.js's. close() ends the connection and the worker.

import { watchPage } from './stream.js';

// A worker that failed (its script did not load: a page older than the server) is started again after
// this long, as the stream's longest backoff.
const RESTART_DELAY = 30000;

export class ChatStream {
  constructor(url, onChange, onState) {
    this.url = new URL(url, location.href).href;
    this.onChange = onChange;
    this.onState = onState;
    this.worker = null;
    this.timer = null;
    this.unwatch = watchPage({ wake: () => this.post('wake'), drop: () => this.post('drop'), leave: () => this.post('leave') });
    this.start();
  }

  start() {
    const worker = new Worker(new URL('./chat-stream-worker.js', import.meta.url), { type: 'module' });
    this.worker = worker;
    worker.addEventListener('message', (ev) => {
      const m = ev.data;
      if (m?.type === 'state') this.onState(m.state, m.info);
      else if (m?.type === 'view') this.onChange(m);
    });
    worker.addEventListener('error', () => {
      worker.terminate();
      this.worker = null;
      this.onState('offline', { seconds: RESTART_DELAY / 1000 });
      this.timer = setTimeout(() => this.start(), RESTART_DELAY);
    });
    worker.postMessage({ type: 'open', url: this.url });
  }

  post(type) {
    this.worker?.postMessage({ type });
  }

  close() {
    clearTimeout(this.timer);
    this.unwatch();
    this.worker?.terminate();
    this.worker = null;
  }
}
