// @ts-check
// The chord catalogue (docs/content.md) on the page: parsing typed symbols ("Am7", "F#m7b5/C#", "N.C."),
// writing them in the catalogue's spelling ("Cø" → "Cm7b5", "B♭7" → "Bb7", "C^7" → "Cmaj7"), suggesting
// a chord for a symbol it refuses ("h7" → "B7"), splitting symbols for display, and voicing them for the
// player from the catalogue's intervals. The roots, qualities, aliases and no-chord spellings come from
// GET /api/catalogue, so the page and the server accept the same spellings; the rules mirror the Go
// package chord (parse.go, read.go, suggest.go), and both are tested against
// chord/testdata/chord-spellings.json.

export const NO_CHORD = 'N.C.';

const PITCH = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

// pitchClass of a root name such as "F#" or "Bb".
export function pitchClass(root) {
  let pc = PITCH[root[0]];
  for (const acc of root.slice(1)) pc += acc === '#' ? 1 : acc === 'b' ? -1 : 0;
  return (pc + 12) % 12;
}

// split divides a symbol for display without needing the catalogue: root, quality, "/bass". A "/"
// followed by anything but a root is part of the quality ("C6/9"). Nashville numbers split alike
// ("b7", "6m7", "5/7").
export function split(symbol) {
  if (symbol === NO_CHORD) return { root: symbol, quality: '', bass: '' };
  const m = /^([A-G][#b]?|[b#]?[1-7])(.*?)(\/(?:[A-G][#b]?|[b#]?[1-7]))?$/.exec(symbol);
  if (!m) return { root: symbol, quality: '', bass: '' };
  return { root: m[1], quality: m[2], bass: m[3] || '' };
}

// Tones are intervals above the root as bits of a number: bit n is n semitones (0–23).
const bit = (n) => 2 ** n;
const tonesOf = (intervals) => intervals.reduce((t, iv) => t | bit(iv), 0);
const has = (t, n) => (t & bit(n)) !== 0;
const TRIAD = tonesOf([0, 4, 7]);
const MINOR = tonesOf([0, 3, 7]);
const DIM = tonesOf([0, 3, 6]);
const AUG = tonesOf([0, 4, 8]);
const HALF_DIM = tonesOf([0, 3, 6, 10]);
const TRIAD_WORDS = [
  ['minor', MINOR], ['min', MINOR], ['mi', MINOR], ['dim', DIM], ['aug', AUG], ['+5', AUG],
  ['ø', HALF_DIM], ['Ø', HALF_DIM], ['h', HALF_DIM], ['°', DIM], ['o', DIM], ['+', AUG], ['-', MINOR], ['m', MINOR],
];
const MAJOR_WORDS = ['major', 'maj', 'Maj', 'ma', 'M', 'j', '^', 'Δ', '∆', '△'];
const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';

// read reads a quality the way chord symbols are built (chord/read.go): {tones, all (every character
// understood), any (some part understood)}.
export function read(quality) {
  let q = quality;
  let tones = TRIAD;
  let all = true;
  let any = false;
  const take = (w) => {
    if (!q.startsWith(w)) return false;
    q = q.slice(w.length);
    return true;
  };
  const skip = () => {
    while (q !== '' && '(), '.includes(q[0])) q = q.slice(1);
  };
  skip();
  if (q === 'maj' || q === 'major') return { tones, all, any: true };
  let minor = false;
  for (const [word, t] of TRIAD_WORDS) {
    // "maj7" and "ma7" are a major seventh, not minor ("mmaj7" and "madd9" are minor).
    if (word === 'm' && (q.startsWith('maj') || (q.startsWith('ma') && isDigit(q[2])))) continue;
    if (take(word)) {
      [tones, any] = [t, true];
      minor = has(t, 3) && has(t, 7);
      break;
    }
  }
  skip();
  const dim = has(tones, 6) && has(tones, 3);
  let seventh = false;
  for (const w of MAJOR_WORDS) {
    if (!q.startsWith(w)) continue;
    const rest = q.slice(w.length);
    if (!'^Δ∆△'.includes(w[0]) && !isDigit(rest[0])) continue;
    take(w);
    seventh = true;
    tones |= bit(11);
    if (take('13')) tones |= bit(14) | bit(21);
    else if (take('11')) tones |= bit(14) | bit(17);
    else if (take('9')) tones |= bit(14);
    else take('7');
    break;
  }
  if (!seventh) {
    if (take('6/9') || take('69')) seventh = ((tones |= bit(9) | bit(14)), true);
    else if (take('6')) seventh = ((tones |= bit(9)), true);
    else if (take('13')) seventh = ((tones |= bit(10) | bit(14) | bit(21)), true);
    else if (take('11')) {
      tones |= bit(10) | bit(14) | bit(17);
      if (!minor) tones &= ~bit(4); // a dominant eleventh leaves out the third
      seventh = true;
    } else if (take('9')) seventh = ((tones |= bit(10) | bit(14)), true);
    else if (take('7')) seventh = ((tones |= dim && !has(tones, 10) ? bit(9) : bit(10)), true);
    else if (tones === TRIAD && take('5')) seventh = ((tones = tonesOf([0, 7])), true);
    else if (tones === TRIAD && take('2')) seventh = ((tones = tonesOf([0, 2, 7])), true);
  }
  if (seventh) any = true;
  for (;;) {
    skip();
    if (q === '') return { tones, all, any };
    const t = alteration(tones, take);
    if (t === null) {
      all = false;
      q = q.slice(q.codePointAt(0) > 0xffff ? 2 : 1);
    } else {
      [tones, any] = [t, true];
    }
  }
}

// alteration reads one alteration, addition or suspension: the new tones, or null.
function alteration(t, take) {
  const third = bit(3) | bit(4);
  const swap = (out, inn) => (t & ~out) | inn;
  if (take('sus2')) return swap(third, bit(2));
  if (take('sus4') || take('sus')) return swap(third, bit(5));
  if (take('add9')) return t | bit(14);
  if (take('add2')) return t | bit(2);
  if (take('add11')) return t | bit(17);
  if (take('add4')) return t | bit(5);
  if (take('add13')) return t | bit(21);
  if (take('add6')) return t | bit(9);
  if (take('add3')) return t | bit(4);
  if (take('alt')) return tonesOf([0, 4, 10, 13, 15, 20]);
  if (take('b5') || take('-5')) return swap(bit(7), bit(6));
  if (take('#5') || take('+5')) return swap(bit(7), bit(8));
  if (take('b6')) return t | bit(8);
  if (take('b9') || take('-9')) return swap(bit(14), bit(13));
  if (take('#9') || take('+9')) return swap(bit(14), bit(15));
  if (take('#11') || take('+11')) return swap(bit(17), bit(18));
  if (take('b13') || take('-13')) return swap(bit(21), bit(20));
  if (take('9')) return t | bit(14);
  if (take('+')) return swap(bit(7), bit(8));
  return null;
}

// familyOf names what a chord with these tones is at heart (chord.Family): a suggestion never changes it.
export function familyOf(t) {
  const m = (t & 0xfff) | ((t >> 12) & 0xfff);
  const pc = (n) => (m & (1 << n)) !== 0;
  if (pc(4) && pc(10)) return 'dominant';
  if (pc(4) && pc(8) && !pc(7)) return 'augmented';
  if (pc(4)) return 'major';
  if (pc(3) && pc(6) && !pc(7)) return pc(10) ? 'half-diminished' : 'diminished';
  if (pc(3)) return 'minor';
  if (pc(2) || pc(5)) return 'suspended';
  return 'power';
}

export class Catalogue {
  // doc is GET /api/catalogue: {roots: [{name, key}], qualities: [{suffix, family, intervals}], aliases:
  // [{alias, suffix}], accidentals: [{alias, suffix}], noChords}.
  constructor(doc) {
    this.roots = []; // the roots a key may have, for the key picker
    this.rootSet = new Set(); // every root a chord may have
    this.qualities = new Map(); // suffix → intervals, in catalogue order
    this.family = new Map(); // suffix → family
    this.aliases = new Map(); // alias → suffix, in catalogue order
    this.accidentals = []; // [[character, replacement]]
    this.noChords = new Set();
    for (const r of doc?.roots || []) {
      if (typeof r?.name !== 'string') continue;
      this.rootSet.add(r.name);
      if (r.key !== false) this.roots.push(r.name);
    }
    for (const q of doc?.qualities || []) {
      if (typeof q?.suffix === 'string' && Array.isArray(q.intervals)) {
        this.qualities.set(q.suffix, q.intervals);
        this.family.set(q.suffix, q.family || familyOf(tonesOf(q.intervals)));
      }
    }
    for (const a of doc?.aliases || []) {
      if (typeof a?.alias === 'string' && this.qualities.has(a.suffix)) this.aliases.set(a.alias, a.suffix);
    }
    for (const a of doc?.accidentals || []) {
      if (typeof a?.alias === 'string' && typeof a.suffix === 'string') this.accidentals.push([a.alias, a.suffix]);
    }
    for (const s of doc?.noChords || [NO_CHORD]) if (typeof s === 'string') this.noChords.add(s.toUpperCase());
    this.order = new Map([...this.qualities.keys()].map((q, i) => [q, i]));
    this.suffixes = [...this.qualities.keys()];
  }

  get ready() {
    return this.rootSet.size > 0 && this.qualities.size > 0;
  }

  plain(s) {
    for (const [ch, to] of this.accidentals) s = s.split(ch).join(to);
    return s;
  }

  isNoChord(s) {
    return s.length <= NO_CHORD.length && this.noChords.has(s.toUpperCase());
  }

  // withTones: the suffix of the quality with exactly these tones, or undefined.
  withTones(t) {
    for (const [suffix, intervals] of this.qualities) if (tonesOf(intervals) === t) return suffix;
    return undefined;
  }

  // qualityOf: the catalogue suffix a typed quality stands for (a suffix, an alias, or a quality built
  // the usual way, read to exactly a catalogue quality), or undefined.
  qualityOf(typed) {
    if (this.qualities.has(typed)) return typed;
    if (this.aliases.has(typed)) return this.aliases.get(typed);
    if (/[ /]/.test(typed)) return undefined;
    const r = read(typed);
    return r.all && r.any ? this.withTones(r.tones) : undefined;
  }

  // parse a symbol in any accepted spelling: {root, quality, bass, intervals, symbol} in the catalogue's
  // spelling, {nc: true, symbol}, or null when the catalogue refuses it.
  parse(symbol) {
    if (typeof symbol !== 'string' || symbol === '') return null;
    if (this.isNoChord(symbol)) return { nc: true, symbol: NO_CHORD };
    const s = this.plain(symbol);
    let main = s;
    let bass = '';
    const slash = s.lastIndexOf('/');
    if (slash >= 0 && this.rootSet.has(s.slice(slash + 1))) {
      bass = s.slice(slash + 1);
      main = s.slice(0, slash);
    }
    // The longest root first: "C#m" is C# minor, "Ab5" is A-flat five, "Cb" C-flat.
    for (const n of [2, 1]) {
      if (main.length < n) continue;
      const root = main.slice(0, n);
      if (!this.rootSet.has(root)) continue;
      const quality = this.qualityOf(main.slice(n));
      if (quality === undefined) continue;
      return { root, quality, bass, intervals: this.qualities.get(quality), symbol: root + quality + (bass ? `/${bass}` : '') };
    }
    return null;
  }

  // normalize writes a typed token in the catalogue's spelling: "nc" → "N.C.", "am7" → "Am7", "Cø" →
  // "Cm7b5". A token the catalogue refuses is returned as typed.
  normalize(token) {
    const direct = this.parse(token);
    if (direct) return direct.symbol;
    const fixed = token.charAt(0).toUpperCase() + token.slice(1);
    const slash = fixed.lastIndexOf('/');
    const withBass =
      slash > 0 ? fixed.slice(0, slash + 1) + fixed.charAt(slash + 1).toUpperCase() + fixed.slice(slash + 2) : fixed;
    return this.parse(withBass)?.symbol ?? token;
  }

  // suggest proposes a chord for a symbol the catalogue refuses, or '' when it cannot be sure: the same
  // rules as the server's (chord.Suggest).
  suggest(symbol) {
    if (this.parse(symbol)) return '';
    const s = this.plain(symbol).split(' ').join('');
    if (this.isNoChord(s)) return NO_CHORD;
    let main = s;
    let bass = '';
    const slash = s.lastIndexOf('/');
    if (slash >= 0) {
      const b = this.fixRoot(s.slice(slash + 1));
      if (b) [main, bass] = [s.slice(0, slash), b];
    }
    const split = this.splitRoot(main);
    if (!split) return '';
    const quality = this.suggestQuality(split.rest);
    if (quality === undefined) return '';
    const out = split.root + quality + (bass ? `/${bass}` : '');
    return this.parse(out) && out !== symbol ? out : '';
  }

  // splitRoot: the typed root, fixed, and the rest: the longest root whose rest is a quality, else the
  // longest root; or null.
  splitRoot(s) {
    for (const known of [true, false]) {
      for (const n of [2, 1]) {
        if (s.length < n) continue;
        const root = this.fixRoot(s.slice(0, n));
        if (root && (!known || this.qualityOf(s.slice(n)) !== undefined)) return { root, rest: s.slice(n) };
      }
    }
    return null;
  }

  // fixRoot is the root normaliser: the root a typed root means (its letter's case, a German H), or ''.
  fixRoot(typed) {
    typed = this.plain(typed);
    if (!typed || typed.length > 2) return '';
    let letter = typed[0];
    if (letter >= 'a' && letter <= 'h') letter = letter.toUpperCase();
    if (letter === 'H') letter = 'B';
    const name = letter + typed.slice(1);
    return this.rootSet.has(name) ? name : '';
  }

  suggestQuality(typed) {
    const known = this.qualityOf(typed);
    if (known !== undefined) return known;
    const r = read(typed);
    if (r.all) return this.withTones(r.tones);
    if (!r.any) return undefined;
    return this.nearestSpelling(typed, familyOf(r.tones));
  }

  // nearestSpelling: fewest edits (at most two, and fewer than typed has characters), then the longest
  // common beginning, then a suffix before an alias, then the catalogue's order; none unless every
  // spelling that near is of one family, the family typed.
  nearestSpelling(typed, family) {
    const n = [...typed].length;
    let best;
    let bestRank = null;
    let unanimous = true;
    const consider = (spelling, suffix, alias) => {
      const d = editDistance(typed, spelling);
      if (d > 2 || (d > 0 && d >= n)) return;
      const rank = [d, -commonPrefix(typed, spelling), alias, this.order.get(suffix)];
      if (!bestRank || d < bestRank[0]) unanimous = true;
      else if (d === bestRank[0] && this.family.get(suffix) !== this.family.get(best)) unanimous = false;
      if (!bestRank || less(rank, bestRank)) [best, bestRank] = [suffix, rank];
    };
    for (const q of this.qualities.keys()) consider(q, q, 0);
    for (const [a, q] of this.aliases) consider(a, q, 1);
    return bestRank && unanimous && this.family.get(best) === family ? best : undefined;
  }

  // voicing returns MIDI notes for a symbol: a close voicing above C3 and a bass note below it.
  voicing(symbol) {
    const c = this.parse(symbol);
    if (!c || c.nc) return null;
    const rootPc = pitchClass(c.root);
    const base = 48 + rootPc; // C3..B3
    const notes = c.intervals.map((i) => base + i);
    const bass = 36 + pitchClass(c.bass || c.root);
    return { bass, notes };
  }
}

function less(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

function commonPrefix(a, b) {
  const ra = [...a];
  const rb = [...b];
  let n = 0;
  while (n < ra.length && n < rb.length && ra[n] === rb[n]) n++;
  return n;
}

// editDistance is the Levenshtein distance in characters (code points).
function editDistance(a, b) {
  const ra = [...a];
  const rb = [...b];
  let prev = Array.from({ length: rb.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ra.length; i++) {
    const cur = [i];
    for (let j = 1; j <= rb.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ra[i - 1] === rb[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[rb.length];
}

// parseBar reads typed chords for one bar: up to four symbols separated by spaces (or commas or "|"),
// written in the catalogue's spelling. unknown lists the refused ones with a suggestion ('' for none).
export function parseBar(text, catalogue) {
  const tokens = text.split(/[\s,|]+/).filter(Boolean);
  const chords = tokens.map((tok) => catalogue.normalize(tok));
  const unknown = chords
    .filter((tok) => !catalogue.parse(tok))
    .map((symbol) => ({ symbol, suggestion: catalogue.suggest(symbol) }));
  const respelled = tokens.some((tok, i) => tok !== chords[i] && catalogue.parse(chords[i]));
  return { chords, unknown, respelled };
}
