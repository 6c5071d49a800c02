// @ts-check
// The line editor: a modal dialog to edit one line of words and its chords by keyboard. The line is one
// text field written as ChordPro writes it, each chord in brackets before the syllable it falls on
// (A[G]mazing [D7]grace), so a chord is typed at the caret; a second field puts a chord at the caret
// for whoever would rather not type brackets. A preview draws the line as the grid will. A block of
// chords over words pasted into the field becomes lines (one for each pair). The chords are checked
// against the catalogue as typed (the server checks them again on save). Like the bar editor, it
// edits nothing itself: it reports what the user asked for, and the page turns that into ops.

import { h } from './dom.js';
import { bindText } from './i18n.js';
import { ApiError, request } from './api.js';
import { lineText, parseLineText } from './lyrics-content.js';
import { LyricsView } from './lyrics-view.js';
import './lyrics-strings.js';

export class LineDialog {
  // actions: save(s, k, line), paste(s, k, lines), insertAfter(s, k), remove(s, k); each returns the
  // element to focus after the dialog closes (or null).
  constructor(catalogue, actions) {
    this.catalogue = catalogue;
    this.actions = actions;
    this.target = null;
    this.caret = 0;
    const id = (s) => `line-${s}`;
    this.heading = h('h2', { id: id('heading') });
    this.input = h('input', { id: id('text'), type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `${id('hint')} ${id('error')}` });
    this.hint = bindText(h('p', { id: id('hint'), class: 'hint' }), 'lyrics.textHint');
    this.chord = h('input', { id: id('chord'), type: 'text', autocomplete: 'off', spellcheck: 'false', size: 8 });
    this.put = bindText(h('button', { type: 'button', id: id('put') }), 'lyrics.putChord');
    this.error = h('p', { id: id('error'), class: 'error', role: 'alert' });
    this.previewEl = h('div', { class: 'lyrics line-preview', id: id('preview') });
    this.preview = new LyricsView(this.previewEl);
    const button = (key, cls) => bindText(h('button', { type: 'button', id: id(cls), class: cls }), key);
    this.removeBtn = button('lyrics.remove', 'remove');
    this.insertBtn = button('lyrics.insertAfter', 'insert');
    this.cancelBtn = button('lyrics.cancel', 'cancel');
    this.saveBtn = bindText(h('button', { type: 'submit', id: id('save'), class: 'primary' }), 'lyrics.save');
    this.form = h('form', { method: 'dialog', class: 'line-form' },
      this.heading,
      h('label', { class: 'field' }, bindText(h('span', { class: 'field-label' }), 'lyrics.text'), this.input),
      this.hint,
      h('div', { class: 'line-chord' }, h('label', { class: 'field' }, bindText(h('span', { class: 'field-label' }), 'lyrics.chord'), this.chord), this.put),
      this.error,
      h('div', { class: 'line-preview-box' }, bindText(h('p', { class: 'field-label' }), 'lyrics.preview'), this.previewEl),
      h('div', { class: 'actions' }, this.removeBtn, this.insertBtn, this.cancelBtn, this.saveBtn));
    this.dialog = h('dialog', { class: 'line-dialog', id: 'line-dialog', 'aria-labelledby': id('heading') }, this.form);
    document.body.append(this.dialog);

    const keepCaret = () => (this.caret = this.input.selectionStart ?? this.input.value.length);
    for (const ev of ['keyup', 'click', 'select', 'input']) this.input.addEventListener(ev, keepCaret);
    this.input.addEventListener('input', () => this.validate());
    this.input.addEventListener('paste', (ev) => this.paste(ev));
    this.put.addEventListener('click', () => this.putChord());
    this.cancelBtn.addEventListener('click', () => this.close(null));
    this.removeBtn.addEventListener('click', () => this.close(this.actions.remove(this.target.s, this.target.k)));
    this.insertBtn.addEventListener('click', () => {
      const line = this.validate();
      if (!line) return;
      const { s, k } = this.target;
      this.actions.save(s, k, line);
      this.close(this.actions.insertAfter(s, k));
    });
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      // Enter in the chord field puts the chord at the caret; the line is not done yet.
      if (document.activeElement === this.chord) {
        this.putChord();
        return;
      }
      const line = this.validate();
      if (!line) {
        this.input.focus();
        return;
      }
      this.close(this.actions.save(this.target.s, this.target.k, line));
    });
    this.dialog.addEventListener('close', () => this.target && this.close(null));
  }

  // open edits line k of section s (named name), line as it is on the board.
  open(s, k, name, line, returnFocus) {
    this.target = { s, k, returnFocus };
    bindText(this.heading, 'lyrics.dialogTitle', { n: k + 1, name });
    this.input.value = lineText(line);
    this.chord.value = '';
    this.caret = this.input.value.length;
    this.validate();
    if (!this.dialog.open) this.dialog.showModal();
    this.input.focus();
    this.input.setSelectionRange(this.caret, this.caret);
  }

  close(focus) {
    const target = this.target;
    this.target = null;
    if (this.dialog.open) this.dialog.close();
    (focus || target?.returnFocus)?.focus?.();
  }

  // validate reads the field: the line with every chord in the catalogue's spelling, or null (and the
  // first chord the catalogue refuses said, with its suggestion).
  validate() {
    const line = parseLineText(this.input.value);
    for (const c of line.chords) {
      const parsed = this.catalogue.parse(c.chord);
      if (!parsed) {
        bindText(this.error, 'lyrics.badChord', { symbol: c.chord, suggestion: this.catalogue.suggest(c.chord) });
        this.input.setAttribute('aria-invalid', 'true');
        return null;
      }
      c.chord = parsed.symbol;
    }
    this.error.textContent = '';
    delete this.error.dataset.i18n;
    this.input.removeAttribute('aria-invalid');
    this.preview.paint({ lines: [line] }, 0);
    return line;
  }

  // putChord writes the chord field's chord in brackets at the caret of the line field.
  putChord() {
    const typed = this.chord.value.trim();
    if (!typed) return;
    const symbol = this.catalogue.normalize(typed); // am7 → Am7, as the bar editor reads it
    const v = this.input.value;
    const at = Math.min(this.caret, v.length);
    this.input.value = `${v.slice(0, at)}[${symbol}]${v.slice(at)}`;
    this.caret = at + symbol.length + 2;
    this.chord.value = '';
    this.validate();
    this.input.focus();
    this.input.setSelectionRange(this.caret, this.caret);
  }

  // paste: a block of chords over words becomes lines, this one and the ones after it. The server reads
  // the block (POST /api/read, the reader of the text import, docs/content.md), so the page keeps no rule
  // of its own for it; a block it finds no line of chords in is pasted as the field takes text, on one
  // line.
  paste(ev) {
    const text = ev.clipboardData?.getData('text/plain') || '';
    if (!text.includes('\n')) return;
    ev.preventDefault();
    const target = this.target;
    const [from, to] = [this.input.selectionStart ?? this.input.value.length, this.input.selectionEnd ?? this.input.value.length];
    readBlock(text).then((lines) => {
      if (this.target !== target || !this.dialog.open) return;
      if (!lines) {
        this.input.setRangeText(text.replace(/\r\n?|\n/g, ' '), from, to, 'end');
        this.caret = this.input.selectionStart;
        this.validate();
        return;
      }
      this.close(this.actions.paste(target.s, target.k, lines));
    }, (err) => {
      if (this.target !== target) return;
      bindText(this.error, err?.code === 'too_large' ? 'lyrics.pasteTooLarge' : 'lyrics.pasteFailed');
    });
  }
}

// readBlock is the lines the server reads in a pasted block, every section's in order (a heading starts
// a section, which the editor leaves to the board), or null when the block holds no line of chords.
async function readBlock(text) {
  try {
    const out = await request('POST', '/api/read', { body: { text } });
    return (out.sections || []).flatMap((s) => s.lines || []).map((l) => ({ text: l.text, chords: l.chords || [] }));
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_a_grid') return null;
    throw err;
  }
}
