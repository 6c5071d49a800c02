// The rules of a chart's form, said in the page's languages: every rule id board/form_rules.go can
// send with a 422 has words in English and 简体中文, and content.js's ruleEntry picks them by id.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STRINGS } from '../web/static/form-strings.js';
import { ruleEntry } from '../web/static/content.js';
import { t } from '../web/static/i18n.js';

const goRules = readFileSync(new URL('../../board/form_rules.go', import.meta.url), 'utf8');
const ids = [...goRules.matchAll(/^\t"(\w+)":\s+[`"]/gm)].map((m) => m[1]);

test('every form rule of the server has words in both languages', () => {
  assert.ok(ids.length >= 30, `found ${ids.length} rule ids in form_rules.go`);
  for (const loc of ['en', 'zh-CN']) {
    for (const id of ids) assert.ok(STRINGS[loc][`form.rule.${id}`], `${loc} lacks form.rule.${id}`);
  }
});

test('a form refusal is said by its id, with its arguments', () => {
  const fields = { ruleId: 'oneJump', ruleArgs: { other: 'ds-al-coda', at: 7 } };
  const entry = ruleEntry('sections[1].bars[3].mark', 'a chart has one D.C. or D.S.; …', fields);
  assert.deepEqual(entry, ['form.rule.oneJump', { other: 'ds-al-coda', at: 7 }]);
  assert.equal(t(...entry), 'a chart has at most two D.C. or D.S. (one after the head, one after the solos); the second, D.S. al Coda, is already at bar 7.');
  assert.equal(ruleEntry('sections[0].bars[0].mark', 'x', { ruleId: 'no such id!' }), null);
});
