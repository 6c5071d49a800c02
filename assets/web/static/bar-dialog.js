// @ts-check
// The bar editor: a modal dialog to type chords ("Am7 D7", "F#m7b5/C#") or pick them from the
// catalogue (root, quality, optional bass), to set the bar's form (form-fields.js: %, repeats, ending,
// road sign, meter), and to move, insert or remove the bar. It edits nothing itself: it reports what the
// user asked for, and the page turns that into one op.

import { byId, show } from './dom.js';
import { bindText } from './i18n.js';
import { parseBar } from './chords.js';
import { barForm } from './form.js';
import { durationsOf, readTimed, rhythmsFor, withRhythm } from './beats.js';
import { FormFields } from './form-fields.js';
import { isSimile } from './fast-entry.js';

export class BarDialog {
  // actions: apply(s, b, chords, form), move(s, b, delta), insertAfter(s, b), remove(s, b); each returns the
  // element to focus after the dialog closes (or null).
  constructor(catalogue, actions) {
    this.catalogue = catalogue;
    this.actions = actions;
    this.dialog = byId('bar-dialog');
    this.form = byId('bar-form');
    this.heading = byId('bar-dialog-heading');
    this.input = byId('bar-chords');
    this.error = byId('bar-error');
    this.suggestBtn = byId('bar-suggest');
    this.respelled = byId('bar-respelled');
    this.root = byId('pick-root');
    this.quality = byId('pick-quality');
    this.bass = byId('pick-bass');
    this.preview = byId('pick-preview');
    this.rhythm = byId('bar-rhythm');
    this.durations = null; // the beats of each chord typed or picked; null: an even share
    this.boardBeats = 4;
    this.target = null; // {s, b, returnFocus}
    this.formFields = new FormFields(byId('bar-form-fields'), {
      onSimile: (on) => {
        this.input.disabled = on;
        this.validate();
      },
    });

    this.input.addEventListener('input', () => this.validate());
    this.rhythm.addEventListener('change', () => this.pickRhythm());
    // The bar's meter (a radio of the form fields) changes which rhythms fit: check again.
    byId('bar-form-fields').addEventListener('change', () => this.validate());
    for (const sel of [this.root, this.quality, this.bass]) sel.addEventListener('change', () => this.updatePreview());
    this.suggestBtn.addEventListener('click', () => this.useSuggestion());
    byId('pick-replace').addEventListener('click', () => this.pick(false));
    byId('pick-add').addEventListener('click', () => this.pick(true));
    byId('bar-cancel').addEventListener('click', () => this.close(null));
    byId('bar-move-prev').addEventListener('click', () => this.close(this.actions.move(this.target.s, this.target.b, -1)));
    byId('bar-move-next').addEventListener('click', () => this.close(this.actions.move(this.target.s, this.target.b, +1)));
    byId('bar-insert').addEventListener('click', () => this.close(this.actions.insertAfter(this.target.s, this.target.b)));
    byId('bar-remove').addEventListener('click', () => this.close(this.actions.remove(this.target.s, this.target.b)));
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const result = this.validate();
      if (!result) {
        this.input.focus();
        return;
      }
      // "%" (or iReal Pro's "x") typed for the chords makes the bar a % bar, as the checkbox does.
      const form = this.formFields.value();
      if (this.typedSimile()) form.simile = true;
      form.durations = form.simile ? null : this.durations;
      this.close(this.actions.apply(this.target.s, this.target.b, result, form));
    });
    this.dialog.addEventListener('cancel', (ev) => {
      ev.preventDefault();
      this.close(null);
    });
    this.fillPicker();
  }

  fillPicker() {
    const c = this.catalogue;
    const option = (value, text) => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      return o;
    };
    this.root.replaceChildren(...c.roots.map((r) => option(r, r)));
    this.quality.replaceChildren(
      ...[...c.qualities.keys()].map((q) => (q === '' ? bindText(option('', ''), 'picker.major') : option(q, q))));
    this.bass.append(...c.roots.map((r) => option(r, `/${r}`)));
    this.updatePreview();
  }

  picked() {
    return this.root.value + this.quality.value + (this.bass.value ? `/${this.bass.value}` : '');
  }

  updatePreview() {
    this.preview.textContent = this.picked();
  }

  pick(append) {
    const sym = this.picked();
    // A chord added to a rhythm typed with dots makes a new count of chords: they share the bar evenly.
    const current = readTimed(this.input.value).text;
    this.input.value = append && current ? `${current} ${sym}` : sym;
    this.validate();
    this.input.focus();
  }

  // validate shows what is wrong with the typed chords and returns them, in the catalogue's spelling,
  // when they can be applied. A refused symbol comes with the chord it may mean, offered as a button.
  validate() {
    if (this.formFields.simile.input.checked) {
      // A % bar plays the chords of the bar before: what the chords field holds is set aside.
      this.rhythm.disabled = true;
      show(this.suggestBtn, false);
      clearText(this.error);
      clearText(this.respelled);
      this.input.removeAttribute('aria-invalid');
      return [];
    }
    if (this.typedSimile()) {
      show(this.suggestBtn, false);
      clearText(this.error);
      bindText(this.respelled, 'dialog.simileTyped');
      this.input.removeAttribute('aria-invalid');
      return [];
    }
    const timed = readTimed(this.input.value);
    const { chords, unknown, respelled } = parseBar(timed.text, this.catalogue);
    const beats = this.barBeats();
    const sum = timed.counts ? timed.counts.reduce((a, c) => a + c, 0) : beats;
    this.durations = durationsOf(timed.counts, beats);
    this.fillRhythms(chords.length, beats);
    let problem = null;
    this.suggestion = null;
    if (!this.catalogue.ready) problem = ['dialog.loading'];
    else if (chords.length === 0) problem = ['dialog.empty'];
    else if (unknown.length) {
      problem = ['chord.unknown', unknown[0]];
      if (unknown[0].suggestion) this.suggestion = unknown[0];
    } else if (chords.length > 4) problem = ['dialog.tooMany'];
    else if (timed.lead) problem = ['dialog.beatsLead'];
    else if (sum !== beats) problem = ['dialog.beatsSum', { sum, beats }];
    show(this.suggestBtn, Boolean(this.suggestion));
    if (this.suggestion) bindText(this.suggestBtn, 'chord.useSuggestion', { suggestion: this.suggestion.suggestion });
    if (!problem && respelled) bindText(this.respelled, 'dialog.respelled', { chords: chords.join(' ') });
    else clearText(this.respelled);
    if (problem) {
      bindText(this.error, ...problem);
      this.input.setAttribute('aria-invalid', 'true');
      return null;
    }
    clearText(this.error);
    this.input.removeAttribute('aria-invalid');
    return chords;
  }

  // barBeats is the meter the bar will have: its own (the form fields), else the board's.
  barBeats() {
    return Number(this.formFields.value().beats) || this.boardBeats;
  }

  // fillRhythms offers the rhythms n chords can have in a bar of beats beats (none for one chord),
  // the one typed selected.
  fillRhythms(n, beats) {
    const list = n > 1 && n <= 4 ? rhythmsFor(n, beats) : [];
    const want = this.durations ? this.durations.join('+') : '';
    if (want && !list.some((r) => r.join('+') === want)) list.push(this.durations);
    const key = `${n}/${beats}/${list.map((r) => r.join('+')).join(',')}`;
    if (this.rhythmKey !== key) {
      this.rhythmKey = key;
      const even = document.createElement('option');
      even.value = '';
      bindText(even, n > 1 ? 'dialog.rhythmEven' : 'dialog.rhythmOne');
      this.rhythm.replaceChildren(even, ...list.map((r) => {
        const o = document.createElement('option');
        o.value = o.textContent = r.join('+');
        return o;
      }));
    }
    this.rhythm.value = want;
    this.rhythm.disabled = n < 2 || n > 4;
  }

  // pickRhythm writes the rhythm picked into the chords field, where it can be read and changed.
  pickRhythm() {
    const { text } = readTimed(this.input.value);
    const chords = text.split(' ').filter(Boolean);
    const picked = this.rhythm.value ? this.rhythm.value.split('+').map(Number) : null;
    this.input.value = withRhythm(chords, picked && picked.length === chords.length ? picked : null);
    this.validate();
  }

  typedSimile() {
    return isSimile(this.input.value);
  }

  // useSuggestion puts the suggested chord in place of the refused one.
  useSuggestion() {
    const { symbol, suggestion } = this.suggestion || {};
    if (!suggestion) return;
    this.input.value = this.input.value
      .split(/(\s+)/)
      .map((tok) => (tok === symbol || this.catalogue.normalize(tok) === symbol ? suggestion : tok))
      .join('');
    this.validate();
    this.input.focus();
  }

  // open edits bar b of section s (bar as written: an array of chords or an object with its form);
  // barCount tells which moves are possible, boardBeats the board's meter.
  open(s, b, n, bar, barCount, returnFocus, boardBeats = 4) {
    this.target = { s, b, returnFocus };
    bindText(this.heading, 'dialog.heading', { n });
    const form = barForm(bar);
    const chords = form.chords;
    this.boardBeats = boardBeats;
    this.formFields.set(form, boardBeats);
    this.input.disabled = form.simile;
    this.input.value = withRhythm(chords, form.durations);
    this.validate();
    const first = this.catalogue.parse(chords[0]);
    if (first && !first.nc) {
      this.root.value = first.root;
      this.quality.value = first.quality;
      this.bass.value = first.bass;
      this.updatePreview();
    }
    byId('bar-move-prev').disabled = b === 0;
    byId('bar-move-next').disabled = b >= barCount - 1;
    byId('bar-remove').disabled = barCount <= 1; // a section keeps at least one bar
    this.dialog.showModal();
    if (form.simile) this.formFields.simile.input.focus();
    else {
      this.input.focus();
      this.input.select();
    }
  }

  close(focusAfter) {
    if (!this.dialog.open) return;
    const back = focusAfter || this.target?.returnFocus;
    this.dialog.close();
    this.target = null;
    back?.focus();
  }

  get isOpen() {
    return this.dialog.open;
  }
}


function clearText(el) {
  el.textContent = '';
  delete el.dataset.i18n;
  delete el.dataset.i18nArgs;
}
