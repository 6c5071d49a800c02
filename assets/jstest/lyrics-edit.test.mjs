// Edits of lines as the page's ops (content.js apply, replay, diff, conflicts; lyrics-content.js), the
// revision view's marks, and a pasted block of chords over words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { barConflicts, describeOp, diff, replay, sameTarget } from '../web/static/content.js';
import { forSave, markedLines, withBars } from '../web/static/lyrics-content.js';

const board = () => withBars({
  title: 'T', tempo: 90, beatsPerBar: 4,
  sections: [{ label: 'V', lines: [{ text: 'Amazing grace', chords: [{ at: 2, chord: 'G' }] }, { text: 'how sweet' }] }, { label: 'C', role: 'chorus', bars: [['C']] }],
});
const line = (text, ...chords) => ({ text, chords: chords.map(([at, chord]) => ({ at, chord })) });

test('line ops change, insert and remove lines; a section gets its first line', () => {
  const ops = [
    { t: 'line', s: 0, k: 1, line: line('how sweet the sound', [4, 'D7']) },
    { t: 'insertLine', s: 0, k: 2, line: line('that saved') },
    { t: 'removeLine', s: 0, k: 0 },
    { t: 'insertLine', s: 1, k: 0, line: line('Twas grace', [0, 'C']) },
    { t: 'line', s: 0, k: 9, line: line('nowhere') },
  ];
  const { content, dropped } = replay(board(), ops);
  assert.deepEqual(content.sections[0].lines, [{ text: 'how sweet the sound', chords: [{ at: 4, chord: 'D7' }] }, { text: 'that saved' }]);
  assert.deepEqual(content.sections[1].lines, [{ text: 'Twas grace', chords: [{ at: 0, chord: 'C' }] }]);
  assert.deepEqual(dropped, [ops[4]]);
  assert.deepEqual(describeOp(ops[4], content), ['op.line', { s: 'V', n: 10, text: 'nowhere' }]);
  // The last line of a section of words removed: the section holds no lines member (the server says
  // what a section must hold).
  const gone = replay(board(), [{ t: 'removeLine', s: 0, k: 0 }, { t: 'removeLine', s: 0, k: 0 }]).content;
  assert.equal('lines' in gone.sections[0], false);
  assert.ok(sameTarget(ops[0], { ...ops[0], line: line('x') }), 'typing in one line is one op');
  assert.ok(!sameTarget(ops[0], { ...ops[0], k: 0 }));
  assert.deepEqual(forSave(content).sections[0], { label: 'V', lines: content.sections[0].lines }, 'sent without bars');
});

test('what changed names each line that differs, and the revision view marks it', () => {
  const a = board();
  const b = replay(a, [{ t: 'line', s: 0, k: 0, line: line('Amazing grace', [2, 'A']) }, { t: 'insertLine', s: 0, k: 2, line: line('new') }]).content;
  assert.deepEqual(diff(a, b), [
    ['chg.lineCount', { name: 'V', from: 2, to: 3 }],
    ['chg.line', { name: 'V', n: 1, from: 'Am[G]azing grace', to: 'Am[A]azing grace' }],
  ]);
  assert.deepEqual(markedLines(b.sections[0], a.sections[0]).map((l) => l.mark), ['changed', '', 'added']);
  assert.deepEqual(markedLines(a.sections[0], b.sections[0]).map((l) => l.mark), ['changed', '', 'removed']);
  // A stored revision of words alone has no bars member: still compared.
  assert.deepEqual(diff({ ...a, sections: [{ label: 'V', lines: a.sections[0].lines }] }, { ...a, sections: [{ label: 'V', lines: b.sections[0].lines }] })[0], ['chg.lineCount', { name: 'V', from: 2, to: 3 }]);
});

test('two pages editing the same line: a conflict per line, as for a bar', () => {
  const base = board();
  const mine = [{ t: 'line', s: 0, k: 0, line: line('Amazing grace', [0, 'D']) }, { t: 'line', s: 0, k: 1, line: line('how sweet!') }];
  const theirs = replay(base, [{ t: 'line', s: 0, k: 0, line: line('Amazing grace', [0, 'E']) }]).content;
  const got = barConflicts(base, theirs, mine);
  assert.deepEqual(got.map(({ s, k, theirs: t, mine: m }) => ({ s, k, t, m })), [{ s: 0, k: 0, t: '[E]Amazing grace', m: '[D]Amazing grace' }]);
  // The same change on both sides is no conflict.
  assert.deepEqual(barConflicts(base, replay(base, [mine[0]]).content, mine), []);
});
