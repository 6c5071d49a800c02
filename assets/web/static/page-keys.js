// @ts-check
// The board page's edit key in the page: gained (a chat pairing's answer), replaced by this page (a new
// edit link) or by another (the stream's `capability` event), and dropped when the server no longer
// takes it. The page switches between editing and reading as it gains or loses it. capability.js holds
// the decisions.

import { byId, show } from './dom.js';
import { bindText } from './i18n.js';
import * as api from './api.js';
import { clone } from './content.js';
import { remove, write } from './storage.js';
import { forget, keep, keyFor } from './keyring.js';
import { claimLink, linkFailed } from './link-box.js';
import { capKey, capabilityEvent, fingerprint } from './capability.js';

/**
 * @typedef {{ id: string, fingerprint?: string }} CapabilityEvent
 */

export class PageKeys {
  /** @param {import('./board-page.js').BoardPage} page */
  constructor(page) {
    this.page = page;
    this.rotating = false; // the event of this page's own rotation may come before the answer: held
    /** @type {CapabilityEvent | null} */
    this.heldEvent = null;
  }

  /**
   * grant makes the page editable with capability (from a chat pairing's answer).
   * @param {unknown} capability
   */
  grant(capability) {
    const page = this.page;
    if (typeof capability !== 'string' || !capability || capability === page.cap) return;
    write('session', capKey(page.id), capability);
    page.cap = capability;
    page.saves.showMessage(null);
    if (page.editable) return;
    page.editable = true;
    if (page.view) page.applyMode();
  }

  // newLink replaces the board's capability; this page keeps editing with the new one and shows the
  // new link to share. Every other page with the old one falls back to reading (replaced).
  async newLink() {
    const page = this.page;
    if (!page.editable || !page.cap) return;
    const button = /** @type {HTMLButtonElement} */ (byId('new-link'));
    button.disabled = true;
    page.saves.showMessage(null);
    this.rotating = true;
    try {
      const res = await api.rotateCapability(page.id, page.cap);
      if (typeof res?.capability !== 'string' || !res.capability) throw new Error('no capability in the answer');
      const old = page.cap;
      const cap = res.capability;
      page.cap = cap;
      write('session', capKey(page.id), cap);
      if (keyFor(page.id) === old) keep(page.id, cap); // the ring's key is this page's: keep the new one
      byId('new-link-status').textContent = '';
      // The link shown carries a one-time code, never the new key (a browser keeps what it opens).
      /** @type {HTMLInputElement} */ (byId('new-link-url')).value = await claimLink(page.id, cap).catch((err) => {
        bindText(byId('new-link-status'), ...linkFailed(err));
        return '';
      });
      show(byId('new-link-panel'), true);
    } catch (err) {
      const e = /** @type {import('./api.js').ApiError} */ (err);
      if (e.status === 401 || e.status === 403) this.revoke();
      else page.saves.showMessage(['cap.failed', { message: e.message }]);
    } finally {
      button.disabled = false;
      this.rotating = false;
      const held = this.heldEvent;
      this.heldEvent = null;
      if (held) this.replaced(held);
    }
  }

  /**
   * replaced handles the stream's `capability` event: when the new key is not the one this page
   * holds, the page can no longer save and says why.
   * @param {CapabilityEvent} event
   */
  async replaced(event) {
    const page = this.page;
    const what = capabilityEvent({ id: page.id, cap: page.cap, rotating: this.rotating }, event);
    if (what === 'ignore') return;
    if (what === 'hold') {
      this.heldEvent = event;
      return;
    }
    const held = /** @type {string} */ (page.cap);
    if ((await fingerprint(held)) === event.fingerprint || page.cap !== held) return;
    this.revoke();
  }

  // revoke drops a capability that no longer works: the page becomes read-only and says why. Unsaved
  // changes cannot be saved any more; the board shows the last saved revision.
  revoke() {
    const page = this.page;
    remove('session', capKey(page.id));
    if (page.cap) forget(page.id, page.cap);
    page.cap = null;
    show(byId('new-link-panel'), false);
    /** @type {HTMLInputElement} */ (byId('new-link-url')).value = '';
    if (page.editable) {
      page.editable = false;
      page.ops = [];
      page.conflict = null;
      for (const id of ['conflict', 'rebased', 'dropped']) show(byId(id), false);
      if (page.base) page.draft = clone(page.base.content);
      page.applyMode();
    }
    page.saves.showMessage(['cap.replaced', { id: page.id }]);
  }
}

// copyLink copies the new edit link, and says whether it could.
export async function copyLink() {
  const input = /** @type {HTMLInputElement} */ (byId('new-link-url'));
  const status = byId('new-link-status');
  try {
    await navigator.clipboard.writeText(input.value);
    bindText(status, 'cap.copied');
  } catch {
    input.select();
    bindText(status, 'cap.copyFailed');
  }
}
