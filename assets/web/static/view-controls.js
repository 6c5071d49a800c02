// @ts-check
// The board's view controls: transpose (by semitones or to a key), capo, Nashville numbers, and the
// instrument the chords are written for (B♭, E♭, F: a player's own setting, remembered for every board
// on this device). They change what this browser shows, never the board (the player sounds concert
// pitch), and are remembered for this board on this device. With the edit link, "Transpose the board"
// asks the page to write the transposition as a new revision.
// The music itself is transpose.js; this module is the controls and their words.

import { byId, h, show } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { read, write } from './storage.js';
import { INSTRUMENTS, keyName, parseKey, view } from './transpose.js';
import { INSTRUMENT_KEY, SHORT_KEY, viewKey as storageKey } from './view-keys.js';
const MAX_CAPO = 11;

export class ViewControls {
  // onChange() re-renders the page; onApply() writes the transposition to the board (edit link only).
  constructor(boardId, { editable, onChange, onApply }) {
    this.boardId = boardId;
    this.onChange = onChange;
    this.state = { transpose: 0, toKey: '', capo: 0, numbers: false, ...load(boardId), instrument: loadInstrument(), short: read('local', SHORT_KEY) === 'true' };
    this.down = byId('view-down');
    this.up = byId('view-up');
    this.shift = byId('view-shift');
    this.key = byId('view-key');
    this.capo = byId('view-capo');
    this.numbers = byId('view-numbers');
    this.instrument = byId('view-instrument');
    this.short = byId('view-short');
    this.reset = byId('view-reset');
    this.status = byId('view-status');
    this.badge = byId('view-badge');
    this.apply = byId('view-apply');
    this.setEditable(editable);

    this.capo.append(...Array.from({ length: MAX_CAPO + 1 }, (_, n) =>
      bindText(h('option', { value: String(n) }), n ? 'view.capoN' : 'view.noCapo', { n })));
    this.down.addEventListener('click', () => this.step(-1));
    this.up.addEventListener('click', () => this.step(+1));
    this.key.addEventListener('change', () => this.set({ toKey: this.key.value, transpose: 0 }));
    this.capo.addEventListener('change', () => this.set({ capo: Number(this.capo.value) }));
    this.instrument.append(bindText(h('option', { value: '' }), 'view.concert'),
      ...Object.keys(INSTRUMENTS).map((name) => bindText(h('option', { value: name }), 'view.instrumentName', { name: glyph(name) })));
    this.numbers.addEventListener('change', () => this.set({ numbers: this.numbers.checked }));
    this.instrument.addEventListener('change', () => this.set({ instrument: this.instrument.value }));
    this.short.addEventListener('change', () => this.set({ short: this.short.checked }));
    this.reset.addEventListener('click', () => this.set({ transpose: 0, toKey: '', capo: 0, numbers: false, instrument: '' }));
    this.apply.addEventListener('click', () => onApply(this.current));
  }

  // setEditable offers "Transpose the board" only with the edit link.
  setEditable(editable) {
    show(this.apply, editable);
  }

  // step moves the view a semitone (from the chosen key, if any), within an octave either way.
  step(delta) {
    let next = (this.current?.semitones ?? this.state.transpose) + delta;
    if (next > 11) next -= 12;
    if (next < -11) next += 12;
    this.set({ transpose: next, toKey: '' });
  }

  set(change) {
    this.state = { ...this.state, ...change };
    const { instrument, short, ...board } = this.state;
    write('local', storageKey(this.boardId), JSON.stringify(board));
    write('local', INSTRUMENT_KEY, instrument);
    write('local', SHORT_KEY, String(short));
    this.onChange();
  }

  // resetTranspose: the board itself was moved, so the view shows it as it is now (capo stays).
  resetTranspose() {
    this.set({ transpose: 0, toKey: '' });
  }

  // compute returns view(content, state) for the page and updates the controls to match.
  compute(content) {
    const v = view(content, this.state);
    this.current = v;
    const key = parseKey(content.key);
    this.fillKeys(key);
    this.key.value = key ? v.soundingKey : '';
    this.key.disabled = !key;
    this.capo.value = String(this.state.capo);
    this.numbers.checked = this.state.numbers;
    this.instrument.value = this.state.instrument;
    this.short.checked = this.state.short;
    const n = v.semitones;
    this.shift.textContent = n > 0 ? `+${n}` : String(n);
    bindAttr(this.shift, 'aria-label', 'view.shiftAria', { n });
    this.reset.disabled = !n && !this.state.capo && !this.state.numbers && !this.state.instrument;
    this.apply.disabled = !n;
    if (n) bindText(this.apply, key ? 'view.applyTo' : 'view.applyBy', { key: v.soundingKey, n: signed(n) });
    else bindText(this.apply, 'view.apply');
    this.describe(v, key);
    return v;
  }

  // fillKeys lists the twelve keys of the board's mode by their usual names (and G♭ beside F#, and the
  // board's own spelling of its key).
  fillKeys(key) {
    const id = key ? key.name : '';
    if (this.keysFor === id) return;
    this.keysFor = id;
    const names = key ? Array.from({ length: 12 }, (_, pc) => keyName(pc, key.minor)) : [];
    if (key && !key.minor) names.splice(7, 0, 'Gb');
    if (key && !names.includes(key.name)) names.push(key.name);
    const options = names.map((k) => h('option', { value: k }, k));
    this.key.replaceChildren(...(key ? options : [bindText(h('option', { value: '' }), 'view.keyNeeded')]));
  }

  describe(v, key) {
    const s = this.state;
    let entry;
    if (v.needsKey) entry = ['view.numbersNeedKey'];
    else if (s.numbers) entry = ['view.numbers', { key: key.name }];
    else if (v.instrument && key) entry = ['view.instrumentKey', { name: glyph(v.instrument), written: v.shapesKey, sounding: v.soundingKey }];
    else if (v.instrument) entry = ['view.instrumentNoKey', { name: glyph(v.instrument) }];
    else if (s.capo && key) entry = ['view.capoKey', { capo: s.capo, sounding: v.soundingKey, shapes: v.shapesKey }];
    else if (s.capo) entry = ['view.capoShapes', { capo: s.capo }];
    else if (v.semitones && key) entry = ['view.transposed', { n: signed(v.semitones), key: v.soundingKey, from: key.name }];
    else if (v.semitones) entry = ['view.transposedNoKey', { n: signed(v.semitones) }];
    if (entry) bindText(this.status, ...entry);
    else {
      this.status.textContent = '';
      delete this.status.dataset.i18n;
    }
    // The closed panel's summary says what the view changes: "+3", "capo 3", "1 4 5".
    bindText(this.badge, 'view.badge', {
      shift: v.semitones ? signed(v.semitones) : '', capo: s.capo, numbers: Boolean(s.numbers && !v.needsKey),
      instrument: v.instrument ? glyph(v.instrument) : '',
    });
  }
}

// glyph names an instrument as players do: B♭, E♭, F.
export function glyph(name) {
  return name.replace(/b$/, '♭');
}

// loadInstrument reads this device's instrument ('' for concert pitch).
function loadInstrument() {
  const v = read('local', INSTRUMENT_KEY);
  return v && Object.hasOwn(INSTRUMENTS, v) ? v : '';
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// load reads this board's view settings, keeping only values of the right shape.
function load(id) {
  try {
    const v = JSON.parse(read('local', storageKey(id)) || '{}');
    const out = {};
    if (Number.isInteger(v.transpose) && Math.abs(v.transpose) <= 11) out.transpose = v.transpose;
    if (typeof v.toKey === 'string' && (v.toKey === '' || parseKey(v.toKey))) out.toKey = v.toKey;
    if (Number.isInteger(v.capo) && v.capo >= 0 && v.capo <= MAX_CAPO) out.capo = v.capo;
    if (typeof v.numbers === 'boolean') out.numbers = v.numbers;
    return out;
  } catch {
    return {};
  }
}
