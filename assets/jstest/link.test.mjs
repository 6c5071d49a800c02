// The bridge's link to `tele host` (assets/pi/link.js), driven through a fake child: a pair of streams
// standing in for the host's stdin and stdout.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { MAX_FRAME, makeLink } from '../pi/link.js';

// fakeHost gives the link a child whose stdin is read back as lines (raw) and frames, and lets the test
// write what the host would print. notes and broken count what the link handed the bridge.
function fakeHost(onCall = async () => null) {
  const child = { stdin: new PassThrough(), stdout: new PassThrough() };
  const h = { child, raw: [], frames: [], notes: [], broken: 0, waiters: [] };
  let buf = '';
  child.stdin.setEncoding('utf8');
  child.stdin.on('data', (d) => {
    buf += d;
    for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) {
      h.raw.push(buf.slice(0, i + 1));
      h.frames.push(JSON.parse(buf.slice(0, i)));
      h.waiters.splice(0).forEach((w) => w());
    }
  });
  // frame(n) resolves once the link has written n frames.
  h.frame = (n) => new Promise((resolve) => {
    const check = () => (h.frames.length >= n ? resolve(h.frames[n - 1]) : h.waiters.push(check));
    check();
  });
  h.say = (text) => new Promise((resolve) => child.stdout.write(text, resolve));
  h.link = makeLink(child, (f) => h.notes.push(f), onCall, () => h.broken++);
  return h;
}

// Lets the stdout data events and the promise reactions they start run.
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a note is one JSON line', async () => {
  const h = fakeHost();
  assert.equal(h.link.note('hello', { protocol: 1, board: 'a\nb' }), true);
  await h.frame(1);
  assert.deepEqual(h.raw, ['{"note":"hello","protocol":1,"board":"a\\nb"}\n']);
});

test('notes arrive whole however the host cuts its output, even inside a character', async () => {
  const text = Buffer.from('{"note":"branch","entries":["é😀"]}\n\n  \n{"note":"state","idle":true}\n');
  for (let i = 0; i <= text.length; i++) {
    const h = fakeHost();
    await h.say(text.subarray(0, i));
    await h.say(text.subarray(i));
    await settle();
    assert.deepEqual(h.notes, [{ note: 'branch', entries: ['é😀'] }, { note: 'state', idle: true }], `cut at ${i}`);
  }
});

test('lines that are not frames are dropped; a malformed frame with an id is answered bad_frame', async () => {
  const h = fakeHost();
  await h.say('not json\n[1,2]\nnull\n{"id":0,"ok":1}\n{"x":1}\n{"id":5,"what":1}\n{"note":"ready"}\n');
  await settle();
  assert.deepEqual(h.notes, [{ note: 'ready' }]);
  assert.deepEqual(await h.frame(1), { id: 5, err: { code: 'bad_frame', message: 'malformed frame' } });
  assert.equal(h.frames.length, 1);
});

test('a host line longer than a frame breaks the link once, after the lines before it', async () => {
  const h = fakeHost();
  await h.say('{"note":"a"}\n' + 'x'.repeat(MAX_FRAME));
  await settle();
  assert.equal(h.broken, 0, 'exactly MAX_FRAME pending characters are still a frame');
  await h.say('y');
  await settle();
  assert.deepEqual(h.notes, [{ note: 'a' }]);
  assert.equal(h.broken, 1);
});

test('a frame longer than the limit is never written', async () => {
  const h = fakeHost();
  const big = 'x'.repeat(MAX_FRAME);
  assert.equal(h.link.note('branch', { entries: [big] }), false);
  await assert.rejects(h.link.call('tool', { content: big }), { code: 'revoked', message: 'Tele is not connected' });
  assert.equal(h.link.note('state', {}), true);
  assert.deepEqual(await h.frame(1), { note: 'state' });
});

test('replies are matched to their calls by id, in any order', async () => {
  const h = fakeHost();
  const first = h.link.call('tool', { action: 'get' });
  const second = h.link.call('invite', {});
  assert.deepEqual(await h.frame(2), { id: 2, call: 'invite', args: {} });
  assert.deepEqual(h.frames[0], { id: 1, call: 'tool', args: { action: 'get' } });
  await h.say('{"id":2,"ok":{"invite":"i"}}\n{"id":9,"ok":1}\n{"id":1,"err":{"code":"revision_conflict","message":"stale","revision":4}}\n{"id":1,"ok":2}\n');
  assert.deepEqual(await second, { invite: 'i' });
  await assert.rejects(first, (e) => {
    assert.equal(e.code, 'revision_conflict');
    assert.equal(e.message, 'stale');
    assert.deepEqual(e.fields, { revision: 4 });
    return true;
  });
});

test("the host's calls are answered with the bridge's result or its error", async () => {
  const h = fakeHost(async (name, args) => {
    if (name === 'send') return undefined;
    if (name === 'echo') return args;
    if (name === 'busy') throw Object.assign(new Error('Pi is busy'), { code: 'busy' });
    throw new Error('x'.repeat(600));
  });
  await h.say('{"id":1,"call":"send","args":{"text":"hi"}}\n{"id":2,"call":"echo","args":[1]}\n');
  await h.say('{"id":3,"call":"busy"}\n{"id":4,"call":"boom"}\n');
  await h.frame(4);
  const byId = Object.fromEntries(h.frames.map((f) => [f.id, f]));
  assert.deepEqual(byId[1], { id: 1, ok: null });
  assert.deepEqual(byId[2], { id: 2, ok: [1] });
  assert.deepEqual(byId[3], { id: 3, err: { code: 'busy', message: 'Pi is busy' } });
  assert.deepEqual(byId[4], { id: 4, err: { code: 'internal', message: 'x'.repeat(500) } });
});

test('an aborted call rejects, and its late reply is ignored', async () => {
  const h = fakeHost();
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(h.link.call('tool', {}, ac.signal), { code: 'aborted', message: 'the tool call was aborted' });
  const running = new AbortController();
  const call = h.link.call('tool', {}, running.signal);
  const f = await h.frame(1);
  running.abort();
  await assert.rejects(call, { code: 'aborted', message: /call get/ });
  await h.say(`{"id":${f.id},"ok":1}\n`);
  await settle();
  assert.equal(h.frames.length, 1, 'the aborted call was sent once, the pre-aborted one never');
});

test('once the child is gone, waiting calls fail with the reason given and new ones at once', async () => {
  const h = fakeHost();
  const waiting = [h.link.call('tool', {}), h.link.call('invite', {})];
  await h.frame(2);
  h.child.stdin.end();
  h.child.stdout.end();
  assert.equal(h.link.note('state', {}), false);
  await assert.rejects(h.link.call('tool', {}), { code: 'revoked', message: 'Tele is not connected' });
  h.link.failAll('revoked', 'Tele was disconnected');
  for (const w of waiting) await assert.rejects(w, { code: 'revoked', message: 'Tele was disconnected' });
});
