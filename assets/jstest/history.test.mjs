// summarize (history-panel.js): the one-line account of what differs between two contents, as the
// Pi-change banner and the revision view say it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markedBars, summarize } from '../web/static/history-panel.js';

const board = (sections) => ({ title: 'T', description: '', tempo: 100, beatsPerBar: 4, sections });

test('bars changed in one section name that section', () => {
  const a = board([{ label: 'Verse', bars: [['C'], ['F']] }, { label: 'Chorus', bars: [['G'], ['C'], ['Am'], ['F']] }]);
  const b = board([{ label: 'Verse', bars: [['C'], ['F']] }, { label: 'Chorus', bars: [['G7'], ['C'], ['Dm'], ['F', 'G']] }]);
  assert.deepEqual(summarize(a, b), ['sum.bars', { n: 3, section: 'Chorus' }]);
});

test('bars in several sections are counted together; added and removed bars count', () => {
  const a = board([{ label: 'A', bars: [['C']] }, { label: 'B', bars: [['G'], ['C']] }]);
  const b = board([{ label: 'A', bars: [['C'], ['D']] }, { label: 'B', bars: [['G']] }]);
  assert.deepEqual(summarize(a, b), ['sum.barsMany', { n: 2, k: 2 }]);
});

test('an unlabelled section is named by its number; fields only; nothing', () => {
  const a = board([{ label: '', bars: [['C']] }]);
  assert.deepEqual(summarize(a, board([{ label: '', bars: [['D']] }])), ['sum.bars', { n: 1, section: '1' }]);
  assert.deepEqual(summarize(a, { ...a, tempo: 120 }), ['sum.fields']);
  assert.deepEqual(summarize(a, structuredClone(a)), ['sum.none']);
});

test('bars with form (content version 2) are compared too, beside plain ones', () => {
  const a = board([{ label: 'A', bars: [['C'], { chords: ['F'], ending: 1, repeatEnd: 2 }] }]);
  const b = board([{ label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['F'], ending: 1, repeatEnd: 2 }, { chords: ['G'], ending: 2 }] }]);
  assert.deepEqual(summarize(a, b), ['sum.bars', { n: 2, section: 'A' }]);
  assert.deepEqual(summarize(b, structuredClone(b)), ['sum.none']);
});

// Issue 23, defect 1: the revision view of a chart with form threw "mine.join is not a function".
test('the revision view lists bars with form as chart text, marked against the current board', () => {
  const old = board([{ label: 'A', bars: [
    { chords: ['C'], repeatStart: true, mark: 'segno' },
    { chords: '%' },
    { chords: ['F'], ending: 1, repeatEnd: 2 },
    { chords: ['G7'], ending: 2, repeatEnd: 3 },
    { chords: ['Am', 'D7'], beats: 3, mark: 'ds-al-coda' },
  ] }, { label: 'B', bars: [['C']] }]);
  const cur = board([{ label: 'A', bars: [
    { chords: ['C'], repeatStart: true, mark: 'segno' },
    ['Dm'],
    { chords: ['F'], ending: 1, repeatEnd: 2 },
  ] }, { label: 'B', bars: [{ chords: ['C'] }, ['G']] }]);
  assert.deepEqual(markedBars(old, cur), [
    { name: 'A', bars: [
      { mark: '', text: '|: C §' },
      { mark: 'changed', text: '%' },
      { mark: '', text: '1. F :|' },
      { mark: 'added', text: '2. G7 :| ×3' },
      { mark: 'added', text: 'Am D7 3/4 D.S. al Coda' },
    ] },
    { name: 'B', bars: [{ mark: '', text: 'C' }, { mark: 'removed', text: 'G' }] },
  ]);
});
