// @ts-check
import { request } from './api.js';

// The URL fragment carries secrets (the board capability `cap`, and for a paired chat `binding` and
// `invite`). takeFragment reads it once and erases it from the address bar and the history entry at
// once, so it is never bookmarked, shared or shown again. Callers get the parsed parameters.
export function takeFragment() {
  const raw = location.hash.replace(/^#/, '');
  if (location.hash) {
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  return new URLSearchParams(raw);
}

// An edit link printed by Tele carries a one-time claim code (`#claim=`) instead of the key: the
// browser records the link in its history, where a code already used opens nothing. claimCapability
// trades the code for the board's key by POST (a no-store answer), so the key never sits in a URL.
// It resolves to the key, or rejects with the ApiError; claimRefusal says a refusal in a musician's words.
export async function claimCapability(id, code) {
  const answer = await request('POST', `/api/boards/${encodeURIComponent(id)}/claim`, { body: { claim: code } });
  return answer.capability;
}

/** @returns {import('./i18n.js').Entry} */
export function claimRefusal(err, id) {
  if (err.code === 'claim_invalid') return ['claim.used', { id }];
  if (err.code === 'rate_limited') return ['claim.tooMany', { id }];
  return ['claim.failed', { message: err.message }];
}
