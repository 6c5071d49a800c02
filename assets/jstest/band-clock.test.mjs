// The band's clock: the offset of the fastest sample, and the leader's bar from the server's time
// through count-in, repeats, the end and a loop.
import test from 'node:test';
import assert from 'node:assert/strict';
import { offsetFrom, positionAt, transportAt } from '../web/static/band-clock.js';

test('the offset comes from the sample with the shortest round trip', () => {
  const samples = [
    { sent: 1000, serverTime: 5100, received: 1200 }, // rtt 200: offset 4000
    { sent: 2000, serverTime: 6010, received: 2020 }, // rtt 20: offset 4000
    { sent: 3000, serverTime: 9999, received: 2990 }, // a clock that went back: ignored
  ];
  assert.equal(offsetFrom(samples), 4000);
  assert.equal(offsetFrom([]), 0);
});

const content = {
  title: 'T', tempo: 120, beatsPerBar: 4,
  sections: [{ label: 'A', bars: [['C'], ['F'], ['G'], ['C']] }, { label: 'B', bars: [['Am'], ['D7']] }],
};
const bar = 2000; // 4 beats at 120 BPM

test('the bar is placed from the start time, not from when asked', () => {
  const tr = { playing: true, tempo: 120, startedAt: 10_000, countIn: false, loop: false };
  assert.deepEqual(positionAt(content, tr, 9_999), { until: 10_000 }, 'before the start: when it starts');
  assert.deepEqual(positionAt(content, tr, 10_000), { section: 0, bar: 0, index: 0, until: 10_000 + bar });
  assert.deepEqual(positionAt(content, tr, 10_000 + bar * 4.5), { section: 1, bar: 0, index: 4, until: 10_000 + bar * 5 });
  assert.equal(positionAt(content, tr, 10_000 + bar * 6), null, 'past the end without loop');
  assert.deepEqual(positionAt(content, { ...tr, loop: true }, 10_000 + bar * 7.2), { section: 0, bar: 1, index: 1, until: 10_000 + bar * 8 });
  assert.equal(positionAt(content, { ...tr, playing: false }, 10_000), null);
});

test('a count-in comes first, a bar of beats', () => {
  const tr = { playing: true, tempo: 120, startedAt: 0, countIn: true, loop: false };
  assert.deepEqual(positionAt(content, tr, 600), { countIn: 2, until: 1000 });
  assert.deepEqual(positionAt(content, tr, bar + 10), { section: 0, bar: 0, index: 0, until: bar * 2 });
});

test('from is the bar of the play order that starts at startedAt, at the transport\'s tempo', () => {
  const tr = { playing: true, tempo: 240, startedAt: 0, countIn: false, loop: false, from: 4 };
  assert.deepEqual(positionAt(content, tr, 1_100), { section: 1, bar: 1, index: 5, until: 2_000 });
  assert.equal(positionAt(content, tr, 2_000), null, 'the end');
  assert.equal(positionAt(content, { ...tr, from: 6 }, 0), null, 'past the last bar');
  // A loop goes on from the song's first bar, not from `from`: a seek is not a loop's range.
  assert.deepEqual(positionAt(content, { ...tr, loop: true }, 2_100), { section: 0, bar: 0, index: 0, until: 3_000 });
  assert.deepEqual(positionAt(content, { ...tr, loop: true }, 2_000 + 6_000 + 5_500), { section: 1, bar: 1, index: 5, until: 14_000 });
});

test('repeats are played as written', () => {
  const rep = { title: 'R', tempo: 120, beatsPerBar: 4, sections: [{ label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['G'], repeatEnd: 2 }] }] };
  const tr = { playing: true, tempo: 120, startedAt: 0, countIn: false, loop: false };
  assert.deepEqual(positionAt(rep, tr, bar * 2.5), { section: 0, bar: 0, index: 2, until: bar * 3 });
  assert.deepEqual(positionAt(rep, tr, bar * 3.5), { section: 0, bar: 1, index: 3, until: bar * 4 });
});

test('a tempo change while playing holds from its bar on; the transport before it holds until then', () => {
  const before = { playing: true, tempo: 120, startedAt: 0, countIn: false, loop: false, from: 0 };
  // At bar 2 (4 s in) the leader goes to 240 BPM: sent a little before, at 3.85 s.
  const after = { playing: true, tempo: 240, startedAt: bar * 2, countIn: false, loop: false, from: 2 };
  assert.equal(transportAt(before, after, 3_850), before);
  assert.deepEqual(positionAt(content, transportAt(before, after, 3_850), 3_850), { section: 0, bar: 1, index: 1, until: 4_000 });
  assert.equal(transportAt(before, after, 4_000), after);
  assert.deepEqual(positionAt(content, after, 4_000 + 1_100), { section: 0, bar: 3, index: 3, until: 6_000 });
  // A stop holds at once; a first start has nothing before it.
  assert.equal(transportAt(before, undefined, 100), undefined);
  assert.equal(transportAt(undefined, after, 100), after);
  assert.equal(transportAt({ playing: false }, after, 100), after);
});
