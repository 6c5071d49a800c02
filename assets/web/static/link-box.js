// @ts-check
// Copying a link shown in a read-only text field (an edit link): to the clipboard when the browser
// allows it, else the link is selected so the user can copy it, and the status line says which.

import './manage-strings.js';
import { bindText } from './i18n.js';
import { newClaim } from './api.js';

// copyLink copies input's value and reports it in status; it resolves to whether the clipboard took it.
export async function copyLink(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    bindText(status, 'link.copied');
    return true;
  } catch {
    input.focus();
    input.select();
    bindText(status, 'link.copyFailed');
    return false;
  }
}

// editLink is the address that opens board id for editing with capability in its fragment. It is
// for navigating this very tab only (where sessionStorage cannot hold the key): a link a musician is
// shown or copies is a claimLink.
export function editLink(id, capability) {
  return `${location.origin}/b/${encodeURIComponent(id)}#cap=${capability}`;
}

// claimLink resolves to the edit link to show or copy for board id: one with a one-time claim code
// (#claim=), which leaves no key in the history of the browser that opens it. It never falls back to
// the key: it rejects with the ApiError when the server makes no code (linkFailed says so).
export async function claimLink(id, capability) {
  const { claim } = await newClaim(id, capability);
  if (typeof claim !== 'string' || !claim) throw new Error('no claim code in the answer');
  return `${location.origin}/b/${encodeURIComponent(id)}#claim=${claim}`;
}

// linkFailed is the i18n entry saying an edit link could not be made (the key stays on this device).
export function linkFailed(err) {
  return ['link.failed', { message: err?.message || String(err) }];
}
