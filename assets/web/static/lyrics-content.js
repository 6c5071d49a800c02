// @ts-check
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

// recalledLines are the lines section i repeats when it is a recall: those of the nearest section
// before it whose role is chorus; none otherwise.
export function recalledLines(content, i) {
  const secs = content?.sections || [];
  if (!recallOf(secs[i])) return [];
  for (let j = i - 1; j >= 0; j--) if (secs[j].role === 'chorus') return hasLines(secs[j]) ? secs[j].lines : [];
  return [];
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
  // A recall is sung as the chorus it repeats (at least a line when there is none before it).
  const secs = content?.sections || [];
  const lines = secs.reduce((n, s, i) => n + (!lyricOnly(s) ? 0 : recallOf(s) ? Math.max(1, recalledLines(content, i).length) : s.lines.length), 0);
  const tempo = Number.isFinite(content?.tempo) ? content.tempo : 100;
  const seconds = (lines * BARS_A_LINE * (content?.beatsPerBar || 4) * 60) / tempo;
  if (!lines || !seconds || !height) return 0;
  return height / seconds;
}

// ---- edits of lines (content.js's ops; docs in content.js) ----
// {t: 'line', s, k, line}: line k of section s becomes line; {t: 'insertLine', s, k, line}: a line goes in
// at k (a section without lines gets its first); {t: 'removeLine', s, k}.

// applyLineOp changes content in place as a line op says; false when its place does not exist (or the
// op is not a line op).
export function applyLineOp(content, op) {
  const sec = content.sections?.[op.s];
  if (!sec) return false;
  const lines = Array.isArray(sec.lines) ? sec.lines : [];
  switch (op.t) {
    case 'line':
      if (op.k >= lines.length) return false;
      lines[op.k] = storedLine(op.line);
      return true;
    case 'insertLine':
      if (op.k > lines.length) return false;
      lines.splice(op.k, 0, storedLine(op.line));
      sec.lines = lines;
      return true;
    case 'removeLine':
      if (op.k >= lines.length) return false;
      lines.splice(op.k, 1);
      if (lines.length) sec.lines = lines;
      else delete sec.lines;
      return true;
    default:
      return false;
  }
}

// storedLine is a line as the server stores it: a line without chords has no chords member.
function storedLine(line) {
  const out = { text: line.text };
  if (line.chords?.length) out.chords = line.chords.map((c) => ({ at: c.at, chord: c.chord }));
  return out;
}

// sameLine: typing into one line makes one op.
export const sameLine = (a, b) => a.t === 'line' && b.t === 'line' && a.s === b.s && a.k === b.k;

// diffLines lists what differs between the lines of two versions of a section, as i18n entries (the
// revision view's and the "what changed" lists): each line changed in place, and a change of count.
export function diffLines(sa, sb, name) {
  const a = sa?.lines || [];
  const b = sb?.lines || [];
  const out = [];
  if (a.length !== b.length) out.push(['chg.lineCount', { name, from: a.length, to: b.length }]);
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const from = lineText(a[k]);
    const to = lineText(b[k]);
    if (from !== to) out.push(['chg.line', { name, n: k + 1, from, to }]);
  }
  if ((sa?.recall || '') !== (sb?.recall || '')) out.push(['chg.recall', { name }]);
  return out;
}

// lineConflicts lists the lines both sides changed: for each of the user's line edits whose line was
// changed between base and theirs to something else, {op, s, k, theirs, mine} (lines as lineText
// writes them). As for bars, only a line whose place is the same on both sides is compared.
export function lineConflicts(base, theirs, ops) {
  const out = [];
  for (const op of ops) {
    if (op.t !== 'line') continue;
    const a = base.sections?.[op.s]?.lines;
    const t = theirs.sections?.[op.s]?.lines;
    if (!a || !t || a.length !== t.length || op.k >= t.length) continue;
    const was = lineText(a[op.k]);
    const now = lineText(t[op.k]);
    const mine = lineText(op.line);
    if (was !== now && now !== mine) out.push({ op, s: op.s, k: op.k, theirs: now, mine });
  }
  return out;
}

// describeLineOp names a line op that could not be re-applied, as an i18n entry; null for other ops.
export function describeLineOp(op, s) {
  const p = { s, n: op.k + 1 };
  if (op.t === 'line') return ['op.line', { ...p, text: lineText(op.line) }];
  if (op.t === 'insertLine') return ['op.insertLine', p];
  if (op.t === 'removeLine') return ['op.removeLine', p];
  return null;
}

// markedLines is what the revision view shows of a section's lines: each line as lineText writes it and
// how it differs from the line at its place in other ('changed', 'added', 'removed', '' when the same).
export function markedLines(sec, other) {
  const a = sec?.lines || [];
  const b = other?.lines || [];
  const out = [];
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const mark = !a[k] ? 'removed' : !b[k] ? 'added' : lineText(a[k]) !== lineText(b[k]) ? 'changed' : '';
    out.push({ mark, text: lineText(a[k] || b[k]) });
  }
  return out;
}
