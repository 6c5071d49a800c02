// @ts-check
// Where a lyric line's chords stand and where the line may wrap: pure text logic, no DOM (node's unit
// tests import it). A line is {text, chords: [{at, chord}]} with `at` in UTF-16 code units, which is
// what a JS string index already counts (docs/content.md).
//
// A line is cut into pieces: a piece starts at each chord (the chord stands over the first syllable
// of its piece) and at each place the line may wrap. Pieces between two wrap places make a word,
// drawn unbreakable, so a chord and its syllable always wrap together; the chord row and the text row
// of a piece are one box as wide as the wider of the two, so a chord wider than its syllables pushes
// the words apart instead of running into the next chord.

// A place inside a character that shows as one (a surrogate pair, an emoji sequence, a letter and its
// accents) is not a place a chord can stand: it moves to that character's start. The segmenter is made
// the first time a line needs it: making it loads the browser's segmentation rules, about 30 ms on a
// page's first load, which a board of bars or of Latin words (below) never needs.
/** @type {Intl.Segmenter | null | undefined} */
let graphemes;
function segmenter() {
  if (graphemes === undefined) graphemes = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  return graphemes;
}

// Below U+0300 (Latin letters, their accented forms, punctuation) every character is a grapheme of its
// own: no combining marks, no surrogates, and a line holds no CR LF. A line of such text is most of a
// Western songbook, and the segmenter's cost is most of the cost of drawing it.
const SIMPLE = /^[^\r\u0300-\uffff]*$/;

function clusterStarts(text) {
  const starts = new Set([0, text.length]);
  const cut = segmenter();
  if (cut) {
    for (const g of cut.segment(text)) starts.add(g.index);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0)) starts.add(i);
  }
  return starts;
}

// Scripts written without spaces (Han, kana, Hangul, fullwidth forms) wrap between any two characters,
// except before the punctuation that closes a phrase.
const WIDE = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{3ffff}]/u;
const CLOSES = /^[、。，．！？：；」』）】〉》〕\]）!?,.;:)]/u;

// wrapPlaces lists the offsets where the line may wrap (a new row starts with the character there):
// after a run of spaces, and beside a character of a script without spaces.
export function wrapPlaces(text) {
  const out = [];
  // Simple text (above) has no character of a script without spaces: it wraps after spaces alone.
  if (SIMPLE.test(text)) {
    for (let p = 1; p < text.length; p++) if (/\s/.test(text[p - 1]) && !/\s/.test(text[p])) out.push(p);
    return out;
  }
  const starts = [...clusterStarts(text)].sort((a, b) => a - b);
  for (let k = 1; k < starts.length - 1; k++) {
    const p = starts[k];
    const before = text.slice(starts[k - 1], p);
    const after = text.slice(p, starts[k + 1]);
    if (/\s$/.test(before) && !/^\s/.test(after)) out.push(p);
    else if ((WIDE.test(before) || WIDE.test(after)) && !/^\s/.test(after) && !/\s$/.test(before) && !CLOSES.test(after)) out.push(p);
  }
  return out;
}

// placeChords is the line's chords at the places they can stand: each offset clamped to the text and
// moved back to the start of the character it falls in; never before the chord before it.
export function placeChords(line) {
  const text = line.text || '';
  // In simple text (above) every offset is a character's start.
  const starts = SIMPLE.test(text) ? null : clusterStarts(text);
  let last = 0;
  return (line.chords || []).map(({ at, chord }) => {
    let p = Math.max(0, Math.min(Number.isInteger(at) ? at : 0, text.length));
    while (starts && !starts.has(p)) p--;
    p = Math.max(p, last);
    last = p;
    return { at: p, chord };
  });
}

// layoutLine cuts a line into words of pieces: [[{at, text, chord?, joined?}]]. A piece has a chord
// when one stands at its start; joined marks a piece that ends inside a word (the next piece goes on
// the same word), where a songbook draws a hyphen if the chord pushes the syllables apart. Two chords
// at one place (moved there from inside a character) each get a piece, the first with no text.
export function layoutLine(line) {
  const text = line.text || '';
  const chords = placeChords(line);
  const wraps = new Set(wrapPlaces(text));
  const cuts = [...new Set([0, ...chords.map((c) => c.at), ...wraps, text.length])].sort((a, b) => a - b);
  const words = [];
  let word = null;
  let c = 0;
  for (let k = 0; k < cuts.length; k++) {
    const at = cuts[k];
    const end = k + 1 < cuts.length ? cuts[k + 1] : text.length;
    if (at === text.length && at !== 0 && !(c < chords.length && chords[c].at === at)) break;
    if (!word || wraps.has(at)) {
      word = [];
      words.push(word);
    }
    // Chords stacked on one place: all but the last stand over no text.
    while (c < chords.length - 1 && chords[c].at === at && chords[c + 1].at === at) word.push({ at, text: '', chord: chords[c++].chord });
    const piece = { at, text: text.slice(at, end) };
    if (c < chords.length && chords[c].at === at) piece.chord = chords[c++].chord;
    word.push(piece);
  }
  for (const w of words) {
    for (let k = 0; k < w.length - 1; k++) {
      if (w[k].text && !/\s$/.test(w[k].text) && w[k + 1].text && !/^\s/.test(w[k + 1].text)) w[k].joined = true;
    }
  }
  return words;
}

// hasChords: a line without chords is drawn as words alone, with no empty chord row above it.
export function hasChords(line) {
  return Array.isArray(line?.chords) && line.chords.length > 0;
}

// wordsWidth is the width of a line laid out (layoutLine) in the width of a narrow letter: each piece as
// wide as the wider of its text (a character of a script written without spaces counts two) and its
// chord (with the room after it). The page's estimate of a section's height before it is drawn
// (lyrics.css) guesses from it how many rows a line wraps to.
export function wordsWidth(words) {
  let width = 0;
  for (const word of words) {
    for (const { text, chord } of word) {
      let letters = text.length;
      // Simple text (above) has no character of a script without spaces to count twice.
      if (!SIMPLE.test(text)) for (const ch of text) if (WIDE.test(ch)) letters++;
      width += Math.max(letters, chord ? chord.length + 1 : 0);
    }
  }
  return width;
}
