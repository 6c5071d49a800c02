// @ts-check
// A lyric sheet on paper: two columns when they save a page. Printing lays the chart out 7 in wide
// (print.css); a song of words alone that takes more than a page in one column is measured again in
// two, and keeps two when that is fewer pages (each section whole in its column, as in one). A board
// with bars keeps one column: its bar grid needs the whole width.
//
// It runs after the stage's own beforeprint (constructed after it), so the paper geometry is in place.

import { lyricOnly } from './lyrics-content.js';

// The height of a page's chart in CSS px: Letter, the shorter of A4 and Letter, inside 12 mm margins,
// less the head (title, key, tempo) on the first page.
const PAGE_PX = (11 - (2 * 12) / 25.4) * 96;

export class LyricsPrint {
  constructor(grid) {
    this.grid = grid;
    this.content = null;
    const printing = matchMedia('print');
    window.addEventListener('beforeprint', () => this.printing(true));
    window.addEventListener('afterprint', () => this.printing(false));
    printing.addEventListener('change', () => this.printing(printing.matches));
  }

  render(content) {
    this.content = content;
  }

  printing(on) {
    delete this.grid.dataset.printCols;
    if (!on) return;
    const secs = this.content?.sections || [];
    if (!secs.length || !secs.every(lyricOnly)) return;
    const one = this.grid.getBoundingClientRect().height;
    const head = this.grid.getBoundingClientRect().top - document.body.getBoundingClientRect().top;
    const pages = (h) => Math.ceil((head + h) / PAGE_PX);
    if (pages(one) < 2) return;
    this.grid.dataset.printCols = '2';
    if (pages(this.grid.getBoundingClientRect().height) >= pages(one)) delete this.grid.dataset.printCols;
  }
}
