// Transposition and numbers on a board with form (content schema version 2): bars written as objects keep
// their form, % bars stay %.
import test from 'node:test';
import assert from 'node:assert/strict';

test('a board with form transposes and shows numbers: bars keep their form, % bars stay %', async () => {
  const { view, guessKey } = await import('../web/static/transpose.js');
  const content = {
    title: 'T', key: 'C', tempo: 120, beatsPerBar: 4, sections: [
      { label: 'A', bars: [{ chords: ['C', 'G7/B'], repeatStart: true }, { chords: '%' }, { chords: ['F'], repeatEnd: 2 }, ['Am']] },
    ],
  };
  const v = view(content, { transpose: 2 });
  assert.deepEqual(v.sounding.sections[0].bars, [{ chords: ['D', 'A7/C#'], repeatStart: true }, { chords: '%' }, { chords: ['G'], repeatEnd: 2 }, ['Bm']]);
  const n = view(content, { numbers: true });
  assert.equal(n.shown.sections[0].bars[0].repeatStart, true);
  assert.equal(n.shown.sections[0].bars[1].chords, '%');
  assert.equal(guessKey({ ...content, key: undefined, sections: [{ bars: [{ chords: '%' }, { chords: ['Am'] }] }] }).minor, true);
});
