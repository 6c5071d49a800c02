// Issue 13 item 6: what a musician reads when a change cannot be made, in the page's words (content.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { MAX_BARS, barCount, describeOp, ruleEntry } from '../web/static/content.js';

const board = () => ({
  title: 'T', description: '', tempo: 100, beatsPerBar: 4,
  sections: [{ label: 'Intro', bars: [['C']] }, { label: 'Verse', bars: [['C'], ['G']] }, { label: '', bars: [['F']] }],
});

test('a change that could not be re-applied names the section as the page does ("Section Verse")', () => {
  const c = board();
  assert.deepEqual(describeOp({ t: 'bar', s: 1, b: 0, chords: ['Am'] }, c), ['op.bar', { s: 'Verse', b: 1, chords: 'Am' }]);
  assert.deepEqual(describeOp({ t: 'removeBar', s: 2, b: 0 }, c), ['op.removeBar', { s: '3', b: 1 }], 'an unlabelled section by its number');
  assert.deepEqual(describeOp({ t: 'moveSection', s: 0, to: 1 }, c), ['op.moveSection', { s: 'Intro', b: NaN }]);
});

test('the server’s rules are said in the page’s words, by path', () => {
  assert.deepEqual(ruleEntry('tempo', 'must be an integer from 30 to 300'), ['rule.tempo']);
  assert.deepEqual(ruleEntry('tempo', 'must be an integer, not null'), ['rule.tempo']);
  assert.deepEqual(ruleEntry('title', 'must be 1–120 UTF-16 code units, not blank'), ['rule.title']);
  assert.deepEqual(ruleEntry('description', 'x'), ['rule.description']);
  assert.deepEqual(ruleEntry('key', 'x'), ['rule.key']);
  assert.deepEqual(ruleEntry('beatsPerBar', 'x'), ['rule.beats']);
  assert.deepEqual(ruleEntry('sections', 'x'), ['rule.sections']);
  assert.deepEqual(ruleEntry('sections[3].label', 'must be at most 40 UTF-16 code units'), ['rule.label']);
  assert.deepEqual(ruleEntry('sections[3].bars', 'x'), ['rule.bars']);
  assert.deepEqual(ruleEntry('sections[8].bars[0]', 'too many bars: at most 512 in all sections together'), ['rule.totalBars']);
  assert.deepEqual(ruleEntry('sections[1].bars[2]', 'must hold 1–4 chord symbols'), ['rule.bar']);
  assert.deepEqual(ruleEntry('sections[1].bars[2][0]', 'x', { symbol: 'Cø7', suggestion: 'Cm7b5' }), ['chord.unknown', { symbol: 'Cø7', suggestion: 'Cm7b5' }]);
  assert.equal(ruleEntry('', 'must be at most 65,536 bytes serialized'), null, 'no words of its own: the server’s rule is shown');
});

test('the page counts bars against the limit before adding one', () => {
  assert.equal(MAX_BARS, 512);
  assert.equal(barCount(board()), 4);
});

test('a bar both sides changed is a conflict, not silently mine', async () => {
  const { barConflicts } = await import('../web/static/content.js');
  const base = board();
  const theirs = board();
  theirs.sections[1].bars[1] = ['G7'];
  theirs.sections[0].bars[0] = ['Cmaj7'];
  const ops = [
    { t: 'bar', s: 1, b: 1, chords: ['Am7'] }, // both changed bar 2 of Verse
    { t: 'bar', s: 1, b: 0, chords: ['F'] }, // only mine
    { t: 'bar', s: 0, b: 0, chords: ['Cmaj7'] }, // both, to the same chords
  ];
  assert.deepEqual(barConflicts(base, theirs, ops), [{ op: ops[0], s: 1, b: 1, theirs: ['G7'], mine: ['Am7'] }]);
  theirs.sections[1].bars.push(['C']);
  assert.deepEqual(barConflicts(base, theirs, ops), [], 'a section whose bars moved is not compared by place');
});
