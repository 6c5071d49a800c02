// The page's text/event-stream reader (stream.js EventParser): the same events whatever the chunks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { EventParser } from '../web/static/stream.js';

function parse(chunks) {
  const got = [];
  const p = new EventParser((name, data) => got.push([name, data]));
  for (const c of chunks) p.push(c);
  return got;
}

// Every way of cutting text into two or three chunks gives the events of the whole.
function everyCut(text) {
  const whole = parse([text]);
  for (let i = 0; i <= text.length; i++) {
    assert.deepEqual(parse([text.slice(0, i), text.slice(i)]), whole, `cut at ${i}`);
    for (let j = i; j <= text.length; j += 3) {
      assert.deepEqual(parse([text.slice(0, i), text.slice(i, j), text.slice(j)]), whole, `cuts at ${i}, ${j}`);
    }
  }
  return whole;
}

test('events, comments, default name, joined data lines, ignored fields', () => {
  const text = ': hello\n\nevent: board\ndata: {"a":1}\n\ndata: one\ndata:two\nid: 7\nretry: 10\n\nevent: x\n\nevent: snapshot\ndata: {"b":"c:d"}\n\n';
  assert.deepEqual(everyCut(text), [
    ['board', '{"a":1}'],
    ['message', 'one\ntwo'],
    ['snapshot', '{"b":"c:d"}'],
  ]);
});

test('CR LF and CR end lines as LF does', () => {
  const lf = 'event: board\ndata: {"a":1}\n\ndata: z\n\n';
  const want = parse([lf]);
  assert.deepEqual(everyCut(lf.replaceAll('\n', '\r\n')), want);
  // A CR last in what has arrived may be half of a CR LF: it ends its line once more text comes.
  assert.deepEqual(everyCut(lf.replaceAll('\n', '\r') + ':'), want);
});

test('an event is dispatched only at its blank line', () => {
  assert.deepEqual(parse(['event: board\ndata: {}\n']), []);
  assert.deepEqual(parse(['event: board\ndata: {}\n', '\n']), [['board', '{}']]);
});

test('a large event in many chunks', () => {
  const big = 'x'.repeat(300000);
  const text = `event: snapshot\ndata: ${big}\n\n`;
  const chunks = [];
  for (let i = 0; i < text.length; i += 16384) chunks.push(text.slice(i, i + 16384));
  assert.deepEqual(parse(chunks), [['snapshot', big]]);
});
