// @ts-check
// The bar editor's form fields: % (the chords of the bar before), repeat start, repeat end with the
// times played (2–8), an ending (1–4), a road sign, and this bar's meter (1–12 beats). Each choice is a
// native checkbox or a group of radio buttons drawn as chips, so the keyboard (Tab into a group, arrow
// keys within it, Space on a checkbox) and the mouse (a click on a chip) both set it, and a screen
// reader names every group by its legend. The values are the bar's members in the schema
// (docs/content.md); the board's own beats are the choice "as the board".

import { h } from './dom.js';
import { bindText } from './i18n.js';
import { MARKS } from './form.js';
import { MARK_TEXT } from './form-view.js';
import './form-strings.js';

const EMPTY = { simile: false, repeatStart: false, repeatEnd: 0, ending: 0, mark: '', beats: 0 };

export class FormFields {
  // onSimile(on) is told when % is switched, so the dialog can set the chords field aside.
  constructor(container, { onSimile }) {
    this.simile = checkbox('bar-simile', 'form.simile');
    this.repeatStart = checkbox('bar-repeat-start', 'form.repeatStart');
    this.repeatEnd = chips('bar-repeat-end', 'form.repeatEnd',
      [[0, 'form.repeatNone'], ...[2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'form.times', { n }])]);
    this.ending = chips('bar-ending', 'form.ending', [[0, 'form.endingNone'], ...[1, 2, 3, 4].map((n) => [n, null, `${n}.`])]);
    this.mark = chips('bar-mark', 'form.mark', [['', 'form.markNone'], ...MARKS.map((m) => [m, null, markChip(m)])]);
    this.beats = chips('bar-beats', 'form.beats', [[0, 'form.beatsBoard', { n: 4 }], ...Array.from({ length: 12 }, (_, i) => [i + 1, null, String(i + 1)])]);
    this.simile.input.addEventListener('change', () => onSimile(this.simile.input.checked));
    container.replaceChildren(h('fieldset', { class: 'form-fields' },
      bindText(h('legend'), 'form.legend'),
      h('div', { class: 'form-checks' }, this.simile.label, this.repeatStart.label),
      this.repeatEnd.fieldset, this.ending.fieldset, this.mark.fieldset, this.beats.fieldset));
  }

  // set shows a bar's form (barForm's shape); boardBeats names the board's meter on its chip.
  set(form, boardBeats) {
    const f = { ...EMPTY, ...form };
    this.simile.input.checked = f.simile;
    this.repeatStart.input.checked = f.repeatStart;
    this.repeatEnd.set(f.repeatEnd);
    this.ending.set(f.ending);
    this.mark.set(f.mark);
    this.toCoda = f.toCoda === true; // To Coda beside the mark (version 3): kept while the mark can have it
    this.beats.set(f.beats === boardBeats ? 0 : f.beats);
    bindText(this.beats.labelOf(0), 'form.beatsBoard', { n: boardBeats });
  }

  // value is the form chosen, in barForm's shape without the chords.
  value() {
    return {
      simile: this.simile.input.checked,
      repeatStart: this.repeatStart.input.checked,
      repeatEnd: Number(this.repeatEnd.get()),
      ending: Number(this.ending.get()),
      mark: this.mark.get(),
      toCoda: this.toCoda === true && !['', 'to-coda', 'coda'].includes(this.mark.get()),
      beats: Number(this.beats.get()),
    };
  }
}

function markChip(m) {
  return m === 'segno' ? '§ Segno' : m === 'coda' ? '⊕ Coda' : MARK_TEXT[m];
}

function checkbox(id, key) {
  const input = h('input', { type: 'checkbox', id });
  const label = h('label', { class: 'check', for: id }, input, bindText(h('span'), key));
  return { input, label };
}

// chips is a radio group: options are [value, key, params] (a translated label) or [value, null, text]
// (words that are the same in every language).
function chips(name, legendKey, options) {
  const labels = new Map();
  const fieldset = h('fieldset', { class: 'chips', id: name });
  fieldset.append(bindText(h('legend'), legendKey));
  for (const [value, key, extra] of options) {
    const input = h('input', { type: 'radio', name, value: String(value) });
    const text = key ? bindText(h('span'), key, extra) : h('span', {}, extra);
    const label = h('label', { class: 'chip', dataset: { value: String(value) } }, input, text);
    labels.set(String(value), text);
    fieldset.append(label);
  }
  const inputs = () => [...fieldset.querySelectorAll('input')];
  return {
    fieldset,
    labelOf: (value) => labels.get(String(value)),
    set(value) {
      for (const i of inputs()) i.checked = i.value === String(value);
    },
    get() {
      return inputs().find((i) => i.checked)?.value ?? '';
    },
  };
}
