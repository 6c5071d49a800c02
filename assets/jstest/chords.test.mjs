// The page's chord catalogue (chords.js) against the server's: the catalogue as GET /api/catalogue
// serves it (board/testdata/catalogue.json, which a Go test keeps equal to board.CatalogueJSON()) and
// the spellings table Go is tested against too (chord/testdata/chord-spellings.json).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Catalogue, familyOf, parseBar, read, split } from '../web/static/chords.js';

const testdata = (path) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const doc = testdata('board/testdata/catalogue.json');
const spellings = testdata('chord/testdata/chord-spellings.json');
const cat = new Catalogue(doc);

test('the catalogue is version 3 with its aliases, accidentals and no-chord spellings', () => {
  assert.equal(doc.version, 3);
  assert.ok(cat.ready);
  assert.equal(cat.qualities.size, doc.qualities.length);
  assert.equal(cat.aliases.size, doc.aliases.length, 'every alias names a catalogue suffix');
  assert.equal(cat.aliases.get('ø'), 'm7b5');
  assert.equal(cat.aliases.get('69'), '6/9');
  assert.equal(cat.aliases.get('^7'), 'maj7');
  assert.equal(cat.aliases.get('∆7'), 'maj7');
  assert.equal(cat.aliases.get('h7'), 'm7b5');
  assert.deepEqual(cat.accidentals, [['♭', 'b'], ['♯', '#']]);
  assert.deepEqual([...cat.noChords], ['N.C.', 'NC', 'N.C', 'NC.', 'N']);
  assert.equal(cat.roots.length, 17, 'the key picker offers the key roots');
  assert.ok(cat.rootSet.has('Cb') && !cat.roots.includes('Cb'), 'Cb is a chord root, not a key');
});

test('the reader of built qualities agrees with the catalogue, as in Go', () => {
  for (const q of doc.qualities) {
    const r = read(q.suffix);
    assert.ok(r.all && r.any !== undefined, q.suffix);
    assert.equal(r.tones, q.intervals.reduce((t, iv) => t | (2 ** iv), 0), q.suffix);
    assert.equal(familyOf(r.tones), q.family, q.suffix);
  }
  for (const a of doc.aliases) {
    const q = doc.qualities.find((x) => x.suffix === a.suffix);
    assert.equal(read(a.alias).tones, q.intervals.reduce((t, iv) => t | (2 ** iv), 0), a.alias);
  }
});

test('the code review’s table: the same answer as the editor, the importers and the tool', () => {
  for (const [typed, want] of spellings.everywhere) {
    assert.equal(cat.parse(typed)?.symbol ?? cat.suggest(typed), want, typed);
  }
});

test('accepted spellings are written the catalogue’s way, as on the server', () => {
  for (const [typed, want] of spellings.accepted) {
    const c = cat.parse(typed);
    assert.ok(c, `${typed} is accepted`);
    assert.equal(c.symbol, want, typed);
    assert.equal(cat.normalize(typed), want, typed);
    assert.equal(cat.parse(want).symbol, want, `${want} is already in the catalogue's spelling`);
    assert.equal(cat.suggest(typed), '', `no suggestion for ${typed}`);
  }
});

test('refused spellings get the server’s suggestion', () => {
  for (const [typed, want] of spellings.refused) {
    assert.equal(cat.parse(typed), null, `${typed} is refused`);
    assert.equal(cat.suggest(typed), want, typed);
  }
});

test('every root with every quality and alias parses, and voices from the intervals', () => {
  for (const r of doc.roots) {
    for (const q of doc.qualities) {
      const c = cat.parse(r.name + q.suffix + '/E');
      assert.deepEqual([c.root, c.quality, c.bass, c.intervals], [r.name, q.suffix, 'E', q.intervals]);
    }
    for (const a of doc.aliases) assert.equal(cat.parse(r.name + a.alias).quality, a.suffix, r.name + a.alias);
  }
  assert.deepEqual(cat.voicing('C6/9'), { bass: 36, notes: [48, 52, 55, 57, 62] });
  assert.deepEqual(cat.voicing('Bb69/D'), { bass: 38, notes: [58, 62, 65, 67, 72] });
  assert.deepEqual(cat.voicing('Cø'), cat.voicing('Cm7b5'));
});

test('the bar editor: aliases respelled, refusals with a suggestion, case fixed', () => {
  assert.deepEqual(parseBar('Dø G7♭9 CΔ', cat), { chords: ['Dm7b5', 'G7b9', 'Cmaj7'], unknown: [], respelled: true });
  assert.deepEqual(parseBar('Dm7b5 G7', cat).respelled, false);
  assert.deepEqual(parseBar('C Cdim7b', cat).unknown, [{ symbol: 'Cdim7b', suggestion: 'Cdim7' }]);
  assert.deepEqual(parseBar('Bb∆7 Bb^7 Emadd9 h7', cat), {
    chords: ['Bbmaj7', 'Bbmaj7', 'Em(add9)', 'h7'],
    unknown: [{ symbol: 'h7', suggestion: 'B7' }],
    respelled: true,
  });
  assert.deepEqual(parseBar('am(M7) bb69', cat).chords, ['Am(maj7)', 'Bb6/9']);
});

test('display split keeps 6/9 in the quality', () => {
  assert.deepEqual(split('C6/9'), { root: 'C', quality: '6/9', bass: '' });
  assert.deepEqual(split('Bb6/9/D'), { root: 'Bb', quality: '6/9', bass: '/D' });
  assert.deepEqual(split('Am(maj7)'), { root: 'A', quality: 'm(maj7)', bass: '' });
});
