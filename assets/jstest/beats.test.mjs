// Beat positions typed in the bar editor and fast entry (beats.js), and the player's schedule
// (form.js playOrder's rhythm) for bars with durations.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readTimed, durationsOf, rhythmsFor, withRhythm } from '../web/static/beats.js';
import { playOrder, withChords } from '../web/static/form.js';

test('dots give the chord before a beat more', () => {
  assert.deepEqual(readTimed('C . . G7'), { text: 'C G7', counts: [3, 1], lead: false });
  assert.deepEqual(readTimed('F .. G C'), { text: 'F G C', counts: [3, 1, 1], lead: false });
  assert.deepEqual(readTimed('Am / E7'), { text: 'Am E7', counts: [2, 1], lead: false });
  assert.deepEqual(readTimed('Am7 D7'), { text: 'Am7 D7', counts: null, lead: false });
  assert.equal(readTimed('. C G').lead, true);
  assert.equal(readTimed('C/E . G').text, 'C/E G'); // a slash chord is a chord
});

test('an even share stores no durations', () => {
  assert.deepEqual(durationsOf([3, 1], 4), [3, 1]);
  assert.equal(durationsOf([2, 2], 4), null);
  assert.equal(durationsOf([4], 4), null);
  assert.deepEqual(durationsOf([1, 1], 3), [1, 1]); // does not fill the bar: the server says so
});

test('the picker lists the uneven rhythms', () => {
  assert.deepEqual(rhythmsFor(2, 4), [[3, 1], [1, 3]]);
  assert.deepEqual(rhythmsFor(3, 4), [[2, 1, 1], [1, 2, 1], [1, 1, 2]]);
  assert.deepEqual(rhythmsFor(4, 4), []);
  assert.deepEqual(rhythmsFor(2, 3), [[2, 1], [1, 2]]);
  assert.deepEqual(rhythmsFor(1, 4), []);
  assert.ok(rhythmsFor(4, 12).length <= 24);
  assert.equal(withRhythm(['C', 'G7'], [3, 1]), 'C . . G7');
  assert.equal(withRhythm(['C', 'G7'], null), 'C G7');
});

test('the player schedules each chord at its beat', () => {
  const content = { tempo: 120, beatsPerBar: 4, sections: [{ bars: [
    { chords: ['C', 'G7'], durations: [3, 1] },
    { chords: '%' },
    ['F', 'G'],
    { chords: ['Am', 'E7'], durations: [3, 1], beats: 3 }, // does not fit its bar: even
  ] }] };
  assert.deepEqual(playOrder(content).map((p) => p.rhythm), [[3, 1], [3, 1], [2, 2], [1.5, 1.5]]);
});

test('new chords keep the durations only while the count holds', () => {
  const bar = { chords: ['C', 'G7'], durations: [3, 1] };
  assert.deepEqual(withChords(bar, ['D', 'A7']), { chords: ['D', 'A7'], durations: [3, 1] });
  assert.deepEqual(withChords(bar, ['D']), ['D']);
});

test('a pasted chart line keeps each chord at its beat', async () => {
  const { parsePaste } = await import('../web/static/fast-entry.js');
  const catalogue = { normalize: (s) => s, parse: (s) => /^[A-G]/.test(s), suggest: () => null };
  assert.deepEqual(parsePaste('|: C . . G7 | F . G . | Am / / E7 :|', catalogue, 4).bars, [
    { chords: ['C', 'G7'], durations: [3, 1], repeatStart: true },
    ['F', 'G'],
    { chords: ['Am', 'E7'], durations: [3, 1], repeatEnd: 2 },
  ]);
  const r = parsePaste('| C . . G7 | Am . E7 |', catalogue, 4);
  assert.equal(r.bars, null);
  assert.deepEqual(r.beatsWrong, { cell: 'Am . E7', sum: 3, beats: 4 });
  assert.deepEqual(parsePaste('| Am . E7 | Am . . |', catalogue, 3).bars, [{ chords: ['Am', 'E7'], durations: [2, 1] }, ['Am']]);
});

test('a change list shows a bar with its beats', async () => {
  const { barText } = await import('../web/static/form.js');
  assert.equal(barText({ chords: ['C', 'G7'], durations: [3, 1] }), 'C . . G7');
  assert.equal(barText({ chords: ['C', 'G7'], durations: [3, 1], repeatEnd: 2 }), 'C . . G7 :|×2');
  assert.equal(barText(['C', 'G7']), 'C G7');
});
