// @ts-check
// How a chord symbol is typeset on the grid and on paper, as printed charts write it: ♭ and ♯ glyphs
// for the accidentals of the root, the bass and the quality's alterations (B♭7♭9, F♯m7/C♯), and a
// Nashville number's quality raised over the number (1⁷, ♭7⁷, 2m⁷) so that 17 no longer reads as
// seventeen. The stored spelling stays ASCII (Bb7b9): a glyph is drawn by CSS over its ASCII letter
// (notation.css), so the chord's text, what a copy takes and what a screen reader reads is the symbol
// as typed; a number's spoken name (spokenChord) keeps the number apart from its quality.
// Pure text logic: node's unit tests import it.

const GLYPH = { b: '♭', '#': '♯' };

// pieces splits a part of a chord (kind root, q or bass) into text and accidentals: strings stay text,
// {acc} is an accidental ('b' or '#'). A root's or a bass's b/# is always one (Bb, b7, /F#, /#1); a
// quality's is one where a degree follows (7b9, maj7#11), never the letters of a word (sus, dim).
export function pieces(kind, text) {
  const re = kind === 'q' ? /[b#](?=\d)/g : kind === 'root' ? /(?<=^[A-G])[b#]|^[b#](?=[1-7])/g : /(?<=^\/[A-G]?)[b#]/g;
  const out = [];
  let at = 0;
  // exec, not matchAll: matchAll copies the pattern on every call, and a long song types thousands.
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push({ acc: m[0] });
    at = m.index + 1;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export const isNumber = (root) => /^[b#]?[1-7]$/.test(root);

// raised splits a Nashville number's quality into what stays on the line (the triad's word: m, dim,
// maj, sus …) and what is raised (from the first degree on): 'm7' → ['m', '7'], '7sus4' → ['', '7sus4'].
export function raised(quality) {
  const m = /^(.*?)([b#]?\d.*)?$/.exec(quality);
  return [m[1], m[2] || ''];
}

// shown is a part's text as drawn (the glyphs in place of b and #), for measuring it.
export function shown(kind, text) {
  return pieces(kind, text).map((p) => (typeof p === 'string' ? p : GLYPH[p.acc])).join('');
}

// keyText is a key as a chart's head writes it, with the glyphs (B♭, F♯m); the stored key stays ASCII.
export function keyText(key) {
  return shown('root', key);
}

// spokenChord is a chord as a screen reader should say it: a letter chord as written; a Nashville
// number with its accidental as a glyph (read "flat") and its quality apart, "♭7 7", "2 m7", "5 7 / 7".
export function spokenChord({ root, quality, bass }) {
  if (!isNumber(root)) return root + quality + bass;
  const glyphs = (s) => s.replace(/[b#](?=\d)/g, (c) => GLYPH[c]);
  return [glyphs(root), quality, bass ? `/ ${glyphs(bass.slice(1))}` : ''].filter(Boolean).join(' ');
}

// SHORT are the signs a chart short of room writes for a quality's words (the view setting "short
// signs"): maj7 → ∆7, m7b5 → ø7, dim7 → °7, aug → +, m(maj7) → m∆7, 7sus4 → 7sus.
const SHORT = [[/^m\(maj7\)|^mMaj7|^mmaj7/, 'm∆7'], [/^maj/, '∆'], [/^m7b5/, 'ø7'], [/^dim/, '°'], [/^aug/, '+'], [/sus4$/, 'sus']];

// shortQuality writes a quality with the short signs.
export function shortQuality(quality) {
  return SHORT.reduce((q, [re, sign]) => q.replace(re, sign), quality);
}

export { GLYPH };
