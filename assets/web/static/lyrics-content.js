// A section's lines of words (content schema version 3, docs/content.md) as the page holds them: pure
// content logic, no DOM (node's unit tests import it).
//
// The page's bar code (grid, player, form, ops) reads every section's `bars`; a section of words alone
// may have none on the wire. The page holds it with `bars: []` (withBars, as a board arrives) and
// writes it back without (forSave, as it is sent), so nothing that counts bars needs to know lines exist.

// withBars is content with every section holding a bars array (content itself when every one does).
export function withBars(content) {
  const secs = content?.sections;
  if (!Array.isArray(secs) || secs.every((s) => Array.isArray(s.bars))) return content;
  return { ...content, sections: secs.map((s) => (Array.isArray(s.bars) ? s : { ...s, bars: [] })) };
}

// forSave is content as it is sent: a section's empty bars are left out where it has lines or recalls.
export function forSave(content) {
  const secs = content?.sections;
  if (!Array.isArray(secs) || !secs.some((s) => Array.isArray(s.bars) && s.bars.length === 0 && (hasLines(s) || recallOf(s)))) return content;
  return {
    ...content,
    sections: secs.map((s) => {
      if (!(Array.isArray(s.bars) && s.bars.length === 0 && (hasLines(s) || recallOf(s)))) return s;
      const { bars: _, ...rest } = s;
      return rest;
    }),
  };
}

export const hasLines = (s) => Array.isArray(s?.lines) && s.lines.length > 0;

// recallOf names the section a recall stands for (ChordPro's {chorus}: "sing the chorus again"), or ''.
// A recall is drawn as the word "Chorus" in the page's language, never as a copy of the chorus.
export function recallOf(s) {
  const r = s?.recall;
  if (typeof r === 'string') return r || 'chorus';
  return r ? 'chorus' : '';
}

// lyricOnly: a section the player shows and does not play (words, no bars).
export const lyricOnly = (s) => (!Array.isArray(s?.bars) || s.bars.length === 0) && (hasLines(s) || Boolean(recallOf(s)));

// mapLines is a section with each chord of its lines mapped by fn (transposition, numbers, short signs);
// a section without lines is returned as it is.
export function mapLines(s, fn) {
  if (!hasLines(s)) return s;
  return { ...s, lines: s.lines.map((l) => (l.chords?.length ? { ...l, chords: l.chords.map((c) => ({ ...c, chord: fn(c.chord) })) } : l)) };
}

// lineChords lists a content's line chords in order (a key guess reads them when there are no bars).
export function lineChords(content) {
  return (content?.sections || []).flatMap((s) => (hasLines(s) ? s.lines.flatMap((l) => (l.chords || []).map((c) => c.chord)) : []));
}

// lineText writes a line as ChordPro writes it ("[G]Amazing [C]grace"): how a changed line is named in
// a list of changes and how two versions of a line are compared.
export function lineText(line) {
  const text = line?.text || '';
  let out = '';
  let at = 0;
  for (const c of line?.chords || []) {
    const p = Math.max(at, Math.min(c.at, text.length));
    out += `${text.slice(at, p)}[${c.chord}]`;
    at = p;
  }
  return out + text.slice(at);
}

// parseLineText reads a line written as lineText writes it (the line editor's field): {text, chords}.
// A bracket that does not close is text.
export function parseLineText(s) {
  let text = '';
  const chords = [];
  const re = /\[([^\[\]\s][^\[\]]*)\]/g;
  let at = 0;
  for (const m of s.matchAll(re)) {
    text += s.slice(at, m.index);
    chords.push({ at: text.length, chord: m[1].trim() });
    at = m.index + m[0].length;
  }
  text += s.slice(at);
  return { text, chords };
}

// boardWithBars is a board from the server (load, stream, save, restore) with its content held as the
// page holds it.
export function boardWithBars(board) {
  if (!board?.content) return board;
  const content = withBars(board.content);
  return content === board.content ? board : { ...board, content };
}

// A line of words is sung over about two bars, when a song says no better.
const BARS_A_LINE = 2;

// readingSpeed is the autoscroll's speed in CSS px a second for content drawn in height px of words
// (sections of words alone): those lines sung at the song's tempo, BARS_A_LINE bars of its meter each.
export function readingSpeed(content, height) {
  const lines = (content?.sections || []).filter(lyricOnly).reduce((n, s) => n + (s.lines?.length || 1), 0);
  const tempo = Number.isFinite(content?.tempo) ? content.tempo : 100;
  const seconds = (lines * BARS_A_LINE * (content?.beatsPerBar || 4) * 60) / tempo;
  if (!lines || !seconds || !height) return 0;
  return height / seconds;
}
