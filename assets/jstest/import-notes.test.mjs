// Issue 23 defect 10: an import's notes and refusals are said in the page's language, from the code and
// arguments the server sends beside each English note (docs/api.md), never in English on a Chinese page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

globalThis.document ??= { documentElement: {}, querySelectorAll: () => [] };
const { failureEntry, noteEntry, STRINGS, TEXT_NOTE_CODES } = await import('../web/static/import-notes.js');
const { setLocale, t } = await import('../web/static/i18n.js');

// Every source file of the reader, so a note moved to another file is still checked.
const irealDir = new URL('../../ireal/', import.meta.url);
const goSource = readdirSync(irealDir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
  .map((f) => readFileSync(new URL(f, irealDir), 'utf8')).join('\n');
const codes = [...new Set([...goSource.matchAll(/r\.note\("(\w+)"|Code: "(\w+)"/g)].map((m) => m[1] || m[2]))];

// One example of each code's arguments, as the iReal Pro reader sends them.
const ARGS = {
  key_unknown: { key: 'H' }, chord_nearest: { from: 'F13b9', to: 'F13' }, chord_text_unknown: { from: 'A*xyz*', to: 'A' },
  bar_chords_cut: { chords: 6 }, text_left_out: { text: 'fade out' }, repeat_times_unused: { text: '3x', bar: 5 }, rhythm_evened: { bar: 2, written: 'G/D Ab13 G7 /' },
  simile_with_chords: { bar: 2 }, sign_left_out_place: { sign: 'to-coda', bar: 1 }, sign_repeated: { sign: 'segno', bar: 9 },
  sign_third: { sign: 'ds', bar: 40 }, jump_on_cue_left_out: { sign: 'dc', bar: 40 }, jump_moved_section: { sign: 'dc-al-fine', from: 15, to: 16 },
  sign_left_out: { sign: 'coda', bar: 3, path: 'sections[2].bars[0].mark', rule: 'a chart has one coda; there is one at bar 2',
    ruleId: 'oneSign', ruleArgs: { sign: 'coda', at: 2 } },
  al_ending_fine: { jump: 'D.C.', ending: 2, fine: 'D.C.', ending2: 2, bar: 6 }, al_ending_left_out: { jump: 'D.S.', ending: 1 },
  al_ending_jump: { jump: 'D.C.', ending: 3, bar: 24, ending2: 3 },
  rhythm_nearest: { bar: 2, written: 'C / / G7' }, jump_moved: { sign: 'ds-al-coda', from: 7, to: 16 },
  jump_al_coda: { sign: 'dc', bar: 16, read: 'dc-al-coda' }, repeat_from: { bar: 8, from: 1 }, repeat_start_left_out: { bar: 3 },
  jump_on_cue: { sign: 'dc', bar: 44 }, fine_at_end_mark: { sign: 'dc-al-fine', bar: 32, fine: 31 },
  al_fine_no_fine: { sign: 'ds-al-fine', bar: 71, read: 'ds' }, al_fine_coda: { sign: 'dc-al-fine', bar: 55, read: 'dc-al-coda', fine: 40 },
  al_ending_later_fine: { jump: 'D.C.', ending: 1, later: 2, bar: 10 }, al_ending_coda: { jump: 'D.S.', ending: 2, read: 'ds-al-coda' },
  ending_closed: { bar: 55, end: 56 }, ending_left_out: { bar: 29 },
  repeat_times_cut: { bar: 8, times: 9, min: 2, max: 8, read: 8 }, meter_read: { written: 'T4', bar: 1, beats: 4 },
  meter_left_out: { written: 'T13', bar: 5, beats: 4 }, chord_german_h: { from: 'H7', to: 'B7' },
  sign_unknown_nc: { bar: 3, signs: 'J7' }, sign_unknown_left_out: { signs: 'J', bar: 3 },
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

test('the ChordPro reader’s notes of a comment kept as a line and of markup left out are said in both languages', () => {
  const args = { comment_as_line: { text: 'Repeat x2' }, markup_left_out: { tag: '<b>' } };
  try {
    setLocale('zh-CN');
    for (const [code, a] of Object.entries(args)) {
      const entry = noteEntry('the English note', { code, args: a });
      assert.equal(entry[0], `import.note.${code}`);
      assert.ok(STRINGS.en[entry[0]] && STRINGS['zh-CN'][entry[0]], `${code} in both dictionaries`);
      assert.match(t(...entry), han);
    }
    assert.equal(t(...noteEntry('', { code: 'markup_left_out', args: args.markup_left_out })), '歌词里的格式标记 <b> 没有导入：和弦谱只保留纯文字');
    setLocale('en');
    assert.equal(t(...noteEntry('', { code: 'comment_as_line', args: args.comment_as_line })),
      'the comment “Repeat x2” was kept as a line of words where it stands: a board has no comments');
  } finally {
    setLocale('en');
  }
});

// The notes the ChordPro and chords-over-lyrics readers send, each call with the names of its arguments
// (their notes are r.note("code", map[string]any{"name": …}, …) or r.note("code", nil, …)).
const lyricCalls = ['chordpro', 'chordtext'].flatMap((pkg) => {
  const dir = new URL(`../../${pkg}/`, import.meta.url);
  return readdirSync(dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
    .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\.note\("(\w+)", (nil|map\[string\]any\{([^\n]*?)\}),/g)])
    .map((m) => ({ code: m[1], names: [...(m[3] || '').matchAll(/"(\w+)":/g)].map((n) => n[1]) }));
});

// An example value of each argument, free of English words so the Chinese can be checked for them.
const EXAMPLE = { max: 200, total: 1000, beats: 6, semitones: -2, role: 'verse', sign: 'segno', bar: 3 };

test('every note of the ChordPro and chords-over-lyrics readers is said in both languages with the arguments it comes with', () => {
  assert.ok(lyricCalls.length >= 40, `found ${lyricCalls.length} notes in chordpro/ and chordtext/`);
  try {
    for (const locale of ['zh-CN', 'en']) {
      setLocale(locale);
      for (const { code, names } of lyricCalls) {
        const args = Object.fromEntries(names.map((n) => [n, EXAMPLE[n] ?? 'X7']));
        const entry = noteEntry('the English note', { code, args });
        assert.notEqual(entry[0], 'import.note.text', `${code} has words of its own`);
        assert.ok(STRINGS.en[entry[0]] && STRINGS['zh-CN'][entry[0]], `${entry[0]} in both dictionaries`);
        const said = t(...entry);
        if (locale === 'zh-CN') {
          assert.match(said, han, `${code}: ${said}`);
          assert.doesNotMatch(said, /\{\w+\}|\b(the|was|left|became|bar|chart|verse)\b/, `${code} (${names}): ${said}`);
        } else {
          // {chorus} is the directive's own spelling, not an argument
          const wanted = [...STRINGS.en[entry[0]].matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => n !== 'chorus');
          assert.deepEqual(wanted.filter((n) => !names.includes(n)), [], `${entry[0]} names arguments ${code} does not send`);
        }
      }
    }
    setLocale('zh-CN');
    assert.equal(t(...noteEntry('', { code: 'rhythm_evened', args: { line: 4 } })), '第 4 行有一个小节的和弦写得比一拍还密：它们平分这个小节',
      'a grid line, not a bar');
    assert.equal(t(...noteEntry('', { code: 'heading_role', args: { heading: '[Verse 1]', role: 'verse' } })),
      '标题“[Verse 1]”开始一个新段落，段落类型为主歌');
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
