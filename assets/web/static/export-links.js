// @ts-check
// Export on the board page: "Open in iReal Pro", a link whose address is the board's irealb:// link (a
// tap opens the iReal Pro app where it is installed), and download links for the board as a ChordPro
// file, the iReal Pro link as a text file and Tele's content JSON, through GET
// /api/boards/:board/export (open to anyone who can read the board). The server writes every format
// and names the downloaded file (Content-Disposition), so the links only say which format.

import { exportBoard } from './api.js';
import { byId, show } from './dom.js';
import './form-strings.js';

// The addresses iReal Pro opens (ireal.Write writes irealb://).
const IREAL_LINK = /^irealb(ook)?:\/\/\S+$/;

// setupExportLinks points the downloads at the board's export and returns the "Open in iReal Pro"
// link, which follows the board's revisions (arrived) until gone() says the board was deleted.
export function setupExportLinks(id, gone = () => false) {
  const base = `/api/boards/${encodeURIComponent(id)}/export?format=`;
  for (const a of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('#export-links a[data-format]'))) a.href = base + a.dataset.format;
  byId('export-links').hidden = false;
  return new IrealOpen(id, byId('export-ireal-open'), gone);
}

// IrealOpen keeps the link's address the saved board's iReal Pro link. It asks the server for it when
// the page is idle after a new revision, so the first board's drawing does not wait for it; until the
// first answer the link is hidden (it has no address to open). A board deleted before the page is idle
// is not asked for: there is nothing left to export.
class IrealOpen {
  constructor(id, a, gone) {
    this.id = id;
    this.a = a;
    this.gone = gone;
    this.want = 0; // the newest revision the page has seen
    this.have = 0; // the revision whose link is the address (or newer)
    this.busy = false;
  }

  arrived(revision) {
    if (!(revision > this.want)) return;
    this.want = revision;
    if (this.busy) return;
    this.busy = true;
    requestIdleCallback(() => this.follow(), { timeout: 2000 });
  }

  // follow asks until the address is of the newest revision seen. A failure (the server gone) keeps
  // the address it had; the next revision asks again.
  async follow() {
    try {
      while (this.have < this.want && !this.gone()) {
        const want = this.want;
        const link = (await exportBoard(this.id, 'ireal')).trim();
        if (!IREAL_LINK.test(link)) break;
        this.a.href = link;
        this.have = want;
        show(this.a, true);
      }
    } catch {
      // the address stays; the next revision asks again
    } finally {
      this.busy = false;
    }
  }
}
