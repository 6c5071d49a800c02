// Export on the board page: download links for the board as a ChordPro file, an iReal Pro link (a text
// file holding the irealb:// link) and Tele's content JSON, through GET /api/boards/:board/export (open to anyone who can read the board). The
// server names the file (Content-Disposition), so the links only say which format.

import { byId } from './dom.js';
import './form-strings.js';

export function setupExportLinks(id) {
  const base = `/api/boards/${encodeURIComponent(id)}/export?format=`;
  for (const a of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('#export-links a[data-format]'))) a.href = base + a.dataset.format;
  byId('export-links').hidden = false;
}
