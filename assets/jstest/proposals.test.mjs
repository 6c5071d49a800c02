// proposal-marks.js: what a proposal changes, marked old → new, and the accept request a musician's
// choices make (docs/api.md "Proposals"); notify.js: the title's count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptRequest, conflictBars, markProposal, spoken } from '../web/static/proposal-marks.js';
import { notice, titlePrefix } from '../web/static/notify.js';

const board = (sections, extra = {}) => ({ title: 'T', description: '', tempo: 100, beatsPerBar: 4, sections, ...extra });
const base = board([{ label: 'Verse', bars: [['C'], ['F'], ['G'], ['C']] }, { label: 'Chorus', bars: [['Am'], ['F']] }]);

test('changed bars are marked old → new, numbered across sections; the same bars are not', () => {
  const p = board([{ label: 'Verse', bars: [['C'], ['F7'], ['G'], ['C']] }, { label: 'Chorus', bars: [['Am'], ['Dm', 'G']] }]);
  const { items, sections } = markProposal(base, base, p);
  assert.deepEqual(items.map((it) => [it.key, it.n, it.old, it.new]), [['b:0:1', 2, 'F', 'F7'], ['b:1:1', 6, 'F', 'Dm G']]);
  assert.deepEqual(sections[0].bars.map((b) => b.changed), [false, true, false, false]);
  assert.deepEqual(spoken(items[1]), ['prop.sr.bar', { section: 'Chorus', n: 6, old: 'F', new: 'Dm G' }]);
});

test('old is the board as it is now, while the change is what Pi changed against its base', () => {
  const now = board([{ label: 'Verse', bars: [['C'], ['F'], ['G'], ['C6']] }, { label: 'Chorus', bars: [['Am'], ['F']] }]);
  const p = board([{ label: 'Verse', bars: [['C'], ['F'], ['G7'], ['C']] }, { label: 'Chorus', bars: [['Am'], ['F']] }]);
  const { items } = markProposal(base, now, p);
  assert.deepEqual(items.map((it) => it.key), ['b:0:2'], 'bar 4 was the board\'s own change, not Pi\'s');
  assert.equal(items[0].old, 'G');
});

test('added sections, sections with other bars, removed sections and fields are items of their own', () => {
  const p = board([{ label: 'Verse', bars: [['C'], ['F'], ['G']] }, { label: 'Bridge', bars: [['E7'], ['F']] }, { label: 'Coda', bars: [['C']] }], { tempo: 120 });
  const { items } = markProposal(base, base, p);
  assert.deepEqual(items.map((it) => it.key), ['s:0', 's:1', 'b:1:0', 's:2', 'f:tempo']);
  assert.deepEqual(items.map((it) => it.what || it.kind), ['form', 'label', 'bar', 'added', 'field']);
  const fewer = board([{ label: 'Verse', bars: [['C'], ['F'], ['G'], ['C']] }]);
  assert.deepEqual(markProposal(base, base, fewer).items.map((it) => it.key), ['r:1']);
});

test('choices become one request: all, reject, bars, sections, or a refusal said in words', () => {
  const p = board([{ label: 'Verse', bars: [['C'], ['F7'], ['G7'], ['C']] }, { label: 'Chorus', bars: [['Am'], ['Bb']] }, { label: 'Coda', bars: [['C']] }]);
  const { items } = markProposal(base, base, p);
  const d = (pairs) => new Map(pairs);
  assert.deepEqual(acceptRequest(items, d(items.map((it) => [it.key, 'accept']))), { all: true });
  assert.deepEqual(acceptRequest(items, d([])), { reject: true });
  assert.deepEqual(acceptRequest(items, d([['b:0:1', 'accept'], ['b:0:2', 'reject']])), { body: { bars: [[0, 1]] } });
  assert.deepEqual(acceptRequest(items, d([['s:2', 'accept']])), { body: { sections: [2] } });
  assert.deepEqual(acceptRequest(items, d([['s:2', 'accept'], ['b:0:1', 'accept'], ['b:0:2', 'accept']])), { body: { sections: [0, 2] } }, 'every change of Verse taken: Verse whole');
  assert.deepEqual(acceptRequest(items, d([['s:2', 'accept'], ['b:0:1', 'accept']])), { error: 'mixed' });
  const tempo = markProposal(base, base, { ...base, tempo: 90, sections: [{ label: 'Verse', bars: [['C'], ['F7'], ['G'], ['C']] }, base.sections[1]] });
  assert.deepEqual(acceptRequest(tempo.items, d([['f:tempo', 'accept']])), { error: 'allOnly' });
});

test('a conflict names its bars among the items', () => {
  const p = board([{ label: 'Verse', bars: [['C'], ['F7'], ['G7'], ['C']] }, base.sections[1]]);
  const { items } = markProposal(base, base, p);
  assert.deepEqual(conflictBars(items, [[0, 2], [5, 5]]).map((it) => it.key), ['b:0:2']);
});

test('the title counts news; a notification says the board and the kind only', () => {
  assert.equal(titlePrefix(0), '');
  assert.equal(titlePrefix(2), '(2) ');
  assert.equal(titlePrefix(120), '(99+) ');
  assert.deepEqual(notice('proposed', 'Autumn Leaves'), { title: 'Autumn Leaves', body: 'Pi proposes a change to review', tag: 'tele-proposed' });
  assert.equal(notice('terminal', '').title, 'Tele');
});

test('a conflict over fields settles as the page\'s own edits: Pi\'s where chosen and where not in conflict; the accept takes the rest', async () => {
  const { fieldAt, fieldOps, fieldText, settleFields } = await import('../web/static/proposal-marks.js');
  const now = board([{ label: 'Verse', bars: [['C'], ['F'], ['G'], ['C']] }, { label: 'Chorus', bars: [['Am'], ['F']] }], { title: 'Board' });
  const p = board([{ label: 'Verse', bars: [['C'], ['F7'], ['G'], ['C']] }, { label: 'Refrain', role: 'chorus', bars: [['Am'], ['F']] }], { title: 'Pi', tempo: 132 });
  assert.equal(fieldAt(now, 'title'), 'Board');
  assert.equal(fieldAt(p, 'sections[1].label'), 'Refrain');
  assert.equal(fieldText([{ text: 'la' }, { text: 'di' }]), 'la / di');
  assert.equal(fieldText(undefined), '—');
  assert.deepEqual(fieldOps('sections[0].lines', board([{ label: 'V', bars: [], lines: [{ text: 'a' }, { text: 'b' }] }]), board([{ label: 'V', bars: [], lines: [{ text: 'x' }] }])),
    [{ t: 'removeLine', s: 0, k: 0 }, { t: 'insertLine', s: 0, k: 0, line: { text: 'a' } }, { t: 'insertLine', s: 0, k: 1, line: { text: 'b' } }]);
  const { items } = markProposal(base, now, p);
  const all = new Map(items.map((it) => [it.key, 'accept']));
  const { decisions, ops } = settleFields(items, all, ['title', 'sections[1].label'], new Map([['title', 'pi'], ['sections[1].label', 'board']]), { base, board: now, proposal: p });
  // Section 2's label is in conflict (kept the board's), so the section is not taken whole: its role,
  // not in conflict, is Pi's as an edit.
  assert.deepEqual(ops, [{ t: 'role', s: 1, value: 'chorus' }, { t: 'set', field: 'tempo', value: 132 }, { t: 'set', field: 'title', value: 'Pi' }]);
  assert.deepEqual(acceptRequest(items, decisions, false), { body: { bars: [[0, 1]] } }, 'the bar through the accept, never {} again');
});
