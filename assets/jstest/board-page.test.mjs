// The board page's pure cores (issue 27 item 6): its edit key (capability.js), the save/conflict cycle
// (save-cycle.js) and its editing operations (edit-ops.js). board-page.js and the modules beside it
// draw what these decide; the e2e tests drive them in Chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';

const session = new Map();
const local = new Map();
const fake = (m) => ({ getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) });
globalThis.window ??= {};
window.sessionStorage = fake(session);
window.localStorage = fake(local);

const { capKey, capabilityEvent, capabilityFor, fingerprint } = await import('../web/static/capability.js');
const { arrival, canSave, editConflicts, fieldConflicts, opTouches, rebased, saveOutcome, saved, withoutOps } = await import('../web/static/save-cycle.js');
const { MAX_SECTION_BARS, fits, newSection, numberOrNull, pasteOps, recordOp, transposeOps } = await import('../web/static/edit-ops.js');
const { keyFor } = await import('../web/static/keyring.js');
const { MAX_BARS } = await import('../web/static/content.js');

const cap = 'k'.repeat(43);
const content = () => ({
  title: 'T', description: '', key: 'G', tempo: 120, beatsPerBar: 4,
  sections: [
    { label: 'A', bars: [['Am7'], ['D7'], ['Gmaj7']] },
    { label: 'B', role: 'chorus', bars: [['Em'], ['C']] },
  ],
});
const board = (revision, c = content()) => ({ revision, content: c });

// ---- the edit key ----

test('the fragment\'s key is the page\'s, kept for the tab and in the ring; else the tab\'s; else none', () => {
  session.clear();
  local.clear();
  assert.equal(capabilityFor('song', new URLSearchParams('')), null);
  assert.equal(capabilityFor('song', new URLSearchParams(`cap=${cap}`)), cap);
  assert.equal(session.get(capKey('song')), cap);
  assert.equal(keyFor('song'), cap);
  assert.equal(capabilityFor('song', new URLSearchParams('')), cap, 'a reload keeps the tab\'s key');
  assert.equal(capabilityFor('other', new URLSearchParams('')), null, 'a key opens its own board only');
});

test('a capability event is looked at only for this board and a key held; held while the page replaces the key itself', () => {
  const page = { id: 'song', cap, rotating: false };
  assert.equal(capabilityEvent(page, { id: 'song', fingerprint: 'x' }), 'check');
  assert.equal(capabilityEvent(page, { id: 'other', fingerprint: 'x' }), 'ignore');
  assert.equal(capabilityEvent(page, null), 'ignore');
  assert.equal(capabilityEvent({ ...page, cap: null }, { id: 'song' }), 'ignore');
  assert.equal(capabilityEvent({ ...page, rotating: true }, { id: 'song' }), 'hold');
});

test('a fingerprint is base64url of the first 16 bytes of the key\'s SHA-256, as the server\'s event names it', async () => {
  const want = createHash('sha256').update(cap).digest().subarray(0, 16).toString('base64url');
  assert.equal(await fingerprint(cap), want);
  assert.equal((await fingerprint(cap)).length, 22);
  assert.notEqual(await fingerprint(`${cap}x`), want);
});

// ---- the save/conflict cycle ----

test('an arriving board: older ignored, held during a save, the other side of a 412, taken, or the ops replayed on it', () => {
  const idle = { base: board(3), ops: [], saving: false, conflict: null };
  assert.equal(arrival(idle, board(3)), 'old');
  assert.equal(arrival(idle, board(2)), 'old');
  assert.equal(arrival(idle, board(4)), 'take');
  assert.equal(arrival({ ...idle, base: null }, board(1)), 'take');
  const typed = { ...idle, ops: [{ t: 'set', field: 'title', value: 'x' }] };
  assert.equal(arrival(typed, board(4)), 'rebase');
  assert.equal(arrival({ ...typed, saving: true }, board(4)), 'hold');
  assert.equal(arrival({ ...typed, conflict: { server: board(4) } }, board(5)), 'conflict');
});

test('a rebase keeps what fits, reports what does not, and names the bars both sides changed', () => {
  const theirs = content();
  theirs.sections[0].bars[1] = ['D7b9'];
  theirs.sections.pop();
  const ops = [{ t: 'bar', s: 0, b: 1, chords: ['Ab7'] }, { t: 'bar', s: 1, b: 0, chords: ['E7'] }, { t: 'bar', s: 0, b: 2, chords: ['G6'] }];
  const r = rebased(content(), theirs, ops, []);
  assert.deepEqual(r.ops, [ops[0], ops[2]]);
  assert.deepEqual(r.dropped, [ops[1]]);
  assert.deepEqual(r.draft.sections[0].bars, [['Am7'], ['Ab7'], ['G6']]);
  assert.deepEqual(r.conflicts.map((c) => [c.s, c.b, c.theirs, c.mine]), [[0, 1, ['D7b9'], ['Ab7']]]);
  const quiet = rebased(content(), content(), [ops[2]], []);
  assert.equal(quiet.conflicts, null, 'no new conflict: the open ones stay as they are');
});

test('a conflict still open stays beside new ones while its edit is still there', () => {
  const theirs = content();
  theirs.sections[0].bars[0] = ['A7'];
  const mine = { t: 'bar', s: 0, b: 0, chords: ['Am6'] };
  const open = { op: { t: 'bar', s: 1, b: 1, chords: ['C6'] }, s: 1, b: 1 };
  const gone = { op: { t: 'bar', s: 1, b: 0, chords: ['E'] }, s: 1, b: 0 };
  const r = rebased(content(), theirs, [open.op, mine], [open, gone]);
  assert.deepEqual(r.conflicts.map((c) => c.op), [open.op, mine]);
});

test('after a save the ops typed since are replayed on the saved board', () => {
  const ops = [{ t: 'set', field: 'title', value: 'Sent' }, { t: 'set', field: 'tempo', value: 90 }];
  const after = content();
  after.title = 'Sent';
  const r = saved(board(8, after), ops, 1);
  assert.deepEqual(r.ops, [ops[1]]);
  assert.equal(r.draft.title, 'Sent');
  assert.equal(r.draft.tempo, 90);
});

test('taking theirs takes the conflict\'s edits back, and only those', () => {
  const a = { t: 'bar', s: 0, b: 0, chords: ['C'] };
  const b = { t: 'bar', s: 0, b: 1, chords: ['F'] };
  const r = withoutOps(content(), [a, b], { op: a });
  assert.deepEqual(r.ops, [b]);
  assert.deepEqual(r.draft.sections[0].bars.slice(0, 2), [['Am7'], ['F']]);
});

test('a save waits for the key, something typed, no save out and every conflict answered', () => {
  const ready = { editable: true, ops: [{}], saving: false, conflict: null, conflicts: [] };
  assert.equal(canSave(ready), true);
  assert.equal(canSave({ ...ready, editable: false }), false);
  assert.equal(canSave({ ...ready, ops: [] }), false);
  assert.equal(canSave({ ...ready, saving: true }), false);
  assert.equal(canSave({ ...ready, conflict: { server: board(2) } }), false);
  assert.equal(canSave({ ...ready, conflicts: [{}] }), false);
});

test('a refused save is said in the page\'s words: conflict, the field and rule, a key gone, or a message', () => {
  const err = (status, fields = {}, message = 'm') => ({ status, message, fields });
  assert.deepEqual(saveOutcome(err(412), 'song'), { conflict: true });
  assert.deepEqual(saveOutcome(err(422, { path: 'tempo', rule: 'tempo must be 30–300' }), 'song'), { invalid: { path: 'tempo', rule: { $t: 'rule.tempo', params: undefined } } });
  assert.deepEqual(saveOutcome(err(422, { path: 'sections[0].bars[1][0]', rule: 'not a chord', symbol: 'H7', suggestion: 'B7' }), 'song').invalid.rule,
    { $t: 'chord.unknown', params: { symbol: 'H7', suggestion: 'B7' } });
  assert.deepEqual(saveOutcome(err(400, { path: 'x.y', rule: 'odd' }), 'song'), { invalid: { path: 'x.y', rule: 'odd' } }, 'the server\'s rule where the page has no words');
  assert.deepEqual(saveOutcome(err(403), 'song'), { message: ['edit.unauthorized', { id: 'song' }], forget: true });
  assert.deepEqual(saveOutcome(err(429), 'song'), { message: ['edit.rateLimited'] });
  assert.deepEqual(saveOutcome(err(507), 'song'), { message: ['edit.diskFull'] });
  assert.deepEqual(saveOutcome(err(0), 'song'), { message: ['edit.network'] });
  assert.deepEqual(saveOutcome(err(500, {}, 'boom'), 'song'), { message: ['edit.failed', { message: 'boom' }] });
});

test('an edit clears a 422 mark only on what it edits', () => {
  assert.equal(opTouches({ t: 'set', field: 'tempo' }, 'tempo'), true);
  assert.equal(opTouches({ t: 'set', field: 'title' }, 'tempo'), false);
  assert.equal(opTouches({ t: 'label', s: 1 }, 'sections[1].label'), true);
  assert.equal(opTouches({ t: 'bar', s: 0, b: 2 }, 'sections[0].bars[2][1]'), true);
  assert.equal(opTouches({ t: 'bar', s: 0, b: 2 }, 'sections[0].bars[1]'), false);
  assert.equal(opTouches({ t: 'removeBar', s: 0, b: 0 }, 'sections[3].bars'), true);
  assert.equal(opTouches({ t: 'bar', s: 0, b: 2 }, undefined), true);
});

// ---- editing operations ----

test('typing on into one field is one op, but not into an op being saved', () => {
  const ops = [];
  recordOp(ops, 0, { t: 'set', field: 'title', value: 'A' });
  recordOp(ops, 0, { t: 'set', field: 'title', value: 'Ab' });
  assert.deepEqual(ops, [{ t: 'set', field: 'title', value: 'Ab' }]);
  recordOp(ops, 1, { t: 'set', field: 'title', value: 'Abc' });
  assert.equal(ops.length, 2, 'the first op is out with a save: typing on makes a new one');
  recordOp(ops, 1, { t: 'set', field: 'tempo', value: 90 });
  assert.equal(ops.length, 3);
});

test('a paste is one op per bar, keeping the form of the bar it lands on; refused when it does not fit', () => {
  const c = content();
  c.sections[0].bars[1] = { chords: ['D7'], repeatEnd: 2 };
  const r = pasteOps(c, 0, 1, { bars: [['G'], { chords: ['C'], repeatStart: true }] });
  assert.deepEqual(r.ops.map((op) => [op.t, op.b, op.chords]), [['bar', 1, ['G']], ['insertBar', 2, ['C']]]);
  assert.equal(r.last, 2);
  assert.equal(r.ops[0].form, undefined, 'chords alone: the bar keeps its form');
  assert.equal(r.ops[1].form.repeatStart, true);
  const signs = pasteOps(c, 0, 1, { bars: [{ chords: ['G'], repeatStart: true }, ['C']] });
  assert.equal(signs.ops[0].form.repeatStart, true);
  assert.equal(signs.ops[0].form.repeatEnd, 2, 'a pasted sign is added to the bar\'s own');
  assert.deepEqual(pasteOps(c, 0, 0, { bars: null, unknown: { symbol: 'H7' } }), { refuse: ['chord.unknown', { symbol: 'H7' }] });
  assert.deepEqual(pasteOps(c, 0, 0, { bars: null, beatsWrong: { cell: 1 } }), { refuse: ['edit.pasteBeats', { cell: 1 }] });
  assert.deepEqual(pasteOps(c, 0, 0, { bars: null }), { refuse: ['edit.pasteBad'] });
  const many = Array.from({ length: MAX_SECTION_BARS }, () => ['C']);
  assert.deepEqual(pasteOps(c, 0, 0, { bars: many }), { refuse: ['edit.sectionFull'] });
});

test('room for bars counts the whole board', () => {
  const c = content();
  assert.equal(fits(c, MAX_BARS - 5), true);
  assert.equal(fits(c, MAX_BARS - 4), false);
});

test('writing a transposition changes the key and the bars that move, never a bar\'s form', () => {
  const c = content();
  const up = content();
  up.key = 'A';
  up.sections[0].bars = [['Bm7'], ['E7'], ['Amaj7']];
  const ops = transposeOps(c, up);
  assert.deepEqual(ops[0], { t: 'set', field: 'key', value: 'A' });
  assert.deepEqual(ops.slice(1).map((op) => [op.s, op.b, op.chords]), [[0, 0, ['Bm7']], [0, 1, ['E7']], [0, 2, ['Amaj7']]]);
});

test('a new section takes the next free letter and four empty bars; an emptied number field is null', () => {
  const s = newSection(content());
  assert.equal(s.label, 'C');
  assert.equal(s.bars.length, 4);
  assert.equal(numberOrNull(''), null);
  assert.equal(numberOrNull('96'), 96);
});

// ---- fields both sides changed (issue 28) ----

test('a field both sides set differently is a conflict, named as the server names it; the same value or an untouched field is not', () => {
  const theirs = content();
  theirs.title = 'Theirs';
  theirs.tempo = 96;
  theirs.sections[1].label = 'Chorus';
  const title1 = { t: 'set', field: 'title', value: 'Mi' };
  const title2 = { t: 'set', field: 'title', value: 'Mine' };
  const ops = [title1, { t: 'set', field: 'tempo', value: 96 }, { t: 'set', field: 'key', value: 'A' }, title2, { t: 'label', s: 1, value: 'Bridge' }, { t: 'role', s: 1, value: '' }];
  const found = fieldConflicts(content(), theirs, ops);
  assert.deepEqual(found.map((c) => [c.field, c.theirs, c.mine]), [['title', 'Theirs', 'Mine'], ['sections[1].label', 'Chorus', 'Bridge']]);
  assert.deepEqual(found[0].ops, [title1, title2], 'taking theirs takes back every edit of the field');
  assert.deepEqual(withoutOps(content(), ops, found[0]).draft.title, 'T');
  const moved = content();
  moved.sections.pop();
  moved.sections[0].label = 'Intro';
  assert.deepEqual(fieldConflicts(content(), moved, [{ t: 'label', s: 0, value: 'Verse' }]), [], 'sections moved: the dropped-op report\'s business');
  assert.equal(editConflicts(content(), theirs, ops).length, 2);
});
