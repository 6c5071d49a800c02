// Issue 23 item 7: the key ring keeps this device's edit keys by board, drops entries of the wrong
// shape, forgets a key (only the very key a page found stale), and is empty when storage is disabled.
import test from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.window ??= {};
window.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
const { KEYRING, forget, keep, keyFor, keys } = await import('../web/static/keyring.js');

const cap = (c) => c.repeat(43);

test('a kept key opens its board; forgetting it, or a newer one, is said by id', () => {
  store.clear();
  assert.equal(keyFor('song'), null);
  assert.ok(keep('song', cap('a')));
  assert.ok(keep('other', cap('b')));
  assert.equal(keyFor('song'), cap('a'));
  assert.deepEqual(Object.keys(keys()).sort(), ['other', 'song']);
  keep('song', cap('c')); // a new edit link replaces the old key
  assert.equal(keyFor('song'), cap('c'));
  forget('song', cap('a')); // a page holding the old key must not drop the new one
  assert.equal(keyFor('song'), cap('c'));
  forget('song');
  assert.equal(keyFor('song'), null);
  assert.equal(keyFor('other'), cap('b'));
});

test('the ring keeps only entries of the right shape', () => {
  store.clear();
  assert.equal(keep('bad id!', cap('a')), false);
  assert.equal(keep('song', 'short'), false);
  store.set(KEYRING, JSON.stringify({ song: { cap: cap('a') }, 'x y': { cap: cap('b') }, other: { cap: 42 }, list: [] }));
  assert.deepEqual(Object.keys(keys()), ['song']);
  store.set(KEYRING, 'not json');
  assert.deepEqual(keys(), {});
  store.set(KEYRING, '[1,2]');
  assert.deepEqual(keys(), {});
});

test('with storage disabled the ring is empty and keeps nothing', () => {
  const saved = window.localStorage;
  Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new Error('SecurityError'); } });
  try {
    assert.equal(keep('song', cap('a')), false);
    assert.deepEqual(keys(), {});
    forget('song');
  } finally {
    Object.defineProperty(window, 'localStorage', { configurable: true, writable: true, value: saved });
  }
});
