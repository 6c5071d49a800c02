// A section's lines as the page holds them (lyrics-content.js) and as the view shows them (transpose.js):
// transposition, capo, numbers and short signs reach the chords over the words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { forSave, lineText, lyricOnly, parseLineText, readingSpeed, recallOf, recalledLines, withBars } from '../web/static/lyrics-content.js';
import { guessKey, view } from '../web/static/transpose.js';

const song = (key) => ({
  title: 'Grace', ...(key ? { key } : {}), tempo: 80, beatsPerBar: 3,
  sections: [
    { label: 'Intro', bars: [['G'], ['D7']] },
    { label: 'Verse 1', role: 'verse', lines: [{ text: 'Amazing grace, how sweet', chords: [{ at: 2, chord: 'G' }, { at: 9, chord: 'G7' }, { at: 20, chord: 'Cmaj7' }] }, { text: 'that saved', chords: [] }] },
    { recall: 'chorus' },
  ],
});
const lineChordsOf = (c) => c.sections[1].lines[0].chords.map((x) => x.chord).join(' ');

test('the view transposes, capos, numbers and shortens line chords as it does bars', () => {
  const c = withBars(song('G'));
  assert.equal(lineChordsOf(view(c, { transpose: 2 }).shown), 'A A7 Dmaj7');
  assert.equal(lineChordsOf(view(c, { toKey: 'Eb' }).shown), 'Eb Eb7 Abmaj7');
  assert.equal(lineChordsOf(view(c, { capo: 2 }).shown), 'F F7 Bbmaj7');
  assert.equal(lineChordsOf(view(c, { numbers: true }).shown), '1 17 4maj7');
  assert.equal(lineChordsOf(view(c, { instrument: 'Bb' }).shown), 'A A7 Dmaj7');
  assert.equal(lineChordsOf(view(c, { short: true }).shown), 'G G7 C∆7');
  assert.deepEqual(view(c, { transpose: 2 }).shown.sections[1].lines[0].chords.map((x) => x.at), [2, 9, 20], 'offsets stay');
  assert.equal(c.sections[1].lines[0].chords[0].chord, 'G', 'the board itself is not changed');
});

test('a board of words alone guesses its key from its first line chord', () => {
  const c = { title: 'T', tempo: 80, beatsPerBar: 4, sections: [{ lines: [{ text: 'x', chords: [{ at: 0, chord: 'Em' }] }] }] };
  assert.equal(guessKey(withBars(c)).name, 'Em');
});

test('a section of words alone holds bars: [] on the page and none on the wire', () => {
  const c = song('G');
  const held = withBars(c);
  assert.deepEqual(held.sections.map((s) => s.bars.length), [2, 0, 0]);
  assert.deepEqual(held.sections.map(lyricOnly), [false, true, true]);
  assert.deepEqual(forSave(held), c);
  assert.equal(withBars(held), held, 'content that holds bars everywhere is not copied');
  assert.equal(recallOf(c.sections[2]), 'chorus');
});

test('a line as ChordPro writes it, and back', () => {
  const cases = [
    [{ text: 'Amazing grace', chords: [{ at: 2, chord: 'G' }, { at: 13, chord: 'D7' }] }, 'Am[G]azing grace[D7]'],
    [{ text: '', chords: [{ at: 0, chord: 'C' }, { at: 0, chord: 'G' }] }, '[C][G]'],
    [{ text: '奇异恩典🎸', chords: [{ at: 2, chord: 'C' }, { at: 4, chord: 'F' }] }, '奇异[C]恩典[F]🎸'],
    [{ text: 'no chords', chords: [] }, 'no chords'],
  ];
  for (const [line, text] of cases) {
    assert.equal(lineText(line), text);
    assert.deepEqual(parseLineText(text), line);
  }
  assert.deepEqual(parseLineText('a [ b'), { text: 'a [ b', chords: [] });
});

test('the autoscroll reads the words at the song tempo: two bars a line', () => {
  // 3 lines of words alone (a recall counts as one) at 80 BPM in 3/4: 3 × 2 × 3 beats = 18 beats = 13.5 s.
  const c = withBars(song('G'));
  assert.equal(readingSpeed(c, 270), 20);
  assert.equal(readingSpeed({ ...c, tempo: 160 }, 270), 40, 'twice the tempo, twice the speed');
  assert.equal(readingSpeed({ ...c, sections: [c.sections[0]] }, 270), 0, 'no words alone, no scroll');
  // The recall of a two-line chorus is sung as two lines: 4 lines, 24 beats, 18 s.
  c.sections[1].role = 'chorus';
  assert.equal(readingSpeed(c, 360), 20);
});

test('a recall repeats the words of the nearest chorus before it', () => {
  const c = withBars(song('G'));
  c.sections[1].role = 'chorus';
  assert.deepEqual(recalledLines(c, 2), c.sections[1].lines);
  assert.deepEqual(recalledLines(c, 1), [], 'a section that is no recall repeats nothing');
  c.sections[1].role = 'verse';
  assert.deepEqual(recalledLines(c, 2), [], 'no chorus before it');
});

test('the player plays the bars: a section of words alone is shown, not played', async () => {
  const { playOrder } = await import('../web/static/form.js');
  const c = withBars(song('G'));
  const order = playOrder(c);
  assert.deepEqual(order.map((p) => `${p.section}.${p.bar}`), ['0.0', '0.1'], 'the intro\'s two bars, then nothing of the verse or the recall');
});
