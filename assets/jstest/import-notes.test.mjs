// Issue 23 defect 10: an import's notes and refusals are said in the page's language, from the code and
// arguments the server sends beside each English note (docs/api.md), never in English on a Chinese page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

globalThis.document ??= { documentElement: {}, querySelectorAll: () => [] };
const { failureEntry, noteEntry, STRINGS, TEXT_NOTE_CODES } = await import('../web/static/import-notes.js');
const { setLocale, t } = await import('../web/static/i18n.js');

const goSource = ['ireal.go', 'signs.go'].map((f) => readFileSync(new URL(`../../ireal/${f}`, import.meta.url), 'utf8')).join('\n');
const codes = [...new Set([...goSource.matchAll(/r\.note\("(\w+)"|Code: "(\w+)"/g)].map((m) => m[1] || m[2]))];

// One example of each code's arguments, as the iReal Pro reader sends them.
const ARGS = {
  key_unknown: { key: 'H' }, chord_nearest: { from: 'F13b9', to: 'F13' }, chord_text_unknown: { from: 'A*xyz*', to: 'A' },
  bar_chords_cut: { chords: 6 }, text_left_out: { text: 'fade out' }, rhythm_evened: { bar: 2, written: 'G/D Ab13 G7 /' },
  simile_with_chords: { bar: 2 }, sign_left_out_place: { sign: 'to-coda', bar: 1 }, sign_repeated: { sign: 'segno', bar: 9 },
  sign_left_out: { sign: 'coda', bar: 3, path: 'sections[2].bars[0].mark', rule: 'a chart has one coda; there is one at bar 2',
    ruleId: 'oneSign', ruleArgs: { sign: 'coda', at: 2 } },
  al_ending_fine: { jump: 'D.C.', ending: 2, fine: 'D.C.', ending2: 2, bar: 6 }, al_ending_left_out: { jump: 'D.S.', ending: 1 },
  al_ending_jump: { jump: 'D.C.', ending: 3, bar: 24, ending2: 3 },
  rhythm_nearest: { bar: 2, written: 'C / / G7' }, jump_moved: { sign: 'ds-al-coda', from: 7, to: 16 },
  jump_al_coda: { sign: 'dc', bar: 16, read: 'dc-al-coda' }, repeat_from: { bar: 8, from: 1 }, repeat_start_left_out: { bar: 3 },
};

const han = /[\u4e00-\u9fff]/;

test('every note code of the iReal Pro reader has words in both languages, and the Chinese has no English', () => {
  assert.ok(codes.length >= 15, `found ${codes.length} codes in ireal/`);
  try {
    setLocale('zh-CN');
    for (const code of codes) {
      const entry = noteEntry('the English note', { code, args: ARGS[code] || {} });
      assert.equal(entry[0], `import.note.${code}`, `${code} has words of its own`);
      assert.ok(STRINGS.en[entry[0]] && STRINGS['zh-CN'][entry[0]], `${code} in both dictionaries`);
      const zh = t(...entry);
      assert.match(zh, han, `${code}: ${zh}`);
      assert.doesNotMatch(zh, /\{\w+\}|\b(the|was|left|became|bar|chart)\b/, `${code}: ${zh}`);
    }
    assert.equal(t(...noteEntry('', { code: 'chord_nearest', args: ARGS.chord_nearest })), 'F13b9 改成了 F13，这是 Tele 和弦目录里最接近的和弦');
    assert.equal(t(...noteEntry('', { code: 'sign_left_out', args: ARGS.sign_left_out })),
      '第 3 小节的记号 ⊕ 没有导入：一首曲子只能有一个 ⊕；第 2 小节已有一个。', 'the rule is said by its id');
    setLocale('en');
    assert.equal(t(...noteEntry('', { code: 'sign_repeated', args: ARGS.sign_repeated })), 'the sign § at bar 9 was left out: a chart has one');
  } finally {
    setLocale('en');
  }
});

test('a note with no code of its own keeps the reader’s words; a refusal is said by its code', () => {
  assert.deepEqual(noteEntry('the file has no {title}: …', { code: 'text', args: { text: 'the file has no {title}: …' } }),
    ['import.note.text', { text: 'the file has no {title}: …' }]);
  assert.deepEqual(noteEntry('a new note', { code: 'new_code', args: {} }), ['import.note.text', { text: 'a new note' }]);
  assert.deepEqual(noteEntry('no codes at all', undefined), ['import.note.text', { text: 'no codes at all' }]);
  assert.equal(failureEntry('unreadable_chart'), 'import.reason.unreadable_chart');
  assert.equal(failureEntry('something_new'), null);
  try {
    setLocale('zh-CN');
    assert.equal(t('import.songFailedCode', { title: 'Broken', reason: { $t: failureEntry('unreadable_chart') }, message: 'fields' }),
      'Broken：未导入（无法读取这份和弦谱）');
  } finally {
    setLocale('en');
  }
});

test('the chords-over-lyrics reader’s codes with words of their own are in both languages, and its source gives them', () => {
  const textSource = ['read.go', 'columns.go'].map((f) => readFileSync(new URL(`../../chordtext/${f}`, import.meta.url), 'utf8')).join('\n');
  const given = new Set([...textSource.matchAll(/r\.note\("(\w+)"/g)].map((m) => m[1]));
  try {
    setLocale('zh-CN');
    for (const code of TEXT_NOTE_CODES) {
      assert.ok(given.has(code), `${code} is a note of chordtext`);
      const entry = noteEntry('the English note', { code, args: { heading: 'Intro: A  A#m7' } });
      assert.equal(entry[0], `import.note.${code}`);
      assert.ok(STRINGS.en[entry[0]] && STRINGS['zh-CN'][entry[0]], `${code} in both dictionaries`);
      const zh = t(...entry);
      assert.match(zh, han, `${code}: ${zh}`);
      assert.doesNotMatch(zh, /\{\w+\}|\b(the|was|left|were|chords|words)\b/, `${code}: ${zh}`);
    }
  } finally {
    setLocale('en');
  }
});
