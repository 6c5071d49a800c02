// @ts-check
// Board content (docs/content.md) and the user's edits as a list of operations. The page keeps the server's
// board as the base and the user's unsaved edits as ops; the draft shown is replay(base, ops). When a
// newer revision arrives (live, or after a 412), the same ops are replayed on top of it: that is how
// an edit in progress survives other people's saves. An op whose place no longer exists is reported,
// never dropped silently.

import { ROLES, barText, withChords, writeBar } from './form.js';
import { applyLineOp, describeLineOp, diffLines, lineConflicts, sameLine } from './lyrics-content.js';

export function clone(content) {
  return structuredClone(content);
}

// The board's fields a set op writes; key and the credits (artist, composer, style) go when emptied.
const FIELDS = ['title', 'description', 'key', 'tempo', 'beatsPerBar', 'artist', 'composer', 'style'];
const OPTIONAL = ['key', 'artist', 'composer', 'style'];

// apply changes content in place; it returns false when the op's place does not exist.
export function apply(content, op) {
  const secs = content.sections;
  const sec = secs?.[op.s];
  switch (op.t) {
    case 'set':
      if (!FIELDS.includes(op.field)) return false;
      if (OPTIONAL.includes(op.field) && !op.value) delete content[op.field];
      else content[op.field] = op.value;
      return true;
    case 'label':
      if (!sec) return false;
      sec.label = op.value;
      return true;
    case 'bar':
      if (!sec || op.b >= sec.bars.length) return false;
      sec.bars[op.b] = opBar(op, sec.bars[op.b]);
      return true;
    case 'role':
      if (!sec || (op.value && !ROLES.includes(op.value))) return false;
      if (op.value) sec.role = op.value;
      else delete sec.role;
      return true;
    case 'recall': // a section that repeats the chorus (docs/content.md), or no longer
      if (!sec) return false;
      if (op.value) sec.recall = op.value;
      else delete sec.recall;
      return true;
    case 'insertBar':
      if (!sec) return false;
      sec.bars.splice(Math.min(op.b, sec.bars.length), 0, op.form ? opBar(op) : [...op.chords]);
      return true;
    case 'removeBar':
      if (!sec || op.b >= sec.bars.length) return false;
      sec.bars.splice(op.b, 1);
      return true;
    case 'moveBar': {
      if (!sec || op.b >= sec.bars.length || op.to < 0 || op.to >= sec.bars.length) return false;
      const [bar] = sec.bars.splice(op.b, 1);
      sec.bars.splice(op.to, 0, bar);
      return true;
    }
    case 'insertSection':
      secs.splice(Math.min(op.s, secs.length), 0, clone(op.section));
      return true;
    case 'removeSection':
      if (!sec) return false;
      secs.splice(op.s, 1);
      return true;
    case 'moveSection': {
      if (!sec || op.to < 0 || op.to >= secs.length) return false;
      const [moved] = secs.splice(op.s, 1);
      secs.splice(op.to, 0, moved);
      return true;
    }
    default:
      return applyLineOp(content, op); // a section's lines (lyrics-content.js)
  }
}

// opBar is the bar a bar op writes over old: its chords with old's form, or, when the op carries a
// form (from the bar editor), the chords with that form (a % bar has none of its own).
function opBar(op, old) {
  if (!op.form) return withChords(old, op.chords); // the bar's form stays
  return writeBar({ ...op.form, chords: op.form.simile ? [] : [...op.chords] });
}

// replay applies ops to a copy of content: {content, applied, dropped}.
export function replay(content, ops) {
  const out = clone(content);
  const applied = [];
  const dropped = [];
  for (const op of ops) (apply(out, op) ? applied : dropped).push(op);
  return { content: out, applied, dropped };
}

// sameTarget: typing into one field makes one op, not one per keystroke.
export function sameTarget(a, b) {
  if (!a || !b || a.t !== b.t) return false;
  if (a.t === 'set') return a.field === b.field;
  if (a.t === 'label' || a.t === 'role') return a.s === b.s;
  if (a.t === 'bar') return a.s === b.s && a.b === b.b;
  return sameLine(a, b);
}

export function sectionName(section, index) {
  return section?.label ? section.label : String(index + 1);
}

const chordsText = barText;

// diff lists what differs from a to b as i18n entries [key, params], for "what changed" lists.
/** @returns {import('./i18n.js').Entry[]} */
export function diff(a, b) {
  /** @type {import('./i18n.js').Entry[]} */
  const out = [];
  if (a.title !== b.title) out.push(['chg.title', { from: a.title, to: b.title }]);
  if ((a.description || '') !== (b.description || '')) out.push(['chg.description']);
  if ((a.key || '') !== (b.key || '')) out.push(['chg.key', { from: a.key || '—', to: b.key || '—' }]);
  if (a.tempo !== b.tempo) out.push(['chg.tempo', { from: a.tempo, to: b.tempo }]);
  if (a.beatsPerBar !== b.beatsPerBar) out.push(['chg.beats', { from: a.beatsPerBar, to: b.beatsPerBar }]);
  const as = a.sections || [];
  const bs = b.sections || [];
  if (as.length !== bs.length) out.push(['chg.sections', { from: as.length, to: bs.length }]);
  let barNo = 0;
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const sa = as[i];
    const sb = bs[i];
    if (sa.label !== sb.label) out.push(['chg.label', { n: i + 1, from: sa.label, to: sb.label }]);
    if ((sa.role || '') !== (sb.role || '')) out.push(['chg.role', { n: i + 1, from: sa.role || '—', to: sb.role || '—' }]);
    const name = sectionName(sb, i);
    const ba = sa.bars || []; // a section of words alone may come without bars (a revision as stored)
    const bb = sb.bars || [];
    if (ba.length !== bb.length) {
      out.push(['chg.barCount', { name, from: ba.length, to: bb.length }]);
    }
    for (let j = 0; j < Math.min(ba.length, bb.length); j++) {
      if (chordsText(ba[j]) !== chordsText(bb[j])) {
        out.push(['chg.bar', { name, n: barNo + j + 1, from: chordsText(ba[j]), to: chordsText(bb[j]) }]);
      }
    }
    out.push(...diffLines(sa, sb, name));
    barNo += bb.length;
  }
  return out;
}

// describeOp names an op that could not be re-applied, as an i18n entry: its section as the page names
// it (its label, or its number when it has none) in content, the draft it was made on; bars count from 1
// within the section, as the user saw them.
/** @returns {import('./i18n.js').Entry} */
export function describeOp(op, content) {
  const p = { s: sectionName(content?.sections?.[op.s], op.s), b: op.b + 1 };
  const line = describeLineOp(op, p.s);
  if (line) return /** @type {import('./i18n.js').Entry} */ (line);
  switch (op.t) {
    case 'label':
      return ['op.label', { ...p, value: op.value }];
    case 'bar':
      return ['op.bar', { ...p, chords: op.chords.join(' ') }];
    case 'insertBar':
      return ['op.insertBar', p];
    case 'removeBar':
      return ['op.removeBar', p];
    case 'moveBar':
      return ['op.moveBar', p];
    case 'removeSection':
      return ['op.removeSection', p];
    case 'moveSection':
      return ['op.moveSection', p];
    default:
      return ['op.other', p];
  }
}

// nextLabel suggests a rehearsal letter for a new section: the first of A…Z not yet used.
export function nextLabel(content) {
  const used = new Set((content.sections || []).map((s) => s.label));
  for (let c = 65; c <= 90; c++) {
    const l = String.fromCharCode(c);
    if (!used.has(l)) return l;
  }
  return '';
}

// Paths of the API's validation errors ("sections[1].bars[3][0]") and their parents, most precise first.
export function pathCandidates(path) {
  const out = [];
  let p = path || '';
  while (p) {
    out.push(p);
    const cut = Math.max(p.lastIndexOf('['), p.lastIndexOf('.'));
    if (cut <= 0) break;
    p = p.slice(0, cut);
  }
  return out;
}

// The most bars a board holds (docs/content.md).
export const MAX_BARS = 512;
export const MAX_SECTIONS = 32;

export function barCount(content) {
  return (content?.sections || []).reduce((n, s) => n + s.bars.length, 0);
}

// ruleEntry says a rule the server reported (422, or 400 naming a field) in the page's words, as an
// i18n entry, from the path it names; fields are the error's fields (a refused chord's symbol and
// suggestion). null when the page has no words of its own for it.
export function ruleEntry(path, rule, fields = {}) {
  if (typeof fields.symbol === 'string') return ['chord.unknown', { symbol: fields.symbol, suggestion: fields.suggestion }];
  // A rule of the form (repeats, endings, signs) comes with its id and arguments (board/form_rules.go).
  if (typeof fields.ruleId === 'string' && /^\w+$/.test(fields.ruleId)) return [`form.rule.${fields.ruleId}`, { ...(fields.ruleArgs || {}) }];
  const simple = { title: 'rule.title', description: 'rule.description', key: 'rule.key', tempo: 'rule.tempo', beatsPerBar: 'rule.beats', sections: 'rule.sections' };
  if (simple[path]) return [simple[path]];
  if (/^sections\[\d+\]\.label$/.test(path)) return ['rule.label'];
  if (/^sections\[\d+\]\.bars$/.test(path)) return ['rule.bars'];
  if (/^sections\[\d+\]\.bars\[\d+\]$/.test(path)) return [/too many bars/i.test(rule || '') ? 'rule.totalBars' : 'rule.bar'];
  return null;
}

// barConflicts lists the bars both sides changed: for each of the user's bar edits (ops) whose bar was
// changed between base and theirs to something else, {op, s, b, theirs, mine}. Only bars whose place
// is the same on both sides (same section, same number of bars) are compared; a moved place is the
// dropped-op report's business.
export function barConflicts(base, theirs, ops) {
  const out = [];
  for (const op of ops) {
    if (op.t !== 'bar') continue;
    const a = base.sections?.[op.s];
    const t = theirs.sections?.[op.s];
    if (!a?.bars || !t?.bars || a.bars.length !== t.bars.length || op.b >= t.bars.length) continue;
    const was = chordsText(a.bars[op.b]);
    const now = chordsText(t.bars[op.b]);
    if (was !== now && now !== chordsText(opBar(op, a.bars[op.b]))) {
      out.push({ op, s: op.s, b: op.b, theirs: t.bars[op.b], mine: op.chords });
    }
  }
  return [...out, ...lineConflicts(base, theirs, ops)]; // and the lines (lyrics-content.js), {k} for b
}
