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

// editLink is the address that opens board id for editing with capability.
export function editLink(id, capability) {
  return `${location.origin}/b/${encodeURIComponent(id)}#cap=${capability}`;
}

// shareableLink is the edit link to show for board id: one with a one-time claim code (#claim=), which
// leaves no key in the history of the browser that opens it; the key link only if the server made no
// code.
export async function shareableLink(id, capability) {
  try {
    const { claim } = await newClaim(id, capability);
    if (claim) return `${location.origin}/b/${encodeURIComponent(id)}#claim=${claim}`;
  } catch {
    // the key link below
  }
  return editLink(id, capability);
}
