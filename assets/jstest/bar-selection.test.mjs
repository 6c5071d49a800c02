// bar-selection.js: the bars asked about, as the send carries them (chat/selection.go writes them out
// for the model) and as the conversation folds them back into a chip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chipOf, foldSelection, selectionOf, viewWords } from '../web/static/bar-selection.js';

const board = {
  title: 'T', description: '', key: 'G', tempo: 100, beatsPerBar: 4,
  sections: [
    { label: 'Intro', bars: [['G'], ['D']] },
    { label: 'Verse', bars: [['G'], ['Em'], { chords: ['C', 'D'], repeatEnd: 2 }, ['G']] },
  ],
};
const shown = {
  ...board,
  key: 'A',
  sections: [
    { label: 'Intro', bars: [['A'], ['E']] },
    { label: 'Verse', bars: [['A'], ['F#m'], { chords: ['D', 'E'], repeatEnd: 2 }, ['A']] },
  ],
};

test('bars are numbered across the board and written as the grid shows them', () => {
  const sel = selectionOf(board, shown, 1, 3, 1, 'transposed +2 semitones (sounding key A)');
  assert.deepEqual(sel, { section: 'Verse', from: 4, bars: ['F#m', 'D E :|', 'A'], view: 'transposed +2 semitones (sounding key A)' });
  assert.deepEqual(chipOf(sel), { section: 'Verse', from: 4, to: 6 });
  assert.equal(selectionOf(board, board, 0, 0, 0).view, undefined, 'no view when the grid shows the board');
});

test('the view in words: transposition, capo, numbers; nothing for the board as it is', () => {
  assert.equal(viewWords(board, { semitones: 2, soundingKey: 'A' }, { capo: 0 }), 'transposed +2 semitones (sounding key A)');
  assert.equal(viewWords(board, { semitones: 0, shapesKey: 'E' }, { capo: 3 }), 'capo 3: chord shapes in E');
  assert.equal(viewWords(board, { semitones: 0 }, { capo: 0, numbers: true }), 'Nashville numbers');
  assert.equal(viewWords(board, { semitones: 0 }, { capo: 0 }), '');
});

test('the block the host writes folds back into its chip, and only that block', () => {
  const sent = 'Why static?\n\n[Tele selection: section "Verse \\"A\\" \\u003cB\\u003e", bars 5-8; view: transposed +2 (key A)]\n5: C7\n6: F7 Bb7\n7: |: F :|\n8: %';
  assert.deepEqual(foldSelection(sent), { text: 'Why static?', chip: { section: 'Verse "A" <B>', from: 5, to: 8 } });
  assert.equal(foldSelection('Why static?'), null);
  assert.equal(foldSelection('x\n\n[Tele selection: section "A", bars 1-2]\nnot a bar'), null);
  assert.deepEqual(foldSelection('x\n\n[Tele selection: section "", bars 3-3]\n3: C').chip, { section: '', from: 3, to: 3 });
});
