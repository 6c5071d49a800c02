// @ts-check
// The board page's save/conflict cycle, its decisions without the DOM (save-panel.js draws them).
//
// The page keeps the last board the server committed as `base`, the musician's unsaved edits as `ops`
// and shows draft = replay(base.content, ops). A save sends the draft over base.revision; a newer board
// (from the stream, or read after a 412) becomes the base and the ops are replayed on it. Where the
// other side changed the very bar, line or field an op changes, differently, the musician chooses:
// keep mine (the op stays) or take theirs (the op goes). Saving waits for every choice.

import { barConflicts, replay, ruleEntry } from './content.js';

/**
 * @typedef {{ op: Op, ops?: Op[], s?: number, b?: number, k?: number, field?: string, theirs?: unknown, mine?: unknown }} EditConflict
 */

/**
 * arrival says what the page does with a board the server sent: 'old' (not newer than its base:
 * nothing), 'hold' (a save is out: kept until it settles), 'conflict' (a 412 is being resolved: the
 * newest server board is the other side), 'take' (nothing typed: it becomes base and draft) or
 * 'rebase' (the ops are replayed on it).
 * @param {{ base: Board | null, ops: Op[], saving: boolean, conflict: unknown }} page
 * @param {Board} board
 * @returns {'old' | 'hold' | 'conflict' | 'take' | 'rebase'}
 */
export function arrival(page, board) {
  if (page.base && board.revision <= page.base.revision) return 'old';
  if (page.saving) return 'hold';
  if (page.conflict) return 'conflict';
  if (!page.base || page.ops.length === 0) return 'take';
  return 'rebase';
}

/**
 * rebased replays ops, made on base, on board: the ops that still fit, the draft, the ops that no
 * longer fit, and the edits in conflict (null when no new one: the open ones stay as they are; else
 * the open ones whose op is still there and the new ones).
 * @param {Content} base
 * @param {Content} board
 * @param {Op[]} ops
 * @param {EditConflict[]} open
 */
export function rebased(base, board, ops, open) {
  const found = editConflicts(base, board, ops);
  const { content, dropped } = replay(board, ops);
  const kept = ops.filter((op) => !dropped.includes(op));
  const conflicts = found.length ? [...open.filter((c) => kept.includes(c.op)), ...found] : null;
  return { ops: kept, draft: content, dropped, conflicts };
}

/**
 * editConflicts lists the bars, lines and fields both the ops and the other side (base → theirs)
 * changed, differently.
 * @param {Content} base
 * @param {Content} theirs
 * @param {Op[]} ops
 * @returns {EditConflict[]}
 */
export function editConflicts(base, theirs, ops) {
  return [...barConflicts(base, theirs, ops), ...fieldConflicts(base, theirs, ops)];
}

/**
 * fieldConflicts lists the board's fields (title, tempo, …) and the sections' labels and roles that
 * the ops set and the other side changed to something else since base: {op (the last of them), ops
 * (all of them: taking theirs takes every one back), field (the path the server names it by: title,
 * sections[0].label), theirs, mine}. A section's field is compared only while both sides have the
 * same sections.
 * @param {Content} base
 * @param {Content} theirs
 * @param {Op[]} ops
 * @returns {EditConflict[]}
 */
export function fieldConflicts(base, theirs, ops) {
  /** @type {Map<string, EditConflict>} */
  const byField = new Map();
  const sameSections = (base.sections?.length ?? 0) === (theirs.sections?.length ?? 0);
  for (const op of ops) {
    const at = fieldOf(op);
    if (!at || (at.s !== undefined && !sameSections)) continue;
    const prev = byField.get(at.path);
    byField.set(at.path, { op, ops: [...(prev?.ops || []), op], field: at.path, s: at.s, theirs: null, mine: null });
  }
  /** @type {EditConflict[]} */
  const out = [];
  for (const c of byField.values()) {
    const at = /** @type {{path: string, read: (c: Content) => unknown}} */ (fieldOf(c.op));
    const was = at.read(base);
    const now = at.read(theirs);
    const mine = valueOf(c.op);
    if (was !== now && now !== mine) out.push({ ...c, theirs: now, mine });
  }
  return out;
}

/** @param {unknown} v */
const blank = (v) => (v === undefined || v === null ? '' : v);

/**
 * fieldOf names the field a set, label or role op writes, and reads it from a content; null for
 * other ops. A field not set (no key, no role) reads as ''.
 * @param {Op} op
 * @returns {{ path: string, s?: number, read: (c: Content) => unknown } | null}
 */
function fieldOf(op) {
  if (op.t === 'set') {
    const field = /** @type {string} */ (op.field);
    return { path: field, read: (c) => blank(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (c))[field]) };
  }
  if (op.t === 'label' || op.t === 'role') {
    const s = /** @type {number} */ (op.s);
    const name = op.t;
    return { path: `sections[${s}].${name}`, s, read: (c) => blank(c.sections?.[s]?.[name]) };
  }
  return null;
}

/** @param {Op} op */
const valueOf = (op) => blank(op.value);

/**
 * withoutOps is the ops and the draft once the musician takes theirs: the conflict's ops taken back.
 * @param {Content} base
 * @param {Op[]} ops
 * @param {EditConflict} conflict
 */
export function withoutOps(base, ops, conflict) {
  const gone = conflict.ops || [conflict.op];
  const rest = ops.filter((op) => !gone.includes(op));
  return { ops: rest, draft: replay(base, rest).content };
}

/**
 * saved is what the page keeps after a save of the first sent ops answered board: the ops typed
 * since, replayed on it.
 * @param {Board} board
 * @param {Op[]} ops
 * @param {number} sent
 */
export function saved(board, ops, sent) {
  const rest = ops.slice(sent);
  return { ops: rest, draft: replay(board.content, rest).content };
}

/**
 * canSave: something typed, no save out, no 412 or edit conflict waiting for the musician.
 * @param {{ editable: boolean, ops: Op[], saving: boolean, conflict: unknown, conflicts: EditConflict[] }} s
 */
export function canSave(s) {
  return s.editable && s.ops.length > 0 && !s.saving && !s.conflict && !s.conflicts.length;
}

/**
 * @typedef {{ conflict: true } | { invalid: { path: string, rule: unknown } } | { message: import('./i18n.js').Entry, forget?: true }} SaveOutcome
 */

/**
 * saveOutcome says what a failed save means to the page: a 412 is somebody else's save first; a 400 or
 * 422 names the field and the rule (in the page's words where it has them: from the path, a refused
 * chord's symbol and suggestion, a form rule's id; the server's English rule otherwise); a refused
 * capability makes the ring forget the key; the rest is a message.
 * @param {{ status: number, message: string, fields: Record<string, any> }} err
 * @param {string} id the board's id
 * @returns {SaveOutcome}
 */
export function saveOutcome(err, id) {
  switch (err.status) {
    case 412:
      return { conflict: true };
    case 400:
    case 422: {
      const entry = ruleEntry(err.fields.path, err.fields.rule, err.fields);
      const rule = entry ? { $t: entry[0], params: entry[1] } : err.fields.rule || err.message;
      return { invalid: { path: err.fields.path, rule } };
    }
    case 401:
    case 403:
      return { message: ['edit.unauthorized', { id }], forget: true };
    case 429:
      return { message: ['edit.rateLimited'] };
    case 507:
      return { message: ['edit.diskFull'] };
    case 0:
      return { message: ['edit.network'] };
    default:
      return { message: ['edit.failed', { message: err.message }] };
  }
}

/**
 * opTouches: does op edit the thing at path (so a 422 mark on it can go)?
 * @param {Op} op
 * @param {string | undefined} path
 */
export function opTouches(op, path) {
  if (!path) return true;
  if (op.t === 'set') return path === op.field;
  if (op.t === 'label') return path === `sections[${op.s}].label`;
  if (op.t === 'bar') return path.startsWith(`sections[${op.s}].bars[${op.b}]`);
  return path.startsWith('sections');
}
