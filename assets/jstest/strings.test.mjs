// Every string the pages show exists in both languages: the dictionaries of page-strings.js and of each
// module that adds its own (i18n.extend) name the same keys in English and 简体中文, and every key the
// pages' markup names (data-i18n, data-i18n-<attribute>) is in both. A key missing in one language
// would show English on a Chinese page, or the bare key on any page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STRINGS as page } from '../web/static/page-strings.js';
import { STRINGS as chat } from '../web/static/chat-strings.js';
import { STRINGS as form } from '../web/static/form-strings.js';
import { STRINGS as manage } from '../web/static/manage-strings.js';
import { STRINGS as band } from '../web/static/band-strings.js';
import { STRINGS as importNotes } from '../web/static/import-notes.js';

const source = (path) => readFileSync(new URL(`../web/${path}`, import.meta.url), 'utf8');

// keysOf reads the keys of the two dictionaries of a source file's `en: {…}, 'zh-CN': {…}` block:
// the history panel's, which it adds inline. A key whose English entry is a function
// of the locale (the history's times) serves both languages.
function keysOf(path) {
  const text = source(path);
  const en = text.indexOf('\n  en: {');
  const zh = text.indexOf("\n  'zh-CN': {", en);
  const end = text.indexOf('\n};', zh) < 0 ? text.indexOf('\n});', zh) : text.indexOf('\n};', zh);
  assert.ok(en >= 0 && zh > en && end > zh, `${path}: no en and zh-CN dictionaries found`);
  const keys = (from, to) => [...text.slice(from, to).matchAll(/^\s+'([\w.]+)':\s*(\(p, loc\))?/gm)];
  const english = keys(en, zh);
  return {
    en: english.map((m) => m[1]),
    localeFunctions: english.filter((m) => m[2]).map((m) => m[1]),
    zh: keys(zh, end).map((m) => m[1]),
  };
}

const dictionaries = {
  'page-strings.js': { en: Object.keys(page.en), zh: Object.keys(page['zh-CN']), localeFunctions: [] },
  'history-panel.js': keysOf('static/history-panel.js'),
  'chat-strings.js': { en: Object.keys(chat.en), zh: Object.keys(chat['zh-CN']), localeFunctions: [] },
  'form-strings.js': { en: Object.keys(form.en), zh: Object.keys(form['zh-CN']), localeFunctions: [] },
  'manage-strings.js': { en: Object.keys(manage.en), zh: Object.keys(manage['zh-CN']), localeFunctions: [] },
  'band-strings.js': { en: Object.keys(band.en), zh: Object.keys(band['zh-CN']), localeFunctions: [] },
  'import-notes.js': { en: Object.keys(importNotes.en), zh: Object.keys(importNotes['zh-CN']), localeFunctions: [] },
};

test('each dictionary names the same keys in English and 简体中文', () => {
  for (const [name, d] of Object.entries(dictionaries)) {
    assert.ok(d.en.length > 10, `${name}: found only ${d.en.length} English keys`);
    const zh = new Set([...d.zh, ...d.localeFunctions]);
    assert.deepEqual(d.en.filter((k) => !zh.has(k)), [], `${name}: English keys without Chinese`);
    const en = new Set(d.en);
    assert.deepEqual(d.zh.filter((k) => !en.has(k)), [], `${name}: Chinese keys without English`);
  }
});

test("every key the pages' markup names has words in both languages", () => {
  const en = new Set(Object.values(dictionaries).flatMap((d) => d.en));
  const zh = new Set(Object.values(dictionaries).flatMap((d) => [...d.zh, ...d.localeFunctions]));
  for (const page of ['pages/index.html', 'pages/board.html', 'pages/join.html', 'pages/follow.html']) {
    const keys = [...source(page).matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(keys.length > 1, `${page}: found only ${keys.length} keys`);
    for (const key of keys) {
      assert.ok(en.has(key), `${page} names ${key}, which has no English words`);
      assert.ok(zh.has(key), `${page} names ${key}, which has no Chinese words`);
    }
  }
});

// One word for one thing: a board is 和弦谱 in every Chinese string (the import panel once called it
// 和弦板, beside 新建和弦谱 on the same page).
test('the Chinese words name a board one way', () => {
  const files = ['static/page-strings.js', 'static/history-panel.js', 'static/chat-strings.js', 'static/form-strings.js',
    'static/manage-strings.js', 'pages/index.html', 'pages/board.html'];
  for (const path of files) {
    const at = source(path).indexOf('和弦板');
    assert.equal(at, -1, `${path} calls a board 和弦板 where the pages say 和弦谱`);
  }
});

// A command set in the middle of a translated sentence (<code> between two translated spans) touches
// them: the spaces around it are the strings' own, since Chinese puts none before its comma. Markup
// whitespace there showed as "tele board link x ，然后…", and let a line start with the comma.
test('the pages put no space of their own beside a command inside a sentence', () => {
  for (const page of ['pages/index.html', 'pages/board.html']) {
    const loose = source(page).match(/<\/span>\s+<code|<\/code>\s+<span data-i18n/);
    assert.equal(loose, null, `${page}: whitespace beside a <code> in a translated sentence: ${loose?.[0]}`);
  }
});
