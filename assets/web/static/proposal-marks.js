// @ts-check
// What a proposal changes, as the page reviews it (issue 28, docs/api.md "Proposals"): pure, no DOM.
//
// Pi's changes are the proposal against its base (the revision Pi read); the page shows each as the
// board now → the proposal, and the musician decides each one. A decision becomes one accept request
// of the shapes the server takes: {} (all), {bars} or {sections}; or a reject when nothing is taken.
// The server decides what may be merged; this only says which request the decisions are.

import { sectionName } from './content.js';
import { barForm, writeBar } from './form.js';
import { barLine } from './form-view.js';

export const FIELDS = ['title', 'description', 'key', 'tempo', 'beatsPerBar'];

const barKey = (bar) => (bar == null ? 'null' : JSON.stringify(writeBar(barForm(bar))));
// sameBar compares bars of either schema version; two plain chord lists (most bars) without JSON.
const sameBar = (a, b) => (Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((c, i) => c === b[i]) : barKey(a) === barKey(b));
const text = (bar, beats) => (bar == null ? '' : barLine(barForm(bar), beats));

// markProposal lists what proposal changes against base, each change an item with a key the
// decisions name: bars ('bar', s, b, n counted from 1 across the proposal's sections, old as the board
// shows it now, new), sections taken whole ('section': added, its bars added or removed, its label or
// role changed), sections removed and board fields (only with the whole proposal). sections is the
// proposal's chart, each bar with its mark, for drawing. base may be null (not kept): then cur.
export function markProposal(base, cur, proposal) {
  base = base || cur;
  const items = [];
  const sections = [];
  const ps = proposal.sections || [];
  const bs = base.sections || [];
  const cs = cur.sections || [];
  let n = 0;
  ps.forEach((sec, s) => {
    const name = sectionName(sec, s);
    const was = bs[s];
    const now = cs[s];
    const bars = [];
    let whole = null;
    if (!was) whole = 'added';
    else if (was.bars.length !== sec.bars.length || (now && now.bars.length !== was.bars.length)) whole = 'form';
    else if ((was.label || '') !== (sec.label || '') || (was.role || '') !== (sec.role || '')) whole = 'label';
    if (whole) items.push({ key: `s:${s}`, kind: 'section', s, what: whole, name });
    sec.bars.forEach((bar, b) => {
      n++;
      const old = now && now.bars.length === sec.bars.length ? now.bars[b] : was?.bars[b];
      const changed = !was || whole === 'form' || !sameBar(was.bars[b], bar);
      const mark = { s, b, n, changed, old: changed ? text(old, cur.beatsPerBar) : '', new: text(bar, proposal.beatsPerBar) };
      bars.push(mark);
      if (changed && !whole?.match(/added|form/)) items.push({ key: `b:${s}:${b}`, kind: 'bar', s, b, n, name, old: mark.old, new: mark.new });
    });
    sections.push({ s, name, whole, bars });
  });
  for (let s = ps.length; s < bs.length; s++) items.push({ key: `r:${s}`, kind: 'removed', s, name: sectionName(bs[s], s) });
  for (const f of FIELDS) {
    if ((base[f] ?? null) !== (proposal[f] ?? null)) items.push({ key: `f:${f}`, kind: 'field', field: f, old: cur[f] ?? null, new: proposal[f] ?? null });
  }
  return { items, sections };
}

// acceptRequest turns decisions (a Map of item key → 'accept' | 'reject'; an undecided item is
// rejected) into what to send: {all: true} (POST {}; never when whole is false: a conflict settled
// leaves the proposal's words and fields to the page), {reject: true}, {body: {bars}} or
// {body: {sections}}; or {error} when the server cannot take that choice in one accept: 'allOnly' (a
// removed section or a board field is taken only with the whole proposal) or 'mixed' (some bars of a
// section taken whole and not others, or single bars beside whole sections).
export function acceptRequest(items, decisions, whole = true) {
  const taken = items.filter((it) => decisions.get(it.key) === 'accept');
  if (whole && taken.length === items.length && items.length) return { all: true };
  if (!taken.length) return { reject: true };
  if (taken.some((it) => it.kind === 'removed' || it.kind === 'field')) return { error: 'allOnly' };
  const wholes = new Set(taken.filter((it) => it.kind === 'section').map((it) => it.s));
  const bars = taken.filter((it) => it.kind === 'bar');
  if (!wholes.size) return { body: { bars: bars.map((it) => [it.s, it.b]) } };
  // Sections taken whole: every bar change of them must be taken, and a bar elsewhere only when its
  // section's every change is (then that section is taken whole too).
  for (const it of items) {
    if (it.kind === 'bar' && decisions.get(it.key) !== 'accept' && (wholes.has(it.s) || bars.some((x) => x.s === it.s))) return { error: 'mixed' };
  }
  for (const it of bars) wholes.add(it.s);
  return { body: { sections: [...wholes].sort((a, b) => a - b) } };
}

// spoken is an item as a screen reader says it, an i18n entry: "Verse, bar 5: C7 becomes F7".
export function spoken(item) {
  switch (item.kind) {
    case 'bar':
      return ['prop.sr.bar', { section: item.name, n: item.n, old: item.old || '—', new: item.new }];
    case 'section':
      return [`prop.sr.section.${item.what}`, { section: item.name }];
    case 'removed':
      return ['prop.sr.removed', { section: item.name }];
    default:
      return ['prop.sr.field', { field: { $t: `field.${item.field === 'beatsPerBar' ? 'beats' : item.field}` }, old: item.old ?? '—', new: item.new ?? '—' }];
  }
}

// sectionItems are the items of section s, for "accept this section" / "reject this section".
export function sectionItems(items, s) {
  return items.filter((it) => it.s === s && it.kind !== 'field');
}

// conflictBars is the items of bars a 412 proposal_conflict names ([section, bar] pairs).
export function conflictBars(items, bars) {
  const named = new Set((bars || []).map(([s, b]) => `b:${s}:${b}`));
  return items.filter((it) => named.has(it.key));
}

// ---- a conflict settled (412 proposal_conflict) ----

/** The board's own fields a conflict may name, beside FIELDS: the credits (docs/content.md). */
const CREDITS = ['artist', 'composer', 'style'];

/**
 * fieldAt reads the field a conflict names (`title`, `sections[0].label`, `sections[2].lines`) from a
 * content; undefined when the content has no such place.
 * @param {Content | null | undefined} content
 * @param {string} path
 * @returns {unknown}
 */
export function fieldAt(content, path) {
  const m = /^sections\[(\d+)\]\.(\w+)$/.exec(path);
  if (!m) return /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (content || {}))[path];
  return /** @type {Record<string, unknown> | undefined} */ (/** @type {unknown} */ (content?.sections?.[Number(m[1])]))?.[m[2]];
}

/**
 * fieldText is a field's value as a conflict shows it: a section's words as their lines, '—' for none.
 * @param {unknown} v
 */
export function fieldText(v) {
  if (Array.isArray(v)) return v.length ? v.map((l) => l.text).join(' / ') : '—';
  return v === undefined || v === null || v === '' ? '—' : String(v);
}

/**
 * fieldOps are the edits that make board's field at path the proposal's (the page saves them as its
 * own): a board field set, a section's label, role or recall, a section's words replaced line by line.
 * @param {string} path
 * @param {Content} proposal
 * @param {Content} board
 * @returns {Op[]}
 */
export function fieldOps(path, proposal, board) {
  const value = fieldAt(proposal, path);
  const m = /^sections\[(\d+)\]\.(\w+)$/.exec(path);
  if (!m) return FIELDS.includes(path) || CREDITS.includes(path) ? [{ t: 'set', field: path, value: value ?? '' }] : [];
  const s = Number(m[1]);
  if (m[2] === 'label' || m[2] === 'role' || m[2] === 'recall') return [{ t: m[2], s, value: value ?? '' }];
  if (m[2] !== 'lines') return [];
  /** @type {Op[]} */
  const ops = [];
  const had = board.sections[s]?.lines || [];
  for (let k = had.length - 1; k >= 0; k--) ops.push({ t: 'removeLine', s, k });
  /** @type {Line[]} */ (value || []).forEach((line, k) => ops.push({ t: 'insertLine', s, k, line }));
  return ops;
}

/**
 * settle is what the page does once the musician has chosen, for each field a 412 proposal_conflict
 * named, the board's value or Pi's (choice: field → 'board' | 'pi'). The accept takes a board field
 * only with the whole proposal, and a section's label or role only with the section whole, which the
 * conflict forbids: so every field change of Pi's the musician takes (the ones in conflict chosen
 * Pi's, and the ones not in conflict) becomes the page's own edit, and the accept takes the rest:
 * decisions (key → 'accept' | 'reject', the request's choices) with those fields left, and ops.
 * @param {Array<Record<string, any>>} items the proposal's marked changes (markProposal)
 * @param {Map<string, string>} decisions the musician's choices before the conflict
 * @param {string[]} fields the fields in conflict
 * @param {Map<string, string>} choice
 * @param {{ base: Content | null, board: Content, proposal: Content }} c
 */
export function settleFields(items, decisions, fields, choice, { base, board, proposal }) {
  const d = new Map(decisions);
  const named = new Set(fields);
  /** @type {Op[]} */
  const ops = [];
  const from = base || board;
  for (const it of items) {
    if (d.get(it.key) !== 'accept') continue;
    if (it.kind === 'field') {
      d.set(it.key, 'reject');
      if (!named.has(it.field)) ops.push(...fieldOps(it.field, proposal, board));
    } else if (it.kind === 'section' && it.what === 'label' && fields.some((f) => f.startsWith(`sections[${it.s}].`))) {
      d.set(it.key, 'reject'); // its bars are changes of their own
      for (const f of ['label', 'role']) {
        const path = `sections[${it.s}].${f}`;
        if (!named.has(path) && (fieldAt(from, path) ?? '') !== (fieldAt(proposal, path) ?? '')) ops.push(...fieldOps(path, proposal, board));
      }
    }
  }
  for (const f of fields) if (choice.get(f) === 'pi') ops.push(...fieldOps(f, proposal, board));
  return { decisions: d, ops };
}
