// @ts-check
// The chat routes of docs/api.md as the chat panel uses them. Same-origin fetches with JSON bodies: the
// browser adds the exact Origin the server requires, and the pairing cookie (HttpOnly, path
// /api/chat/<binding>) travels by itself; the page never sees it. Every failure is an ApiError with the
// HTTP status (0 when no answer came back) and the body's {code, message, ...}.

import { request } from './api.js';

function call(method, url, body) {
  return request(method, url, { body });
}

const base = (binding) => `/api/chat/${encodeURIComponent(binding)}`;

// pair redeems a one-time invitation → {binding, epoch, expiresAt, capability}; the answer sets the
// cookie, and its capability lets the page edit the board.
export function pair(binding, invitation) {
  return call('POST', '/api/chat/pair', { binding, invitation });
}

// status → the full chat view {epoch, idleVersion, status, runId, notice, truncated, items}.
export function status(binding) {
  return call('GET', `${base(binding)}/status`);
}

export function eventsURL(binding) {
  return `${base(binding)}/events`;
}

// command posts a send or an abort → the receipt {id, type, status}.
export function command(binding, body) {
  return call('POST', `${base(binding)}/command`, body);
}

// newCommandId is a fresh random UUID in its canonical lower-case form (the server insists on it).
export function newCommandId() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
