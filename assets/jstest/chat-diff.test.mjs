// The chat stream's change messages (chat-diff.js): whatever the snapshots, the view the page rebuilds
// from the worker's messages is the snapshot the server sent (its showable items), and a streamed word
// travels as that word alone.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ViewDiff, ViewModel, showableItems } from '../web/static/chat-diff.js';

const fields = { epoch: 'e1', idleVersion: 3, status: 'running', runId: 'r1', notice: null, truncated: false };
const view = (items, more = {}) => ({ ...fields, ...more, items });
const user = (id, text) => ({ id, role: 'user', text });
const said = (id, text) => ({ id, role: 'assistant', text });
const tool = (id, status) => ({ id, role: 'tool', name: 'tele_board', status });
const notice = (id, code) => ({ id, role: 'notice', code });

// replay passes every snapshot through a ViewDiff, each message through a structured clone (as
// postMessage does), into a ViewModel, and checks the model's view against the snapshot's after each.
function replay(snapshots) {
  const diff = new ViewDiff();
  const model = new ViewModel();
  const msgs = [];
  for (const [i, snap] of snapshots.entries()) {
    const msg = diff.next(snap);
    if (!msg) continue;
    msgs.push(msg);
    const { view: got, changed } = model.apply(structuredClone(msg));
    const { items, ...rest } = snap;
    assert.deepEqual(got, { ...rest, items: showableItems(items) }, `snapshot ${i}`);
    for (const c of msg.changes) assert.ok(changed.has(c.item ? c.item.id : c.id), `snapshot ${i}: ${JSON.stringify(c)} in changed`);
  }
  return msgs;
}

test('a streamed word is sent as that word; unchanged items and their order are not sent', () => {
  const history = Array.from({ length: 100 }, (_, i) => (i % 2 ? said : user)(`m${i}`, `message ${i} `.repeat(200)));
  const msgs = replay([
    view(history, { status: 'idle', runId: null }),
    view([...history, said('r', '')]),
    view([...history, said('r', 'The tune')]),
    view([...history, said('r', 'The tune walks')]),
  ]);
  assert.equal(msgs[0].reset, true);
  assert.equal(msgs[0].changes.length, 100);
  assert.deepEqual(msgs[1].changes, [{ item: said('r', '') }]);
  assert.equal(msgs[1].order.length, 101);
  assert.deepEqual(msgs[3], { type: 'view', fields, changes: [{ id: 'r', append: ' walks' }] });
  assert.ok(JSON.stringify(msgs[3]).length < 200);
});

test('changed, replaced, removed, moved and re-roled items', () => {
  replay([
    view([user('a', 'hello'), said('b', 'hi there'), tool('t', 'calling')]),
    view([user('a', 'hello'), said('b', 'hi'), tool('t', 'completed')]), // text shrank; a status changed
    view([said('b', 'hi'), user('a', 'hello'), notice('n', 'reply-aborted')]), // moved; t cut; n new
    view([notice('b', 'model-failed'), user('a', 'hello')]), // same id, another role
    view([user('a', 'hello'), user('a', 'twice'), { id: 7, role: 'user' }, { id: 'x', role: 'system', text: '' }, null]),
    view([], { status: 'idle', truncated: true }),
    view([user('z', '')]),
  ]);
});

test('an item that gains or loses a member is sent whole', () => {
  const msgs = replay([
    view([said('a', 'one')]),
    view([{ id: 'a', role: 'assistant', text: 'one', extra: 1 }]),
    view([{ id: 'a', role: 'assistant', text: 'one two' }]),
  ]);
  assert.ok(msgs[1].changes[0].item);
  assert.ok(msgs[2].changes[0].item);
});

test('what is not a view is ignored', () => {
  const diff = new ViewDiff();
  for (const v of [null, 3, 'x', {}, { items: 'no' }]) assert.equal(diff.next(v), null);
  assert.equal(diff.next(view([])).reset, true);
  assert.equal(diff.next(view([])).reset, undefined);
});

test('a reset forgets what the model held; an append to an unknown item is skipped', () => {
  const model = new ViewModel();
  model.apply(new ViewDiff().next(view([user('old', 'gone')])));
  const { view: got } = model.apply(new ViewDiff().next(view([user('new', 'here')])));
  assert.deepEqual(got.items, [user('new', 'here')]);
  const { view: after, changed } = model.apply({ type: 'view', fields, changes: [{ id: 'nobody', append: 'x' }] });
  assert.deepEqual(after.items, [user('new', 'here')]);
  assert.equal(changed.size, 0);
});
