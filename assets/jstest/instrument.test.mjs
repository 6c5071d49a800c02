// Issue 23 item 6: a view written for a B♭, E♭ or F instrument transposes what is shown (spelled in the
// written key), never what sounds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { view } from '../web/static/transpose.js';

const song = {
  title: 'Blues', key: 'Bb', tempo: 120, beatsPerBar: 4,
  sections: [{ label: 'A', bars: [['Bb7'], ['Eb7'], ['F7', 'Gm7/D'], ['N.C.']] }],
};
const chords = (c) => c.sections.flatMap((s) => s.bars.map((b) => b.join(' ')));

test('B♭, E♭ and F instruments read their part written up from concert pitch', () => {
  const table = [
    ['Bb', 'C', ['C7', 'F7', 'G7 Am7/E', 'N.C.']],
    ['Eb', 'G', ['G7', 'C7', 'D7 Em7/B', 'N.C.']],
    ['F', 'F', ['F7', 'Bb7', 'C7 Dm7/A', 'N.C.']],
  ];
  for (const [instrument, key, want] of table) {
    const v = view(song, { instrument });
    assert.deepEqual(chords(v.shown), want, instrument);
    assert.equal(v.shapesKey, key, `${instrument}: the written key`);
    assert.equal(v.soundingKey, 'Bb', `${instrument}: it sounds in concert Bb`);
    assert.deepEqual(chords(v.sounding), chords(song), `${instrument}: the player sounds concert pitch`);
    assert.equal(v.instrument, instrument);
  }
});

test('an instrument follows a transposed view; numbers are the same for every instrument; unknown is concert', () => {
  const v = view(song, { instrument: 'Bb', toKey: 'C' });
  assert.equal(v.soundingKey, 'C');
  assert.equal(v.shapesKey, 'D');
  assert.deepEqual(chords(v.shown).slice(0, 2), ['D7', 'G7']);
  assert.deepEqual(chords(view(song, { instrument: 'Eb', numbers: true }).shown), chords(view(song, { numbers: true }).shown));
  assert.equal(view(song, { instrument: 'Eb', numbers: true }).instrument, '');
  assert.equal(view(song, { instrument: 'G' }).instrument, '');
  assert.deepEqual(chords(view(song, { instrument: 'G' }).shown), chords(song));
});
