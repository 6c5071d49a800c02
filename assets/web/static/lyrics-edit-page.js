// @ts-check
// The board page's editing of lines of words: the line editor's requests (lyrics-edit.js) as the page's
// ops (lyrics-content.js applies them), and a line in the same-place conflict list. Kept apart from
// board-page.js, which only hands over.

import { h } from './dom.js';
import { bindText } from './i18n.js';
import { sectionName } from './content.js';
import { LineDialog } from './lyrics-edit.js';
import { lineText } from './lyrics-content.js';
import './lyrics-strings.js';

const EMPTY = { text: '', chords: [] };

export class LineEditing {
  constructor(page) {
    this.page = page;
    this.dialog = new LineDialog(page.catalogue, {
      save: (s, k, line) => {
        if (lineText(line) !== lineText(this.line(s, k))) page.edit({ t: 'line', s, k, line });
        return this.button(s, k);
      },
      paste: (s, k, lines) => {
        const [first, ...rest] = lines;
        page.edit({ t: 'line', s, k, line: first });
        rest.forEach((line, n) => page.edit({ t: 'insertLine', s, k: k + 1 + n, line }));
        bindText(document.getElementById('save-status'), 'lyrics.pasted', { n: lines.length });
        return this.button(s, k + rest.length);
      },
      insertAfter: (s, k) => {
        if (!page.edit({ t: 'insertLine', s, k: k + 1, line: EMPTY })) return null;
        queueMicrotask(() => this.edit(s, k + 1));
        return null;
      },
      remove: (s, k) => {
        if (!page.edit({ t: 'removeLine', s, k })) return null;
        const left = page.draft.sections[s]?.lines?.length || 0;
        return left ? this.button(s, Math.min(k, left - 1)) : document.querySelector(`[data-path="sections[${s}]"] .lyrics-add`);
      },
    });
  }

  line(s, k) {
    return this.page.draft.sections[s]?.lines?.[k] || EMPTY;
  }

  button(s, k) {
    return document.querySelector(`[data-path="sections[${s}].lines[${k}]"]`);
  }

  // edit opens the editor on line k of section s.
  edit(s, k) {
    const sec = this.page.draft.sections[s];
    if (!sec?.lines?.[k]) return;
    this.dialog.open(s, k, sectionName(sec, s), sec.lines[k], this.button(s, k));
  }

  // add puts an empty line at the end of section s and opens the editor on it.
  add(s) {
    const k = this.page.draft.sections[s]?.lines?.length || 0;
    if (this.page.edit({ t: 'insertLine', s, k, line: EMPTY })) this.edit(s, k);
  }

  // conflictItem is a line both this page and someone else changed, in the conflict list: keep mine or
  // use theirs (resolve(useTheirs)), as for a bar.
  conflictItem(c, resolve) {
    const params = { name: sectionName(this.page.draft.sections[c.s], c.s), n: c.k + 1, theirs: c.theirs, mine: c.mine };
    const keep = bindText(h('button', { type: 'button', class: 'line-keep' }), 'lineConflict.keepMine', params);
    const take = bindText(h('button', { type: 'button', class: 'line-take' }), 'lineConflict.useTheirs', params);
    keep.addEventListener('click', () => resolve(false));
    take.addEventListener('click', () => resolve(true));
    return h('li', { dataset: { line: `${c.s}.${c.k}` } }, bindText(h('span'), 'lineConflict.item', params), h('span', { class: 'actions' }, keep, take));
  }
}
