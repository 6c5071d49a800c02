// @ts-check
// Transposition, capo and Nashville numbers: pure music logic, no DOM (node's unit tests import it).
//
// Spelling follows the key, as a musician in that key writes it: a pitch is named by its scale degree
// from the tonic (interval → degree: b2 2 b3 3 4 #4 5 b6 6 b7 7), so in E♭ the flat seven is D♭, in D
// the flat six is B♭ and the sharp four is G#. A name the catalogue leaves out (Cb, Fb, E#, B#) falls
// back to the key's side: flats in flat keys, sharps in sharp keys. Keys themselves get their usual
// names (D♭ not C#, F# not G♭ unless chosen, E♭m, G#m, B♭m).

import { NO_CHORD, pitchClass, split } from './chords.js';
import { barForm, mapChords } from './form.js';
import { shortQuality } from './notation.js';
import { lineChords, mapLines } from './lyrics-content.js';

const LETTERS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];
const NATURAL = [0, 2, 4, 5, 7, 9, 11];
// Semitones above the tonic → letter steps above it, and the Nashville degree written.
const STEPS = [0, 1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6];
const DEGREES = ['1', 'b2', '2', 'b3', '3', '4', '#4', '5', 'b6', '6', 'b7', '7'];
const FLATS = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B'];
const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
// The usual name of each major and minor key, by the tonic's pitch class.
const MAJOR_KEYS = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const MINOR_KEYS = ['Cm', 'C#m', 'Dm', 'Ebm', 'Em', 'Fm', 'F#m', 'Gm', 'G#m', 'Am', 'Bbm', 'Bm'];
const CATALOGUE_ROOTS = new Set([...FLATS, ...SHARPS]);
// A chord's root may also be Cb, Fb, E# or B# (a name the spelling above never picks, but reads).
const CHORD_ROOT = /^[A-G][#b]?$/;

const mod12 = (n) => ((n % 12) + 12) % 12;

// parseKey reads a board key ("Eb", "F#m"): {name, tonic (its root name), pc, minor, flats}, or null.
export function parseKey(key) {
  const m = /^([A-G][#b]?)(m?)$/.exec(key || '');
  if (!m || !CATALOGUE_ROOTS.has(m[1])) return null;
  const pc = pitchClass(m[1]);
  const minor = m[2] === 'm';
  return { name: key, tonic: m[1], pc, minor, flats: usesFlats(m[1], pc, minor) };
}

// usesFlats: the key signature has flats (F, B♭ … and their relative minors); C and Am count as flat,
// the side a chromatic chord in C usually takes (B♭, E♭, A♭).
function usesFlats(tonic, pc, minor) {
  if (tonic.endsWith('b')) return true;
  if (tonic.endsWith('#')) return false;
  const major = minor ? mod12(pc + 3) : pc;
  return [0, 5].includes(major); // C, F (Am, Dm) — every other natural tonic has sharps
}

// keyName is the usual name of the key whose tonic has pitch class pc.
export function keyName(pc, minor) {
  return (minor ? MINOR_KEYS : MAJOR_KEYS)[mod12(pc)];
}

// spell names pitch class pc in key (a parseKey result).
export function spell(pc, key) {
  const interval = mod12(pc - key.pc);
  const letter = (LETTERS.indexOf(key.tonic[0]) + STEPS[interval]) % 7;
  const acc = mod12(pc - NATURAL[letter]);
  const name = LETTERS[letter] + (acc === 0 ? '' : acc === 1 ? '#' : acc === 11 ? 'b' : '?');
  if (CATALOGUE_ROOTS.has(name)) return name;
  return (key.flats ? FLATS : SHARPS)[mod12(pc)];
}

// guessKey is the key a board without one seems to be in: its first chord (minor when that chord is), a
// line's when it has no bars.
export function guessKey(content) {
  const bars = (content?.sections || []).flatMap((s) => (s.bars || []).map((bar) => barForm(bar).chords));
  for (const chords of [...bars, lineChords(content)]) {
    for (const sym of chords) {
      if (sym === NO_CHORD) continue;
      const { root, quality } = split(sym);
      const minor = quality.startsWith('m') && !quality.startsWith('maj');
      const key = parseKey(root + (minor ? 'm' : ''));
      if (key) return key;
    }
  }
  return parseKey('C');
}

// transposeSymbol moves a chord symbol by n semitones, spelled in key (the key it lands in). The root is
// named by its degree in the key; a slash bass keeps its letter distance from the root, so A7/C# in C
// becomes B7/D# in D (the bass is still the chord's third), falling back to the key's name for it.
export function transposeSymbol(symbol, n, key) {
  if (symbol === NO_CHORD) return symbol;
  const { root, quality, bass } = split(symbol);
  if (!CHORD_ROOT.test(root)) return symbol;
  const newRoot = spell(mod12(pitchClass(root) + n), key);
  if (!bass) return newRoot + quality;
  const b = bass.slice(1);
  const pc = mod12(pitchClass(b) + n);
  const letter = (LETTERS.indexOf(newRoot[0]) + letterDistance(root, b)) % 7;
  const name = LETTERS[letter] + ACCIDENTAL[mod12(pc - NATURAL[letter])];
  return `${newRoot}${quality}/${CATALOGUE_ROOTS.has(name) ? name : spell(pc, key)}`;
}

// once is fn working each symbol out once: a board repeats a few chords hundreds of times (a long
// song's lines 800 chords of eight symbols), and a view's step maps every one of them.
function once(fn) {
  const seen = new Map();
  return (sym) => {
    let out = seen.get(sym);
    if (out === undefined) {
      out = fn(sym);
      seen.set(sym, out);
    }
    return out;
  };
}

// mapSection maps every chord of a section, its bars' and its lines' (lyrics-content.js).
const mapSection = (s, fn) => mapLines({ ...s, bars: (s.bars || []).map((bar) => mapChords(bar, fn)) }, fn);

const ACCIDENTAL = { 0: '', 1: '#', 11: 'b' };
const letterDistance = (from, to) => (LETTERS.indexOf(to[0]) - LETTERS.indexOf(from[0]) + 7) % 7;

// numberSymbol writes a chord as a Nashville number in key: "6m7", "b7", "4/5". A slash bass is
// numbered by its letter distance from the root, so A7/C# in C is 67/#1 (not 67/b2).
export function numberSymbol(symbol, key) {
  if (symbol === NO_CHORD) return symbol;
  const { root, quality, bass } = split(symbol);
  if (!CHORD_ROOT.test(root)) return symbol;
  const label = DEGREES[mod12(pitchClass(root) - key.pc)];
  if (!bass) return label + quality;
  const b = bass.slice(1);
  const degree = ((Number(label.replace(/[b#]/, '')) - 1 + letterDistance(root, b)) % 7) + 1;
  const acc = ACCIDENTAL[mod12(pitchClass(b) - key.pc - NATURAL[degree - 1])];
  return `${label}${quality}/${acc === undefined ? DEGREES[mod12(pitchClass(b) - key.pc)] : acc + degree}`;
}

// semitonesTo is the shortest move (−5 … +6) from one key to another of any mode's tonic.
export function semitonesTo(fromKey, toKey) {
  const from = parseKey(fromKey);
  const to = parseKey(toKey);
  if (!from || !to) return 0;
  const d = mod12(to.pc - from.pc);
  return d > 6 ? d - 12 : d;
}

// transposeContent moves a board by n semitones: every chord and the key, spelled in the new key
// (toKey when the user chose its name, else the usual name). A board without a key keeps none.
export function transposeContent(content, n, toKey) {
  const from = parseKey(content.key) || guessKey(content);
  const name = toKey && parseKey(toKey)?.pc === mod12(from.pc + n) ? toKey : keyName(from.pc + n, from.minor);
  const key = parseKey(name);
  const move = once((sym) => transposeSymbol(sym, n, key));
  const out = { ...content, sections: content.sections.map((s) => mapSection(s, move)) };
  if (content.key) out.key = name;
  return out;
}

// INSTRUMENTS are the transposing instruments a view can be written for: how far above concert pitch
// their part is written (B♭ trumpet, clarinet, tenor sax: a major second; E♭ alto and baritone sax: a
// major sixth; F horn: a fifth). Only the pitch class matters to a chord chart.
export const INSTRUMENTS = { Bb: 2, Eb: 9, F: 7 };

// view is what the page shows for the view settings {transpose, toKey, capo, numbers, instrument}:
//   sounding  the board as it sounds (transposed, not capoed): what the player plays
//   shown     what the grid shows: the sounding board written for the instrument, or its shapes under
//             the capo, or numbers
//   soundingKey, shapesKey  key names ('' when the board has no key); shapesKey is the shown chords'
//   instrument  the instrument the chords are written for ('' for concert pitch)
//   needsKey  numbers were asked for on a board without a key (the grid then shows chords)
// With short, the shown chords write their qualities with the short signs (∆7, ø7, °7: notation.js).
export function view(content, { transpose = 0, toKey = '', capo = 0, numbers = false, instrument = '', short = false } = {}) {
  const key = parseKey(content.key);
  const n = key && toKey ? semitonesTo(content.key, toKey) : transpose;
  const sounding = n ? transposeContent(content, n, toKey) : content;
  const soundingKey = key ? sounding.key : '';
  let shown = sounding;
  let shapesKey = soundingKey;
  const written = numbers && key ? '' : INSTRUMENTS[instrument] ? instrument : '';
  if (numbers && key) {
    const number = once((sym) => numberSymbol(sym, key));
    shown = { ...content, sections: content.sections.map((s) => mapSection(s, number)) };
  } else if (written || capo) {
    // An instrument's part is written up from concert pitch; a capo's shapes down from the sound.
    shown = transposeContent(sounding, (INSTRUMENTS[written] || 0) - capo);
    shapesKey = key ? shown.key : '';
  }
  if (short) {
    const abbreviate = once((sym) => {
      const { root, quality, bass } = split(sym);
      return root + shortQuality(quality) + bass;
    });
    shown = { ...shown, sections: shown.sections.map((s) => mapSection(s, abbreviate)) };
  }
  return { sounding, shown, soundingKey, shapesKey, instrument: written, semitones: n, needsKey: Boolean(numbers && !key) };
}
