// The first drawing of a large board over several steps (grid-build.js): which bars each step draws,
// and a build that is finished, stopped or taken over never draws again and always settles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { FAR_STEP, NEAR_BUILD, NEAR_STEP, StepBuild, barCount, barsShown, stepWait } from '../web/static/grid-build.js';

const board = (...sizes) => ({
  title: 'T',
  beatsPerBar: 4,
  sections: sizes.map((n, i) => ({ label: String.fromCharCode(65 + i), role: 'verse', bars: Array.from({ length: n }, (_, j) => [`C${i}.${j}`]) })),
});

test('barsShown keeps the first n bars, in their sections', () => {
  const c = board(3, 0, 2, 4);
  assert.equal(barCount(c), 9);
  assert.deepEqual(barsShown(c, 9), [3, 0, 2, 4]);
  assert.deepEqual(barsShown(c, 100), [3, 0, 2, 4]);
  assert.deepEqual(barsShown(c, 0), []);
  assert.deepEqual(barsShown(c, 2), [2]);
  assert.deepEqual(barsShown(c, 3), [3]);
  assert.deepEqual(barsShown(c, 4), [3, 0, 1]);
  assert.deepEqual(barsShown(c, 6), [3, 0, 2, 1]);
  assert.deepEqual(barsShown({ title: 'T' }, 5), []);
});

// frames stands in for the browser's frames: next() settles when the test lets a frame pass, with the
// size of the step after it (pass(far): the grid reached past the window, or not).
function frames() {
  const waiting = [];
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    async pass(far = false) {
      waiting.splice(0).forEach((r) => r(far ? FAR_STEP : NEAR_STEP));
      await new Promise((r) => setImmediate(r));
    },
  };
}

function build(total, f) {
  const log = [];
  const b = new StepBuild(total, { draw: (n) => log.push(n), end: () => log.push('end'), next: f.next });
  b.done.then(() => log.push('done'));
  return { b, log };
}

test('a build draws a few bars a frame near the window, a section a step past it, then ends once', async () => {
  const f = frames();
  const { b, log } = build(200, f);
  b.start();
  assert.deepEqual(log, [NEAR_STEP], 'the first step is drawn at once');
  await f.pass();
  assert.deepEqual(log, [16, 32]);
  await f.pass(true);
  assert.deepEqual(log, [16, 32, 32 + FAR_STEP]);
  await f.pass(true);
  await f.pass(true);
  assert.deepEqual(log, [16, 32, 96, 160, 200, 'end', 'done'], 'the last step draws what is left');
  b.finish();
  b.stop();
  await f.pass();
  assert.deepEqual(log, [16, 32, 96, 160, 200, 'end', 'done']);
});

test('finish draws every bar at once and the steps left are never drawn', async () => {
  const f = frames();
  const { b, log } = build(192, f);
  b.start();
  b.finish();
  assert.deepEqual(log, [16, 192, 'end'], 'finished in the same task');
  await f.pass();
  await f.pass();
  assert.deepEqual(log, [16, 192, 'end', 'done']);
});

test('stop ends a build where it is: nothing more is drawn, it still settles', async () => {
  const f = frames();
  const { b, log } = build(192, f);
  b.start();
  await f.pass();
  b.stop();
  b.finish();
  assert.deepEqual(log, [16, 32, 'end']);
  await f.pass();
  await f.pass();
  assert.deepEqual(log, [16, 32, 'end', 'done']);
});

test('a build of fewer bars than a step is over after start', async () => {
  const f = frames();
  const { b, log } = build(10, f);
  b.start();
  await b.done;
  assert.deepEqual(log, [10, 'end', 'done']);
});

// grid stands in for the grid element: its height as laid out (bottom, read by the wait), how many
// times it was read, and its attributes.
function grid(bottom) {
  const attrs = new Set();
  return {
    bottom,
    reads: 0,
    getBoundingClientRect() {
      this.reads++;
      return { bottom: this.bottom };
    },
    toggleAttribute: (name, on) => (on ? attrs.add(name) : attrs.delete(name)),
    removeAttribute: (name) => attrs.delete(name),
    hasAttribute: (name) => attrs.has(name),
  };
}

test('near the window a step lays out the last one and draws more without waiting for a frame; past it, the steps are larger and lay out nothing', async (t) => {
  // No frame ever comes: a wait for one would never settle.
  Object.assign(globalThis, { innerHeight: 800, document: { visibilityState: 'visible' }, requestAnimationFrame: () => 0 });
  t.after(() => {
    delete globalThis.innerHeight;
    delete globalThis.document;
    delete globalThis.requestAnimationFrame;
  });
  const root = grid(600);
  const next = stepWait(root);
  assert.ok(root.hasAttribute(NEAR_BUILD), 'near the window, what the build draws is not skipped');
  assert.equal(await next(), NEAR_STEP);
  assert.equal(root.reads, 1, 'the bars of the last step laid out, in this task');
  assert.ok(root.hasAttribute(NEAR_BUILD));
  root.bottom = 1300;
  assert.equal(await next(), FAR_STEP, 'past a window and a half, a section a step');
  assert.ok(!root.hasAttribute(NEAR_BUILD), 'past the window, the sections drawn are skipped again');
  assert.equal(await next(), FAR_STEP);
  assert.equal(root.reads, 2, 'past the window nothing is laid out');
});

test('a hidden page lays out nothing while it builds', async (t) => {
  Object.assign(globalThis, { innerHeight: 800, document: { visibilityState: 'hidden' } });
  t.after(() => {
    delete globalThis.innerHeight;
    delete globalThis.document;
  });
  const root = grid(100);
  const next = stepWait(root);
  assert.equal(await next(), FAR_STEP);
  assert.equal(root.reads, 0);
});
