// Unit tests of the page's pure modules (content.js, chords.js), run with `node --test` by
// TestJavaScriptLogic in ../js_test.go. These modules touch no DOM, so node imports them as they are.
import test from 'node:test';
import assert from 'node:assert/strict';
import { apply, diff, pathCandidates, replay, sameTarget, describeOp, nextLabel } from '../web/static/content.js';
import { Catalogue, parseBar, split } from '../web/static/chords.js';

const base = () => ({
  title: 'T', description: '', key: 'G', tempo: 120, beatsPerBar: 4,
  sections: [
    { label: 'A', bars: [['Am7'], ['D7'], ['Gmaj7']] },
    { label: 'B', bars: [['Em'], ['Em', 'Em/D']] },
  ],
});

test('replay re-applies the user ops on a newer revision', () => {
  const ops = [
    { t: 'set', field: 'title', value: 'Mine' },
    { t: 'bar', s: 0, b: 1, chords: ['Bb7'] },
    { t: 'insertBar', s: 1, b: 2, chords: ['N.C.'] },
  ];
  const theirs = base();
  theirs.tempo = 96;
  theirs.sections[0].bars[2] = ['G6'];
  const { content, dropped } = replay(theirs, ops);
  assert.equal(dropped.length, 0);
  assert.equal(content.title, 'Mine');
  assert.equal(content.tempo, 96); // theirs kept
  assert.deepEqual(content.sections[0].bars, [['Am7'], ['Bb7'], ['G6']]);
  assert.deepEqual(content.sections[1].bars.at(-1), ['N.C.']);
  assert.equal(theirs.title, 'T', 'replay does not modify its input');
});

test('an op whose place is gone is reported, not dropped silently', () => {
  const theirs = base();
  theirs.sections.pop();
  const ops = [{ t: 'bar', s: 1, b: 0, chords: ['C'] }, { t: 'label', s: 0, value: 'Intro' }];
  const { content, dropped, applied } = replay(theirs, ops);
  assert.deepEqual(dropped, [ops[0]]);
  assert.deepEqual(applied, [ops[1]]);
  assert.equal(content.sections[0].label, 'Intro');
  assert.deepEqual(describeOp(ops[0]), ['op.bar', { s: '2', b: 1, chords: 'C' }]);
});

test('moves and removals', () => {
  const c = base();
  assert.ok(apply(c, { t: 'moveBar', s: 0, b: 0, to: 2 }));
  assert.deepEqual(c.sections[0].bars, [['D7'], ['Gmaj7'], ['Am7']]);
  assert.ok(!apply(c, { t: 'moveBar', s: 0, b: 0, to: 3 }));
  assert.ok(apply(c, { t: 'moveSection', s: 1, to: 0 }));
  assert.equal(c.sections[0].label, 'B');
  assert.ok(apply(c, { t: 'removeSection', s: 0 }));
  assert.ok(apply(c, { t: 'removeBar', s: 0, b: 0 }));
  assert.deepEqual(c.sections, [{ label: 'A', bars: [['Gmaj7'], ['Am7']] }]);
  assert.ok(apply(c, { t: 'set', field: 'key', value: '' }));
  assert.ok(!('key' in c), 'an empty key is omitted (the field is optional)');
  assert.ok(!apply(c, { t: 'set', field: 'revision', value: 3 }), 'only content fields');
});

test('typing into one field coalesces into one op', () => {
  assert.ok(sameTarget({ t: 'set', field: 'title' }, { t: 'set', field: 'title' }));
  assert.ok(!sameTarget({ t: 'set', field: 'title' }, { t: 'set', field: 'tempo' }));
  assert.ok(sameTarget({ t: 'bar', s: 1, b: 2 }, { t: 'bar', s: 1, b: 2 }));
  assert.ok(!sameTarget({ t: 'insertBar', s: 1, b: 2 }, { t: 'insertBar', s: 1, b: 2 }));
});

test('diff names what changed', () => {
  const a = base();
  const b = base();
  b.title = 'New';
  b.sections[1].bars[1] = ['Em'];
  b.sections[1].bars.push(['B7']);
  assert.deepEqual(diff(a, b), [
    ['chg.title', { from: 'T', to: 'New' }],
    ['chg.barCount', { name: 'B', from: 2, to: 3 }],
    ['chg.bar', { name: 'B', n: 5, from: 'Em Em/D', to: 'Em' }],
  ]);
  assert.deepEqual(diff(a, base()), []);
});

test('validation paths fall back to their parents', () => {
  assert.deepEqual(pathCandidates('sections[1].bars[3][0]'),
    ['sections[1].bars[3][0]', 'sections[1].bars[3]', 'sections[1].bars', 'sections[1]', 'sections']);
  assert.deepEqual(pathCandidates('tempo'), ['tempo']);
  assert.deepEqual(pathCandidates(''), []);
});

test('next rehearsal letter', () => {
  assert.equal(nextLabel(base()), 'C');
});

const catalogueDoc = {
  version: 1,
  roots: ['C', 'C#', 'Db', 'D', 'D#', 'Eb', 'E', 'F', 'F#', 'Gb', 'G', 'G#', 'Ab', 'A', 'A#', 'Bb', 'B']
    .map((name) => ({ name })),
  qualities: [
    { suffix: '', intervals: [0, 4, 7] }, { suffix: 'm', intervals: [0, 3, 7] },
    { suffix: '7', intervals: [0, 4, 7, 10] }, { suffix: 'm7', intervals: [0, 3, 7, 10] },
    { suffix: 'm7b5', intervals: [0, 3, 6, 10] }, { suffix: '5', intervals: [0, 7] },
  ],
  noChord: 'N.C.',
  noChords: ['N.C.', 'NC', 'N.C', 'NC.', 'N'],
};

test('catalogue parsing follows the server rules', () => {
  const c = new Catalogue(catalogueDoc);
  assert.deepEqual(c.parse('F#m7b5/C#'), { root: 'F#', quality: 'm7b5', bass: 'C#', intervals: [0, 3, 6, 10], symbol: 'F#m7b5/C#' });
  assert.deepEqual(c.parse('N.C.'), { nc: true, symbol: 'N.C.' });
  assert.equal(c.parse('Ab5').root, 'Ab');
  assert.equal(c.parse('Cb'), null);
  assert.equal(c.parse('Am7/H'), null);
  assert.equal(c.parse('Amaj13'), null);
  assert.equal(c.parse('am7'), null, 'case-sensitive, as on the server');
});

test('typed bars: normalization and unknown symbols', () => {
  const c = new Catalogue(catalogueDoc);
  assert.deepEqual(parseBar('am7  d7/f#', c), { chords: ['Am7', 'D7/F#'], unknown: [], respelled: true });
  assert.deepEqual(parseBar('nc', c).chords, ['N.C.']);
  assert.deepEqual(parseBar('C Xy', c).unknown, [{ symbol: 'Xy', suggestion: '' }]);
});

test('voicing from intervals', () => {
  const c = new Catalogue(catalogueDoc);
  assert.deepEqual(c.voicing('Am7'), { bass: 45, notes: [57, 60, 64, 67] });
  assert.deepEqual(c.voicing('C/E').bass, 40);
  assert.equal(c.voicing('N.C.'), null);
});

test('split for display keeps the symbol text', () => {
  for (const sym of ['F#m7b5/C#', 'Bb', 'N.C.', 'Em/D']) {
    const { root, quality, bass } = split(sym);
    assert.equal(root + quality + bass, sym);
  }
});
