// Issue 23 item 4: ♭ and ♯ glyphs on the grid and on paper over the stored ASCII spelling, and a
// Nashville number's quality raised and named apart from the number (notation.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { isNumber, keyText, pieces, raised, shown, spokenChord } from '../web/static/notation.js';
import { split } from '../web/static/chords.js';

test('accidentals of the root, the bass and the alterations are drawn as glyphs; words keep their letters', () => {
  const table = [
    ['root', 'Bb', 'B♭'], ['root', 'F#', 'F♯'], ['root', 'B', 'B'], ['root', 'b7', '♭7'], ['root', '#4', '♯4'], ['root', '7', '7'],
    ['q', '7b9', '7♭9'], ['q', 'maj7#11', 'maj7♯11'], ['q', 'm7b5', 'm7♭5'], ['q', 'sus4', 'sus4'], ['q', 'dim7', 'dim7'],
    ['q', 'add9', 'add9'], ['q', '7#9#5', '7♯9♯5'], ['q', 'b9', '♭9'],
    ['bass', '/F#', '/F♯'], ['bass', '/Bb', '/B♭'], ['bass', '/B', '/B'], ['bass', '/#1', '/♯1'], ['bass', '/b7', '/♭7'],
  ];
  for (const [kind, text, want] of table) {
    assert.equal(shown(kind, text), want, `${kind} ${text}`);
    assert.equal(pieces(kind, text).map((p) => (typeof p === 'string' ? p : p.acc)).join(''), text, `${kind} ${text}: the ASCII stays the text`);
  }
});

test('a Nashville number raises its quality from its first degree, and is said apart from it', () => {
  assert.deepEqual(raised('7'), ['', '7']);
  assert.deepEqual(raised('m7'), ['m', '7']);
  assert.deepEqual(raised('maj7'), ['maj', '7']);
  assert.deepEqual(raised('7sus4'), ['', '7sus4']);
  assert.deepEqual(raised('m7b5'), ['m', '7b5']);
  assert.deepEqual(raised('m'), ['m', '']);
  assert.ok(isNumber('1') && isNumber('b7') && isNumber('#4') && !isNumber('B') && !isNumber('Bb'));
  assert.equal(spokenChord(split('17')), '1 7', '17 is not seventeen');
  assert.equal(spokenChord(split('b77')), '♭7 7');
  assert.equal(spokenChord(split('2m7')), '2 m7');
  assert.equal(spokenChord(split('67/#1')), '6 7 / ♯1');
  assert.equal(spokenChord(split('4')), '4');
  assert.equal(spokenChord(split('Bb7')), 'Bb7', 'a letter chord is read as written');
});

test('the short signs write a quality’s words as signs, for a bar short of room (issue 23 defect 7)', async () => {
  const { shortQuality } = await import('../web/static/notation.js');
  const table = [['maj7', '∆7'], ['maj9', '∆9'], ['maj7#11', '∆7#11'], ['m7b5', 'ø7'], ['dim7', '°7'], ['dim', '°'], ['aug', '+'],
    ['m(maj7)', 'm∆7'], ['7sus4', '7sus'], ['sus4', 'sus'], ['m7', 'm7'], ['7b9', '7b9'], ['', ''], ['add9', 'add9']];
  for (const [q, want] of table) assert.equal(shortQuality(q), want, q);
});

test('a busy bar keeps each chord in its beat’s share when a step allows it, else one line', async () => {
  const { stepFor } = await import('../web/static/chord-fit.js');
  // Four chords in 160 px with 5 px gaps: a share is 36 px.
  assert.equal(stepFor({ widths: [30, 30, 30, 30], gap: 5, room: 160, shares: true }), 0);
  assert.equal(stepFor({ widths: [30, 44, 30, 30], gap: 5, room: 160, shares: true }), 2, '44 × 0.77 fits a share');
  assert.equal(stepFor({ widths: [30, 44, 30, 30], gap: 5, room: 160 }), 0, 'without shares one line is enough');
  assert.equal(stepFor({ widths: [30, 60, 30, 30], gap: 5, room: 160, shares: true }), 1, 'no step gives shares: one line');
});

// Issue 23: the stage and print head said "Key Bb" over B♭ chords.
test('a key is written with the glyphs, as the grid writes a root', () => {
  for (const [key, want] of [['Bb', 'B♭'], ['Bbm', 'B♭m'], ['F#', 'F♯'], ['F#m', 'F♯m'], ['C', 'C'], ['Ebm', 'E♭m'], ['Cb', 'C♭']]) {
    assert.equal(keyText(key), want, key);
  }
});
