// The chord catalogue (SPEC 3.3) on the page: parsing typed symbols ("Am7", "F#m7b5/C#", "N.C."),
// splitting them for display, and voicing them for the player from the catalogue's intervals.

export const NO_CHORD = 'N.C.';

const PITCH = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

// pitchClass of a root name such as "F#" or "Bb".
export function pitchClass(root) {
  let pc = PITCH[root[0]];
  for (const acc of root.slice(1)) pc += acc === '#' ? 1 : acc === 'b' ? -1 : 0;
  return (pc + 12) % 12;
}

// split divides a symbol for display without needing the catalogue: root, quality, "/bass".
export function split(symbol) {
  if (symbol === NO_CHORD) return { root: symbol, quality: '', bass: '' };
  const m = /^([A-G][#b]?)(.*?)(\/[A-G][#b]?)?$/.exec(symbol);
  if (!m) return { root: symbol, quality: '', bass: '' };
  return { root: m[1], quality: m[2], bass: m[3] || '' };
}

export class Catalogue {
  // doc is GET /api/catalogue. Accepted shapes: {roots: [..], qualities: [{symbol|suffix, intervals}] or
  // {suffix: intervals}}, or {chords: [{symbol, intervals}]} (every root × quality spelled out).
  constructor(doc) {
    this.roots = [];
    this.qualities = new Map(); // suffix → intervals
    const rootName = (r) => (typeof r === 'string' ? r : r?.name ?? r?.symbol ?? r?.root);
    for (const r of doc?.roots || []) if (rootName(r)) this.roots.push(rootName(r));
    const qs = doc?.qualities;
    if (Array.isArray(qs)) {
      for (const q of qs) {
        const suffix = q.suffix ?? q.symbol ?? q.quality ?? q.name ?? '';
        if (Array.isArray(q.intervals)) this.qualities.set(suffix, q.intervals);
      }
    } else if (qs && typeof qs === 'object') {
      for (const [suffix, v] of Object.entries(qs)) {
        const intervals = Array.isArray(v) ? v : v?.intervals;
        if (Array.isArray(intervals)) this.qualities.set(suffix, intervals);
      }
    }
    if (this.qualities.size === 0 && Array.isArray(doc?.chords)) {
      const roots = new Set(this.roots);
      for (const c of doc.chords) {
        const { root, quality } = split(c.symbol);
        if (!roots.has(root)) {
          roots.add(root);
          this.roots.push(root);
        }
        if (Array.isArray(c.intervals) && !this.qualities.has(quality)) this.qualities.set(quality, c.intervals);
      }
    }
    // Longest root first, so "C#" wins over "C".
    this.rootsByLength = [...this.roots].sort((a, b) => b.length - a.length);
  }

  get ready() {
    return this.roots.length > 0 && this.qualities.size > 0;
  }

  // parse a symbol: {root, quality, bass, intervals}, {nc: true}, or null when it is not in the catalogue.
  parse(symbol) {
    if (symbol === NO_CHORD) return { nc: true };
    if (typeof symbol !== 'string' || symbol === '') return null;
    let main = symbol;
    let bass = '';
    const slash = symbol.lastIndexOf('/');
    if (slash > 0) {
      bass = symbol.slice(slash + 1);
      main = symbol.slice(0, slash);
      if (!this.roots.includes(bass)) return null;
    }
    // The longest root whose rest is a quality: "C#m" is C# minor, "Ab5" is A-flat five.
    for (const root of this.rootsByLength) {
      if (!main.startsWith(root)) continue;
      const quality = main.slice(root.length);
      const intervals = this.qualities.get(quality);
      if (intervals) return { root, quality, bass, intervals };
    }
    return null;
  }

  // normalize accepts common typing variants that mean exactly a catalogue symbol ("nc" → "N.C.",
  // "am7" → "Am7"); anything else is returned as typed.
  normalize(token) {
    if (/^n\.?c\.?$/i.test(token)) return NO_CHORD;
    if (this.parse(token)) return token;
    const fixed = token.charAt(0).toUpperCase() + token.slice(1);
    const slash = fixed.lastIndexOf('/');
    const withBass =
      slash > 0 ? fixed.slice(0, slash + 1) + fixed.charAt(slash + 1).toUpperCase() + fixed.slice(slash + 2) : fixed;
    return this.parse(withBass) ? withBass : token;
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

// parseBar reads typed chords for one bar: up to four symbols separated by spaces (or commas or "|").
export function parseBar(text, catalogue) {
  const tokens = text.split(/[\s,|]+/).filter(Boolean).map((tok) => catalogue.normalize(tok));
  const unknown = tokens.filter((tok) => !catalogue.parse(tok));
  return { chords: tokens, unknown };
}
