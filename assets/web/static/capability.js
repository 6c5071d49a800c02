// @ts-check
// The board page's capability (its edit key), without the DOM (page-keys.js acts on it).
//
// The capability comes from the #cap= fragment (already erased by app.js), from the answer of a chat
// pairing (grant), or from this tab's sessionStorage (after a reload, or put there by the list page
// from this device's key ring, keyring.js: the boards this browser made or opened with their edit
// link, which an edit link's key joins here). It is never written to a URL.

import { read, write } from './storage.js';
import { keep } from './keyring.js';

/** @param {string} id the board's id: the key its capability has in the tab's session storage */
export const capKey = (id) => `tele.cap:${id}`;

/**
 * capabilityFor is board id's capability for this page: the fragment's (kept for the tab and in the
 * ring), else the tab's; null when it has none.
 * @param {string} id
 * @param {URLSearchParams} fragment
 * @returns {string | null}
 */
export function capabilityFor(id, fragment) {
  const fromFragment = fragment.get('cap');
  if (fromFragment) {
    write('session', capKey(id), fromFragment);
    keep(id, fromFragment);
    return fromFragment;
  }
  return read('session', capKey(id));
}

/**
 * capabilityEvent says what a page does with the stream's `capability` event (the board's key was
 * replaced): 'ignore' (no key, no event, another board's), 'hold' (the page is replacing the key
 * itself: the answer decides, then the event is looked at again) or 'check' (compare fingerprints).
 * @param {{ id: string, cap: string | null, rotating: boolean }} page
 * @param {{ id?: string, fingerprint?: string } | null | undefined} event
 * @returns {'ignore' | 'hold' | 'check'}
 */
export function capabilityEvent(page, event) {
  if (!page.cap || !event || event.id !== page.id) return 'ignore';
  return page.rotating ? 'hold' : 'check';
}

/**
 * fingerprint names a capability as the server's `capability` event does: base64url of the first 16
 * bytes of its SHA-256. '' where Web Crypto is missing (then no key matches, and the page reads only).
 * @param {string} capability
 * @returns {Promise<string>}
 */
export async function fingerprint(capability) {
  if (!globalThis.crypto?.subtle) return '';
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(capability)));
  return btoa(String.fromCharCode(...sum.slice(0, 16))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
