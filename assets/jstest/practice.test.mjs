// Issue 23 item 5: what a band practising sets — the practice tempo in steps of 5 BPM within the
// board's bounds, the bars a loop plays (a section or a range, every pass of a repeat), the click's
// accent on 1.
import test from 'node:test';
import assert from 'node:assert/strict';
import { clickBeats, loopBars, nudgeTempo, sectionRanges } from '../web/static/practice.js';
import { playOrder } from '../web/static/form.js';

test('the practice tempo moves 5 BPM at a time, from the board’s, within 30–300', () => {
  assert.equal(nudgeTempo(null, 5, 120), 125);
  assert.equal(nudgeTempo(125, -5, 120), 120);
  assert.equal(nudgeTempo(298, 5, 120), 300);
  assert.equal(nudgeTempo(32, -5, 120), 30);
  assert.equal(nudgeTempo(undefined, 5, null), 125, 'a board without a tempo plays at 120');
});

test('a loop plays the bars of its range as the form plays them, every pass', () => {
  const content = {
    title: 'T', tempo: 120, beatsPerBar: 4,
    sections: [
      { label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['F'], repeatEnd: 2 }] },
      { label: 'B', bars: [['G'], ['C']] },
    ],
  };
  const order = playOrder(content);
  assert.deepEqual(order.map((b) => b.n), [1, 2, 1, 2, 3, 4]);
  assert.deepEqual(loopBars(order, { from: 1, to: 2 }).map((b) => `${b.n}/${b.pass}`), ['1/1', '2/1', '1/2', '2/2']);
  assert.deepEqual(loopBars(order, { from: 4, to: 3 }).map((b) => b.n), [3, 4], 'from and to either way');
  assert.deepEqual(loopBars(order, { from: 9, to: 12 }).map((b) => b.n), order.map((b) => b.n), 'an empty range plays the whole chart');
  assert.equal(loopBars(order, null), order);
  assert.deepEqual(sectionRanges(content), [{ s: 0, from: 1, to: 2 }, { s: 1, from: 3, to: 4 }]);
});

test('the click sounds every beat of the bar, the first accented', () => {
  assert.deepEqual(clickBeats(3), [{ beat: 0, accent: true }, { beat: 1, accent: false }, { beat: 2, accent: false }]);
  assert.equal(clickBeats(7).filter((c) => c.accent).length, 1);
});
