// The page's play order (form.js) against the same hand-written table as board/form_test.go.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { barForm, endingSpans, jumpEndings, playOrder, writeBar, MAX_PLAYED_BARS } from '../web/static/form.js';

const table = JSON.parse(readFileSync(new URL('../../board/formtable/play-order.json', import.meta.url)));

for (const c of table.cases) {
  test(`form table: ${c.name}`, () => {
    const content = { title: 'T', tempo: 120, beatsPerBar: 4, sections: c.sections };
    const order = playOrder(content);
    if (c.error) {
      // The server refuses it; the page still plays something bounded.
      assert.ok(order.length <= MAX_PLAYED_BARS);
      return;
    }
    const first = [];
    let n = 0;
    for (const s of c.sections) {
      first.push(n);
      n += s.bars.length;
    }
    assert.equal(order.map((p) => first[p.section] + p.bar + 1).join(' '), c.played);
    if (c.chords) assert.equal(order.map((p) => p.chords[0]).join(' '), c.chords);
    if (c.beats) assert.equal(order.map((p) => p.beats).join(' '), c.beats);
    if (c.rhythm) assert.equal(order.map((p) => p.rhythm.join('+')).join(' '), c.rhythm);
    order.forEach((p, i) => assert.equal(p.index, i));
  });
}

test('a broken form plays in written order', () => {
  const content = { beatsPerBar: 3, sections: [{ bars: [['C'], { chords: ['D'], repeatEnd: 2 }, ['E']] }] };
  assert.deepEqual(playOrder(content).map((p) => [p.bar, p.chords[0], p.beats]), [[0, 'C', 3], [1, 'D', 3], [2, 'E', 3]]);
});

test('writeBar writes a bar with chords alone as the version-1 array', () => {
  assert.deepEqual(writeBar(barForm(['C', 'G7'])), ['C', 'G7']);
  assert.deepEqual(writeBar(barForm({ chords: ['C'] })), ['C']);
  const o = { chords: '%', beats: 3, repeatStart: true, repeatEnd: 2, ending: 1, mark: 'segno' };
  assert.deepEqual(writeBar(barForm(o)), o);
  const timed = { chords: ['C', 'G7'], durations: [3, 1] };
  assert.deepEqual(writeBar(barForm(timed)), timed);
});

// Issue 23, defect 6: the player's readout said "Bar 13" while the cursor was on chart bar 1. Each played
// bar carries its number on the chart, which time it is heard and how often in all.
test('each played bar knows its number on the chart and its pass', () => {
  const content = { beatsPerBar: 4, sections: [
    { label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['F'], ending: 1, repeatEnd: 2 }, { chords: ['G'], ending: 2 }] },
    { label: 'B', bars: [['Am'], { chords: '%', repeatEnd: 3, repeatStart: true }] },
  ] };
  assert.deepEqual(playOrder(content).map((p) => `${p.n}:${p.pass}/${p.times}`),
    ['1:1/2', '2:1/1', '1:2/2', '3:1/1', '4:1/1', '5:1/3', '5:2/3', '5:3/3']);
});

// Issue 23, defect 5: an ending's bracket covered only its first bar.
test('each ending spans its bars: to its end repeat, the last to its section end or the next repeat', () => {
  const content = { beatsPerBar: 4, sections: [
    { label: 'A', bars: [{ chords: ['C'], repeatStart: true }, ['D'], { chords: ['E'], ending: 1 }, { chords: ['F'], repeatEnd: 2 }, { chords: ['G'], ending: 2 }, ['A'], ['B']] },
    { label: 'B', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['D'], ending: 1, repeatEnd: 2 }, { chords: ['E'], ending: 2 }, { chords: ['F'], repeatStart: true, repeatEnd: 2 }] },
  ] };
  assert.deepEqual(endingSpans(content), [[0, 0, 1, 1, 2, 2, 2], [0, 1, 2, 0]]);
  // A broken form (ending 1 with no end repeat): the marked bar only.
  assert.deepEqual(endingSpans({ sections: [{ bars: [{ chords: ['C'], repeatStart: true }, { chords: ['D'], ending: 1 }, ['E']] }] }), [[0, 1, 0]]);
});

// Content schema version 3: ending 1 runs across a section mark to its end repeat (One For My Baby), and
// an ending reached by a jump (Just One Of Those Things) is bracketed where it stands, after the bridge.
test("an ending's bracket runs across a section mark; an ending reached by a jump has its own", () => {
  const content = { beatsPerBar: 4, sections: [
    { label: 'A', bars: [{ chords: ['C'], repeatStart: true }, { chords: ['D'], ending: 1 }] },
    { label: 'B', bars: [{ chords: ['E'], repeatEnd: 2 }, { chords: ['F'], ending: 2 }, ['G'], { chords: ['A'], mark: 'dc' }, { chords: ['B'], ending: 3 }] },
  ] };
  assert.deepEqual(endingSpans(content), [[0, 1], [1, 2, 2, 2, 3]]);
  assert.equal(playOrder(content).map((p) => p.n).join(' '), '1 2 3 1 4 5 6 1 7');
});

// The grid writes a plain D.C. right before the ending it leads to as charts do: "D.C. al 3rd ending".
test('a jump that leads to an ending is written al that ending', async () => {
  const { formWords } = await import('../web/static/form-view.js');
  const content = { beatsPerBar: 4, sections: [{ bars: [{ chords: ['C'], repeatStart: true }, { chords: ['D'], ending: 1, repeatEnd: 2 },
    { chords: ['E'], ending: 2 }, { chords: ['F'], mark: 'dc' }, { chords: ['G'], ending: 3 }] }] };
  assert.deepEqual(jumpEndings(content), [[0, 0, 0, 3, 0]]);
  assert.deepEqual(formWords(barForm(content.sections[0].bars[3]), 4, 3), ['D.C. al 3rd ending']);
});

// A chart with two jumps (content schema version 4, Belleville) draws each on its own bar, and neither is
// taken for a jump to an ending.
test('a chart with two jumps writes both', async () => {
  const { formWords } = await import('../web/static/form-view.js');
  const content = { beatsPerBar: 4, sections: [
    { label: 'A', bars: [{ chords: ['D'], repeatStart: true }, { chords: ['D'], repeatEnd: 2, mark: 'fine' }] },
    { label: 'B', bars: [{ chords: ['Gm6'], mark: 'segno' }, { chords: ['A7'], mark: 'dc-al-fine' }] },
    { label: 'Solos', bars: [{ chords: ['D6/9'], repeatStart: true }, { chords: ['A7'], repeatEnd: 2, mark: 'ds-al-fine' }] },
  ] };
  const words = content.sections.flatMap((s) => s.bars.map((b) => formWords(barForm(b), 4).join(' ')));
  assert.deepEqual(words, ['', 'Fine', '§', 'D.C. al Fine', '', 'D.S. al Fine']);
  assert.deepEqual(jumpEndings(content), [[0, 0], [0, 0], [0, 0]]);
  assert.equal(playOrder(content).map((p) => p.n).join(' '), '1 2 1 2 3 4 1 2 5 6 5 6 3 4 1 2');
});
