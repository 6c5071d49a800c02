// @ts-check
// The chat stream's worker: it reads the chat's event stream (stream.js: fetch, the event parser,
// reconnects with backoff) off the page's main thread, parses each 256 KiB snapshot here and posts the
// page only what changed since the one before (chat-diff.js). chat-stream.js starts it and forwards
// what a worker cannot see itself (the tab becoming visible, the browser going on- or offline).
//
// From the page: {type: 'open', url} once, then {type: 'wake'}, {type: 'drop'} and {type: 'leave'}
// (Stream.wake, drop, leave).
// To the page: {type: 'state', state, info} when the connection's state changes (Stream's onState),
// and a change message of chat-diff.js for each snapshot, always after the state that came with it.
// The fetch is same-origin from the page's own origin: the pairing cookie travels as it does from the
// page. Closing is the page's worker.terminate(), which ends the connection with the worker.

import { Stream } from './stream.js';
import { ViewDiff } from './chat-diff.js';

let stream = null;
let lastState = '';
const diff = new ViewDiff();

function onState(state, info) {
  // Stream says 'live' on every event; the page needs to hear it once.
  const key = `${state}:${info?.seconds ?? ''}`;
  if (key === lastState) return;
  lastState = key;
  self.postMessage({ type: 'state', state, info: info ?? null });
}

function onSnapshot(view) {
  const msg = diff.next(view);
  if (msg) self.postMessage(msg);
}

self.addEventListener('message', (ev) => {
  const m = ev.data;
  if (m?.type === 'open' && !stream && typeof m.url === 'string') {
    stream = new Stream(m.url, { snapshot: onSnapshot }, onState, null);
  } else if (m?.type === 'wake') stream?.wake();
  else if (m?.type === 'drop') stream?.drop();
  else if (m?.type === 'leave') stream?.leave();
});
