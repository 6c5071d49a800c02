// Chord fitting's choice of a bar's step (chord-fit.js) from its chords' widths at the unfitted size,
// the gap between chords and the room: app.css's sizes are 1, 0.88, 0.77 and 0.62 of the unfitted one,
// and a width fits with 2% and 1 px to spare.
import test from 'node:test';
import assert from 'node:assert/strict';
import { stepFor } from '../web/static/chord-fit.js';

const cases = [
  { name: 'no chords', widths: [], gap: 5, step: 0 },
  { name: 'one line at full size', widths: [40, 40], gap: 5, step: 0 },
  { name: 'one line one step down', widths: [50, 50], gap: 4, step: 1 },
  { name: 'one line two steps down', widths: [55, 55], gap: 4, step: 2 },
  { name: 'the gaps count', widths: [45, 45, 0.1], gap: 8, step: 1 },
  { name: 'never one line: they wrap at full size, where none sticks out', widths: [60, 60, 60], gap: 4, step: 0 },
  { name: 'never one line, the widest sticks out at full size: they wrap a step down', widths: [105, 60, 60], gap: 4, step: 1 },
  { name: 'the widest sticks out two steps down: the smallest size', widths: [130], gap: 0, step: 3 },
  { name: 'a width fits with room to spare', widths: [97], gap: 0, step: 0 },
  { name: 'without room to spare it does not', widths: [97.1], gap: 0, step: 1 },
];

for (const c of cases) {
  test(`stepFor: ${c.name}`, () => {
    assert.equal(stepFor({ widths: c.widths, gap: c.gap, room: 100 }), c.step);
  });
}
