// The band's clock: the offset of the fastest sample, and the leader's bar from the server's time
// through count-in, repeats, the end and a loop.
import test from 'node:test';
import assert from 'node:assert/strict';
import { offsetFrom, positionAt } from '../web/static/band-clock.js';

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
  assert.equal(positionAt(content, tr, 9_999), null);
  assert.deepEqual(positionAt(content, tr, 10_000), { section: 0, bar: 0, index: 0 });
  assert.deepEqual(positionAt(content, tr, 10_000 + bar * 4.5), { section: 1, bar: 0, index: 4 });
  assert.equal(positionAt(content, tr, 10_000 + bar * 6), null, 'past the end without loop');
  assert.deepEqual(positionAt(content, { ...tr, loop: true }, 10_000 + bar * 7.2), { section: 0, bar: 1, index: 1 });
  assert.equal(positionAt(content, { ...tr, playing: false }, 10_000), null);
});

test('a count-in comes first, a bar of beats', () => {
  const tr = { playing: true, tempo: 120, startedAt: 0, countIn: true, loop: false };
  assert.deepEqual(positionAt(content, tr, 600), { countIn: 2 });
  assert.deepEqual(positionAt(content, tr, bar + 10), { section: 0, bar: 0, index: 0 });
});

test('from starts at a later bar of the play order, and the tempo is the transport\'s', () => {
  const tr = { playing: true, tempo: 240, startedAt: 0, countIn: false, loop: false, from: 4 };
  assert.deepEqual(positionAt(content, tr, 1_100), { section: 1, bar: 1, index: 5 });
});

test('repeats are played as written', () => {
  const rep = { title: 'R', tempo: 120, beatsPerBar: 4, sections: [{ label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['G'], repeatEnd: 2 }] }] };
  const tr = { playing: true, tempo: 120, startedAt: 0, countIn: false, loop: false };
  assert.deepEqual(positionAt(rep, tr, bar * 2.5), { section: 0, bar: 0, index: 2 });
  assert.deepEqual(positionAt(rep, tr, bar * 3.5), { section: 0, bar: 1, index: 3 });
});
