// Fast entry (fast-entry.js): the paste parser and arrow-key moves between bars.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Catalogue } from '../web/static/chords.js';
import { isSimile, nextBar, parseCells, parsePaste, readCells } from '../web/static/fast-entry.js';

const cat = new Catalogue(JSON.parse(readFileSync(new URL('../../board/testdata/catalogue.json', import.meta.url), 'utf8')));

test('pasted chart lines make one bar per cell', () => {
  assert.deepEqual(parseCells('| C | Am7 | F G | N.C. |'), ['C', 'Am7', 'F G', 'N.C.']);
  assert.deepEqual(parseCells('C | Am7|F G'), ['C', 'Am7', 'F G']);
  assert.deepEqual(parseCells('||: Dm7 | G7 :|| Cmaj7 ||'), ['Dm7', 'G7', 'Cmaj7']);
  assert.deepEqual(parseCells('Dm7 G7\nCmaj7\n'), ['Dm7 G7', 'Cmaj7']);
  assert.equal(parseCells('C Am'), null, 'one cell is an ordinary bar');
  assert.equal(parseCells('| C |'), null);
  assert.equal(parseCells(''), null);
});

test('pasted bars are read with the catalogue', () => {
  assert.deepEqual(parsePaste('| C | Am7 | F G | nc |', cat), { bars: [['C'], ['Am7'], ['F', 'G'], ['N.C.']], unknown: null });
  assert.deepEqual(parsePaste('| Dø | G7♭9 | Cm(M7) |', cat).bars, [['Dm7b5'], ['G7b9'], ['Cm(maj7)']]);
  assert.deepEqual(parsePaste('| C | Cdim7b |', cat), { bars: null, unknown: { symbol: 'Cdim7b', suggestion: 'Cdim7' } });
  assert.deepEqual(parsePaste('| C | C D E F G |', cat), { bars: null, unknown: null });
  assert.equal(parsePaste('C', cat), null);
});

// Issue 23, defect 8: "|:" and ":|" were dropped silently, "%" and "x" refused as "not a chord".
test('pasted repeat signs and % bars are read as the form they are', () => {
  assert.deepEqual(parsePaste('|: Cm7 | F7 | % | Bbmaj7 :|', cat).bars,
    [{ chords: ['Cm7'], repeatStart: true }, ['F7'], { chords: '%' }, { chords: ['Bbmaj7'], repeatEnd: 2 }]);
  assert.deepEqual(parsePaste('||: C | x :|| F | G :| x4 |', cat).bars,
    [{ chords: ['C'], repeatStart: true }, { chords: '%', repeatEnd: 2 }, ['F'], { chords: ['G'], repeatEnd: 4 }]);
  assert.deepEqual(parsePaste('| Dm7 | G7 :|×3', cat).bars, [['Dm7'], { chords: ['G7'], repeatEnd: 3 }]);
  assert.deepEqual(parsePaste('|: C :|', cat).bars, [{ chords: ['C'], repeatStart: true, repeatEnd: 2 }], 'one bar with its signs is a paste');
  assert.deepEqual(parsePaste('Cm7\n%\nF7', cat).bars, [['Cm7'], { chords: '%' }, ['F7']]);
  assert.deepEqual(readCells('|: A | B :|: C :|'), [
    { text: 'A', repeatStart: true, repeatEnd: 0 }, { text: 'B', repeatStart: false, repeatEnd: 2 }, { text: 'C', repeatStart: true, repeatEnd: 2 }]);
  assert.ok(isSimile(' % ') && isSimile('x') && isSimile('X') && !isSimile('x2') && !isSimile('C'));
  assert.deepEqual(parsePaste('| C | %% |', cat), { bars: null, unknown: { symbol: '%%', suggestion: parsePaste('| C | %% |', cat).unknown.suggestion } });
});

test('arrow keys: left and right through every bar, up and down to the nearest bar of the next row', () => {
  // Two rows of four bars, 100 px wide, 50 px high; a short third row.
  const bars = Array.from({ length: 10 }, (_, i) => ({ i, top: Math.floor(i / 4) * 50, left: (i % 4) * 100, height: 50 }));
  const rect = (b) => b;
  assert.equal(nextBar(bars, bars[1], 'ArrowRight', rect).i, 2);
  assert.equal(nextBar(bars, bars[4], 'ArrowLeft', rect).i, 3);
  assert.equal(nextBar(bars, bars[0], 'ArrowLeft', rect), null);
  assert.equal(nextBar(bars, bars[1], 'ArrowDown', rect).i, 5);
  assert.equal(nextBar(bars, bars[7], 'ArrowDown', rect).i, 9, 'the nearest bar of a short row');
  assert.equal(nextBar(bars, bars[6], 'ArrowUp', rect).i, 2);
  assert.equal(nextBar(bars, bars[2], 'ArrowUp', rect), null);
  assert.equal(nextBar(bars, bars[5], 'Home', rect).i, 0);
  assert.equal(nextBar(bars, bars[5], 'End', rect).i, 9);
  assert.equal(nextBar(bars, bars[5], 'x', rect), null);
});
