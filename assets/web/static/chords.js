// The chord catalogue (docs/content.md) on the page: parsing typed symbols ("Am7", "F#m7b5/C#", "N.C."),
// writing them in the catalogue's spelling ("Cø" → "Cm7b5", "B♭7" → "Bb7"), suggesting a chord for a
// symbol it refuses ("Cø7" → "Cm7b5"), splitting symbols for display, and voicing them for the player
// from the catalogue's intervals. The aliases and accidentals come from GET /api/catalogue, so the page
// and the server accept the same spellings; the rules mirror board/catalogue.go and board/suggest.go,
// and both are tested against board/testdata/chord-spellings.json.

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

// Enharmonic spellings the catalogue leaves out, as a musician would fix them.
const ENHARMONIC = { Cb: 'B', Fb: 'E', 'E#': 'F', 'B#': 'C' };

export class Catalogue {
  // doc is GET /api/catalogue: {roots: [{name}], qualities: [{suffix, intervals}], aliases: [{alias,
  // suffix}], accidentals: [{alias, suffix}], noChord}.
  constructor(doc) {
    this.roots = [];
    this.qualities = new Map(); // suffix → intervals, in catalogue order
    this.aliases = new Map(); // alias → suffix, in catalogue order
    this.accidentals = []; // [[character, replacement]]
    for (const r of doc?.roots || []) if (typeof r?.name === 'string') this.roots.push(r.name);
    for (const q of doc?.qualities || []) {
      if (typeof q?.suffix === 'string' && Array.isArray(q.intervals)) this.qualities.set(q.suffix, q.intervals);
    }
    for (const a of doc?.aliases || []) {
      if (typeof a?.alias === 'string' && this.qualities.has(a.suffix)) this.aliases.set(a.alias, a.suffix);
    }
    for (const a of doc?.accidentals || []) {
      if (typeof a?.alias === 'string' && typeof a.suffix === 'string') this.accidentals.push([a.alias, a.suffix]);
    }
    this.rootSet = new Set(this.roots);
    this.order = new Map([...this.qualities.keys()].map((q, i) => [q, i]));
  }

  get ready() {
    return this.roots.length > 0 && this.qualities.size > 0;
  }

  plain(s) {
    for (const [ch, to] of this.accidentals) s = s.split(ch).join(to);
    return s;
  }

  // qualityOf: the catalogue suffix a typed quality stands for, or undefined.
  qualityOf(typed) {
    return this.qualities.has(typed) ? typed : this.aliases.get(typed);
  }

  // parse a symbol in any accepted spelling: {root, quality, bass, intervals, symbol} in the catalogue's
  // spelling, {nc: true, symbol}, or null when the catalogue refuses it.
  parse(symbol) {
    if (symbol === NO_CHORD) return { nc: true, symbol };
    if (typeof symbol !== 'string' || symbol === '') return null;
    const s = this.plain(symbol);
    let main = s;
    let bass = '';
    const slash = s.lastIndexOf('/');
    if (slash >= 0 && this.rootSet.has(s.slice(slash + 1))) {
      bass = s.slice(slash + 1);
      main = s.slice(0, slash);
    }
    // The longest root first: "C#m" is C# minor, "Ab5" is A-flat five.
    for (const n of [2, 1]) {
      if (main.length < n || (n === 2 && main[1] !== '#' && main[1] !== 'b')) continue;
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
    if (/^n\.?c\.?$/i.test(token)) return NO_CHORD;
    const direct = this.parse(token);
    if (direct) return direct.symbol;
    const fixed = token.charAt(0).toUpperCase() + token.slice(1);
    const slash = fixed.lastIndexOf('/');
    const withBass =
      slash > 0 ? fixed.slice(0, slash + 1) + fixed.charAt(slash + 1).toUpperCase() + fixed.slice(slash + 2) : fixed;
    return this.parse(withBass)?.symbol ?? token;
  }

  // suggest proposes a chord for a symbol the catalogue refuses, or '' when nothing is near enough; the
  // same rules as the server's SuggestChord (board/suggest.go).
  suggest(symbol) {
    if (this.parse(symbol)) return '';
    const s = this.plain(symbol).split(' ').join('');
    if (['NC', 'N.C', 'NC.', 'N.C.'].includes(s.toUpperCase())) return NO_CHORD;
    let main = s;
    let bass = '';
    const slash = s.lastIndexOf('/');
    if (slash >= 0) {
      const b = this.fixRoot(s.slice(slash + 1));
      if (b) {
        main = s.slice(0, slash);
        bass = b;
      }
    }
    let root = '';
    let rest = '';
    if (main.length >= 2 && (main[1] === '#' || main[1] === 'b')) {
      const r = this.fixRoot(main.slice(0, 2));
      if (r) [root, rest] = [r, main.slice(2)];
    }
    if (!root && main.length >= 1) {
      const r = this.fixRoot(main.slice(0, 1));
      if (r) [root, rest] = [r, main.slice(1)];
    }
    if (!root) return '';
    const quality = this.nearestQuality(rest);
    if (quality === undefined) return '';
    const out = root + quality + (bass ? `/${bass}` : '');
    return this.parse(out) && out !== symbol ? out : '';
  }

  // fixRoot: the catalogue root a typed root means (its case, a German H, Cb Fb E# B#), or ''.
  fixRoot(typed) {
    if (!typed || typed.length > 2) return '';
    let letter = typed[0];
    if (letter >= 'a' && letter <= 'h') letter = letter.toUpperCase();
    if (letter === 'H') letter = 'B';
    const name = letter + typed.slice(1);
    if (ENHARMONIC[name]) return ENHARMONIC[name];
    return this.rootSet.has(name) ? name : '';
  }

  // nearestQuality: fewest edits (at most two, and fewer than typed has characters), then the longest
  // common beginning, then a suffix before an alias, then the catalogue's order.
  nearestQuality(typed) {
    const n = [...typed].length;
    let best;
    let bestRank = null;
    const consider = (spelling, suffix, alias) => {
      const d = editDistance(typed, spelling);
      if (d > 2 || (d > 0 && d >= n)) return;
      const rank = [d, -commonPrefix(typed, spelling), alias, this.order.get(suffix)];
      if (!bestRank || less(rank, bestRank)) [best, bestRank] = [suffix, rank];
    };
    for (const q of this.qualities.keys()) consider(q, q, 0);
    for (const [a, q] of this.aliases) consider(a, q, 1);
    return best;
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
