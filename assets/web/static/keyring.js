// @ts-check
// The key ring: the edit keys (capabilities) this browser holds, in localStorage of this origin under
// tele.keyring, {"<board>": {"cap": "…", "at": "<ISO time>"}}. A board this browser created (the list
// page, an import, Copy board) or whose edit link it opened goes in, so the list page opens those boards
// editable on this device; the musician can forget a key there. A key the server no longer takes (a new
// edit link made elsewhere, the board deleted) leaves the ring when the page finds out. A capability
// from a chat pairing stays in the tab's sessionStorage only: the ring holds what the musician chose to
// open. Storage may be disabled: then the ring is empty and nothing is kept.

import { read, write } from './storage.js';

export const KEYRING = 'tele.keyring';
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const CAP_RE = /^[A-Za-z0-9_-]{16,128}$/;

// keys reads the ring, keeping only entries of the right shape.
export function keys() {
  let raw;
  try {
    raw = JSON.parse(read('local', KEYRING) || '{}');
  } catch {
    return {};
  }
  const out = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [id, v] of Object.entries(raw)) {
    if (ID_RE.test(id) && v && typeof v.cap === 'string' && CAP_RE.test(v.cap)) out[id] = { cap: v.cap, at: typeof v.at === 'string' ? v.at : '' };
  }
  return out;
}

export function keyFor(id) {
  return keys()[id]?.cap ?? null;
}

// keep puts board id's capability in the ring (replacing an older one); false when storage refused it.
export function keep(id, cap) {
  if (!ID_RE.test(id) || typeof cap !== 'string' || !CAP_RE.test(cap)) return false;
  const ring = keys();
  if (ring[id]?.cap === cap) return true;
  ring[id] = { cap, at: new Date().toISOString() };
  return write('local', KEYRING, JSON.stringify(ring));
}

// forget takes board id's key out of the ring; with cap, only when the ring holds that very key (a
// page dropping a key that stopped working must not drop a newer one another tab kept).
export function forget(id, cap) {
  const ring = keys();
  if (!ring[id] || (cap && ring[id].cap !== cap)) return;
  delete ring[id];
  write('local', KEYRING, JSON.stringify(ring));
}
