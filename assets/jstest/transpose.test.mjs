// Transposition spelling, capo and Nashville numbers (transpose.js): every key, every quality, slash
// basses, round trips.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Catalogue, pitchClass } from '../web/static/chords.js';
import { keyName, numberSymbol, parseKey, semitonesTo, transposeContent, transposeSymbol, view } from '../web/static/transpose.js';

const doc = JSON.parse(readFileSync(new URL('../../board/testdata/catalogue.json', import.meta.url), 'utf8'));
const cat = new Catalogue(doc);
const board = (key, ...bars) => ({ title: 'T', description: '', ...(key ? { key } : {}), tempo: 100, beatsPerBar: 4, sections: [{ label: 'A', bars: bars.map((b) => b.split(' ')) }] });
const chords = (content) => content.sections.flatMap((s) => s.bars.map((b) => b.join(' '))).join(' | ');

// I IV V vi bVII II7 #IVm7b5 and a slash chord (I/3), as a musician in each major key writes them.
const MAJOR = {
  C: 'C F G Am Bb D7 F#m7b5 C/E', Db: 'Db Gb Ab Bbm B Eb7 Gm7b5 Db/F', D: 'D G A Bm C E7 G#m7b5 D/F#',
  Eb: 'Eb Ab Bb Cm Db F7 Am7b5 Eb/G', E: 'E A B C#m D F#7 A#m7b5 E/G#', F: 'F Bb C Dm Eb G7 Bm7b5 F/A',
  'F#': 'F# B C# D#m E G#7 Cm7b5 F#/A#', G: 'G C D Em F A7 C#m7b5 G/B', Ab: 'Ab Db Eb Fm Gb Bb7 Dm7b5 Ab/C',
  A: 'A D E F#m G B7 D#m7b5 A/C#', Bb: 'Bb Eb F Gm Ab C7 Em7b5 Bb/D', B: 'B E F# G#m A C#7 Fm7b5 B/D#',
};
// i iv V7 bVI bVII bIII in each minor key.
const MINOR = {
  Cm: 'Cm Fm G7 Ab Bb Eb', 'C#m': 'C#m F#m G#7 A B E', Dm: 'Dm Gm A7 Bb C F', Ebm: 'Ebm Abm Bb7 B Db Gb',
  Em: 'Em Am B7 C D G', Fm: 'Fm Bbm C7 Db Eb Ab', 'F#m': 'F#m Bm C#7 D E A', Gm: 'Gm Cm D7 Eb F Bb',
  'G#m': 'G#m C#m D#7 E F# B', Am: 'Am Dm E7 F G C', Bbm: 'Bbm Ebm F7 Gb Ab Db', Bm: 'Bm Em F#7 G A D',
};

test('C to E♭: Fm7 B♭7 E♭maj7, never A#7', () => {
  const out = transposeContent(board('C', 'Dm7', 'G7', 'Cmaj7'), 3);
  assert.equal(out.key, 'Eb');
  assert.equal(chords(out), 'Fm7 | Bb7 | Ebmaj7');
});

test('every major key from every major key is spelled as in that key', () => {
  for (const [from, progression] of Object.entries(MAJOR)) {
    for (const [to, want] of Object.entries(MAJOR)) {
      const out = transposeContent(board(from, ...progression.split(' ')), semitonesTo(from, to), to);
      assert.equal(out.key, to, `${from} → ${to}`);
      assert.equal(chords(out), want.split(' ').join(' | '), `${from} → ${to}`);
    }
  }
});

test('every minor key from every minor key', () => {
  for (const [from, progression] of Object.entries(MINOR)) {
    for (const [to, want] of Object.entries(MINOR)) {
      const out = transposeContent(board(from, ...progression.split(' ')), semitonesTo(from, to));
      assert.equal(out.key, to, `${from} → ${to}`);
      assert.equal(chords(out), want.split(' ').join(' | '), `${from} → ${to}`);
    }
  }
});

test('keys get their usual names; a chosen enharmonic name is kept', () => {
  assert.deepEqual([...Array(12).keys()].map((pc) => keyName(pc, false)).join(' '), 'C Db D Eb E F F# G Ab A Bb B');
  assert.deepEqual([...Array(12).keys()].map((pc) => keyName(pc, true)).join(' '), 'Cm C#m Dm Ebm Em Fm F#m Gm G#m Am Bbm Bm');
  assert.equal(chords(transposeContent(board('C', 'C', 'F', 'G7'), 6, 'Gb')), 'Gb | B | Db7');
  assert.equal(chords(transposeContent(board('C', 'C', 'F', 'G7'), 6, 'F#')), 'F# | B | C#7');
  assert.equal(transposeContent(board('C', 'C'), 6, 'Gb').key, 'Gb');
  assert.equal(transposeContent(board('C', 'C'), 6).key, 'F#');
});

test('every quality and every root keeps its quality and moves its pitch', () => {
  const eb = parseKey('Eb');
  for (const q of doc.qualities) {
    for (const r of doc.roots) {
      for (const n of [-11, -5, -1, 1, 3, 6, 11]) {
        const sym = `${r.name}${q.suffix}/${r.name}`;
        const out = transposeSymbol(sym, n, eb);
        const c = cat.parse(out);
        assert.ok(c, `${sym} by ${n} gives ${out}, a catalogue chord`);
        assert.equal(c.quality, q.suffix);
        assert.equal(pitchClass(c.root), (((r.pitchClass + n) % 12) + 12) % 12);
        assert.equal(pitchClass(c.bass), (((r.pitchClass + n) % 12) + 12) % 12);
      }
    }
  }
  assert.equal(transposeSymbol('C6/9/E', 3, eb), 'Eb6/9/G');
  assert.equal(transposeSymbol('A7/C#', 2, parseKey('D')), 'B7/D#', 'the bass stays the third of the chord');
  assert.equal(transposeSymbol('A7/C#', 3, eb), 'C7/E');
  assert.equal(transposeSymbol('Ab/Eb', 2, parseKey('Bb')), 'Bb/F');
  assert.equal(transposeSymbol('C/Bb', 6, parseKey('F#')), 'F#/E');
  assert.equal(transposeSymbol('N.C.', 3, eb), 'N.C.');
});

test('round trips: there and back gives the board again', () => {
  for (const [from, progression] of Object.entries({ ...MAJOR, ...MINOR })) {
    const b = board(from, ...progression.split(' '));
    for (let n = -11; n <= 11; n++) {
      const back = transposeContent(transposeContent(b, n), -n, from);
      assert.equal(chords(back), chords(b), `${from} by ${n} and back`);
      assert.equal(back.key, from);
    }
  }
});

test('a board without a key moves as its first chord suggests and keeps no key', () => {
  const b = board('', 'Dm7', 'G7', 'Cmaj7');
  const out = transposeContent(b, 1);
  assert.equal(out.key, undefined);
  assert.equal(chords(out), 'Ebm7 | Ab7 | Dbmaj7');
  assert.equal(chords(transposeContent(board('', 'E', 'A', 'B7'), 2)), 'F# | B | C#7');
});

test('Nashville numbers relative to the board key', () => {
  const c = parseKey('C');
  assert.equal(['C', 'F', 'G', 'Am', 'Bb', 'G/B', 'D7/F#', 'Ebmaj7', 'A7/C#', 'F/C', 'Ab/Eb', 'N.C.'].map((s) => numberSymbol(s, c)).join(' '),
    '1 4 5 6m b7 5/7 27/#4 b3maj7 67/#1 4/1 b6/b3 N.C.');
  assert.equal(['Am', 'Dm', 'E7', 'F', 'G'].map((s) => numberSymbol(s, parseKey('Am'))).join(' '), '1m 4m 57 b6 b7');
  for (const [key, progression] of Object.entries(MAJOR)) {
    assert.equal(progression.split(' ').map((s) => numberSymbol(s, parseKey(key))).join(' '), '1 4 5 6m b7 27 #4m7b5 1/3', key);
  }
});

test('view: transpose, capo shapes with the sounding key, numbers or the key they need', () => {
  const b = board('Eb', 'Eb', 'Ab', 'Bb7', 'Cm7');
  let v = view(b, { capo: 3 });
  assert.equal(chords(v.shown), 'C | F | G7 | Am7');
  assert.deepEqual([v.soundingKey, v.shapesKey], ['Eb', 'C']);
  assert.equal(v.sounding, b, 'the player plays the board as written');

  v = view(b, { transpose: -1, capo: 2 });
  assert.equal(chords(v.sounding), 'D | G | A7 | Bm7');
  assert.equal(chords(v.shown), 'C | F | G7 | Am7');
  assert.deepEqual([v.soundingKey, v.shapesKey, v.semitones], ['D', 'C', -1]);

  v = view(b, { toKey: 'G' });
  assert.equal(v.semitones, 4);
  assert.equal(chords(v.shown), 'G | C | D7 | Em7');

  v = view(b, { numbers: true, transpose: 2 });
  assert.equal(chords(v.shown), '1 | 4 | 57 | 6m7');
  assert.equal(chords(v.sounding), 'F | Bb | C7 | Dm7');
  assert.equal(v.needsKey, false);

  const noKey = board('', 'C', 'G');
  v = view(noKey, { numbers: true });
  assert.equal(v.needsKey, true);
  assert.equal(chords(v.shown), 'C | G');
  assert.equal(view(noKey, { toKey: 'D' }).semitones, 0, 'a key to move to needs a key to move from');

  const same = view(b, {});
  assert.equal(same.shown, b);
  assert.equal(same.sounding, b);
});

test('numbers split for display like chords', async () => {
  const { split } = await import('../web/static/chords.js');
  assert.deepEqual(split('6m7'), { root: '6', quality: 'm7', bass: '' });
  assert.deepEqual(split('b7'), { root: 'b7', quality: '', bass: '' });
  assert.deepEqual(split('5/7'), { root: '5', quality: '', bass: '/7' });
  assert.deepEqual(split('#4m7b5'), { root: '#4', quality: 'm7b5', bass: '' });
  assert.deepEqual(split('16/9'), { root: '1', quality: '6/9', bass: '' });
});
