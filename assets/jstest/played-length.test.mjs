// The played length the board page shows: bars played with repeats and jumps, and the time at the tempo.
import test from 'node:test';
import assert from 'node:assert/strict';
import { clock, paintPlayedLength, playedLength } from '../web/static/played-length.js';
import { t } from '../web/static/i18n.js';

test('bars played follow the form; the time adds each played bar’s beats at the tempo', () => {
  const content = {
    title: 'T', tempo: 120, beatsPerBar: 4, sections: [
      { label: 'A', bars: [{ chords: ['C'], repeatStart: true, mark: 'segno' }, { chords: '%' }, { chords: ['F'], repeatEnd: 2, ending: 1 }, { chords: ['G7'], beats: 3, ending: 2, mark: 'fine' }] },
      { label: 'B', bars: [{ chords: ['Am'], repeatStart: true }, { chords: ['Dm7'], repeatEnd: 3 }, { chords: ['G7'], beats: 6 }, { chords: ['C'], mark: 'ds-al-fine' }] },
    ],
  };
  // 1 2 3 1 2 4 5 6 5 6 5 6 7 8, D.S. to 1, then 1 2 4 (Fine): 17 bars, 68 beats = 34 s at 120.
  assert.deepEqual(playedLength(content), { bars: 17, seconds: 34 });
  assert.deepEqual(playedLength({ ...content, tempo: 60 }), { bars: 17, seconds: 68 });
  assert.equal(clock(68), '1:08');
  assert.equal(clock(3600), '60:00');
  assert.equal(t('length.played', { bars: 17, time: '0:34', tempo: 120 }), 'Plays 17 bars · 0:34 at 120 BPM');
  assert.equal(t('length.played', { bars: 1, time: '0:02', tempo: 120 }), 'Plays 1 bar · 0:02 at 120 BPM');
});

// Issue 23, defect 11: an emptied tempo field showed "Plays 32 bars · 1:04 at null BPM".
test('with no tempo the board may have, the length has no time and says why in words', () => {
  const content = { title: 'T', tempo: null, beatsPerBar: 4, sections: [{ label: 'A', bars: [['C'], ['F']] }] };
  for (const tempo of [null, undefined, 0, 5, 29, 301, 120.5, '120']) {
    assert.deepEqual(playedLength({ ...content, tempo }), { bars: 2, seconds: null }, `tempo ${tempo}`);
  }
  assert.deepEqual(playedLength({ ...content, tempo: 30 }), { bars: 2, seconds: 16 });
  assert.equal(t('length.playedNoTempo', { bars: 32, min: 30, max: 300 }), 'Plays 32 bars · how long, once the tempo is 30–300 BPM');
});

// Issue 23: "Plays … at N BPM" stayed at the board's tempo while the musician practised at another.
test('the length is at the practice tempo when there is one, the board’s tempo beside it', () => {
  const content = { title: 'T', tempo: 120, beatsPerBar: 4, sections: [{ label: 'A', bars: Array.from({ length: 32 }, () => ['C']) }] };
  const el = { dataset: {}, textContent: '' };
  const said = (practice) => {
    paintPlayedLength(el, content, practice);
    return [el.dataset.i18n, JSON.parse(el.dataset.i18nArgs)];
  };
  assert.deepEqual(said(null), ['length.played', { bars: 32, time: '1:04', tempo: 120 }]);
  assert.deepEqual(said(160), ['length.playedPractice', { bars: 32, time: '0:48', tempo: 160, board: 120 }]);
  assert.deepEqual(said(120), ['length.played', { bars: 32, time: '1:04', tempo: 120 }]);
  assert.equal(t('length.playedPractice', { bars: 32, time: '0:48', tempo: 160, board: 120 }), 'Plays 32 bars · 0:48 at 160 BPM (board 120)');
  // An emptied board tempo is said in words, whatever the practice tempo.
  paintPlayedLength(el, { ...content, tempo: null }, 160);
  assert.equal(el.dataset.i18n, 'length.playedNoTempo');
});
