// The lyric line's layout core (lyrics-layout.js): chords over the syllables they fall on, wrap places
// that never part a chord from its syllable, offsets in UTF-16 code units with CJK and emoji text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { layoutLine, placeChords, wordsWidth, wrapPlaces } from '../web/static/lyrics-layout.js';

// words writes a layout as text: words apart by ' | ', pieces by '/', a chord as [G] before its text,
// a space as _.
const words = (line) => layoutLine(line).map((w) => w.map((p) => (p.chord ? `[${p.chord}]` : '') + p.text.replaceAll(' ', '_')).join('/')).join(' | ');
const line = (text, ...chords) => ({ text, chords: chords.map(([at, chord]) => ({ at, chord })) });

test('chords stand over the syllable at their offset, and the line wraps between words only', () => {
  const cases = [
    ['no chords', line('Amazing grace'), 'Amazing_ | grace'],
    ['chord at the start', line('Amazing grace', [0, 'G']), '[G]Amazing_ | grace'],
    ['chord inside a word', line('Amazing grace', [2, 'G'], [8, 'C']), 'Am/[G]azing_ | [C]grace'],
    ['chord on the space', line('Amazing grace', [7, 'D']), 'Amazing/[D]_ | grace'],
    ['chord at the end', line('how sweet', [0, 'G'], [9, 'D7']), '[G]how_ | sweet/[D7]'],
    ['empty line with chords', line('', [0, 'G'], [0, 'C']), '[G]/[C]'],
    ['empty line', line(''), ''],
    ['many spaces', line('la   la', [5, 'F']), 'la___ | [F]la'],
  ];
  for (const [name, l, want] of cases) assert.equal(words(l), want, name);
});

test('a chord is never parted from its syllable: every chord starts a piece inside one word', () => {
  const l = line('When I find myself in times of trouble', [0, 'C'], [12, 'G'], [21, 'Am'], [30, 'F']);
  const laid = layoutLine(l);
  const text = laid.flat().map((p) => p.text).join('');
  assert.equal(text, l.text, 'the pieces hold the text in order, every character once');
  for (const c of l.chords) {
    const piece = laid.flat().find((p) => p.chord === c.chord);
    assert.equal(piece.at, c.at, c.chord);
    assert.ok(piece.text.length > 0, `${c.chord} has a syllable under it`);
  }
  const wraps = new Set(wrapPlaces(l.text));
  for (const w of laid) assert.ok(w[0].at === 0 || wraps.has(w[0].at), `a word starts at a wrap place (${w[0].at})`);
});

test('a piece ending inside a word is joined to the next one (a pushed syllable gets its hyphen)', () => {
  const laid = layoutLine(line('Amazing', [2, 'Gmaj7'], [4, 'D']));
  assert.deepEqual(laid[0].map((p) => Boolean(p.joined)), [true, true, false]);
});

test('offsets count UTF-16 code units: CJK wraps between characters, emoji are never cut', () => {
  // 奇异恩典 — each Han character is one code unit; a chord at 2 stands over 恩.
  assert.equal(words(line('奇异恩典，何等甘甜', [0, 'G'], [2, 'C'], [7, 'D'])), '[G]奇 | 异 | [C]恩 | 典， | 何 | 等 | [D]甘 | 甜');
  // 🎸 is two code units (a surrogate pair): "🎸 la" has "la" at 3.
  assert.equal(words(line('🎸 la', [3, 'E'])), '🎸_ | [E]la');
  // An offset inside the pair moves to the emoji's start, never between its halves.
  assert.deepEqual(placeChords(line('🎸 la', [1, 'E'])), [{ at: 0, chord: 'E' }]);
  // A family emoji (a ZWJ sequence of 8 code units) is one character.
  const family = '👨‍👩‍👧';
  assert.equal(family.length, 8);
  assert.deepEqual(placeChords(line(`${family}x`, [5, 'A'], [8, 'B'])), [{ at: 0, chord: 'A' }, { at: 8, chord: 'B' }]);
  // A letter and its combining accent stay together.
  assert.deepEqual(placeChords(line('Ame\u0301lie', [3, 'F'])), [{ at: 2, chord: 'F' }]);
  // Offsets past the end are drawn at the end; two chords moved to one place both show.
  assert.equal(words(line('ab', [9, 'C'])), 'ab/[C]');
  assert.equal(words(line('🎸', [0, 'C'], [1, 'D'])), '[C]/[D]🎸');
});

test('Latin text, accented letters written as one character included, is cut at every character', () => {
  const cases = [
    ['accented letters', line('Ça ira, café', [0, 'C'], [3, 'G'], [11, 'D']), '[C]Ça_ | [G]ira,_ | caf/[D]é'],
    ['a chord at the end of a word with accents', line('déjà vu', [4, 'E']), 'déjà/[E]_ | vu'],
    ['a tab wraps as a space', line('la\tla', [3, 'F']), 'la\t | [F]la'],
  ];
  for (const [name, l, want] of cases) assert.equal(words(l), want, name);
  assert.deepEqual(placeChords(line('Noël', [3, 'A'])), [{ at: 3, chord: 'A' }]);
  assert.deepEqual(wrapPlaces('Ça  ira'), [4]);
});

test('wrap places: after spaces, beside CJK, never before closing punctuation', () => {
  assert.deepEqual(wrapPlaces('a b  c'), [2, 5]);
  assert.deepEqual(wrapPlaces('恩典。好'), [1, 3]);
  assert.deepEqual(wrapPlaces('I love 你们'), [2, 7, 8]);
  assert.deepEqual(wrapPlaces(''), []);
});

test('a line laid out is as wide as its letters, a wide chord and a character of a script without spaces counted', () => {
  const cases = [
    ['words alone', line('Amazing grace'), 13],
    ['a chord no wider than its syllable', line('Amazing grace', [8, 'C']), 13],
    ['a chord wider than its syllable', line('I once was', [2, 'Gmaj7/B']), 2 + 8 + 3],
    ['a chord on an empty line', line('', [0, 'D7']), 3],
    ['Chinese counts two a character', line('奇异恩典', [0, 'G']), 8],
    ['an emoji is two code units', line('🎸 la'), 5],
  ];
  for (const [name, l, want] of cases) assert.equal(wordsWidth(layoutLine(l)), want, name);
});
