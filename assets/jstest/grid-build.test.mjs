// The first drawing of a large board over several steps (grid-build.js): which bars each step draws,
// and a build that is finished, stopped or taken over never draws again and always settles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { BUILD_STEP, StepBuild, barCount, buildSteps, contentUpTo } from '../web/static/grid-build.js';

test('a usual board is drawn in one step, a large one a section of bars a step', () => {
  assert.deepEqual(buildSteps(0), [0]);
  assert.deepEqual(buildSteps(16), [16]);
  assert.deepEqual(buildSteps(2 * BUILD_STEP), [2 * BUILD_STEP]);
  assert.deepEqual(buildSteps(2 * BUILD_STEP + 1), [BUILD_STEP, 2 * BUILD_STEP, 2 * BUILD_STEP + 1]);
  assert.deepEqual(buildSteps(512), [64, 128, 192, 256, 320, 384, 448, 512]);
  for (const total of [129, 200, 333, 511, 512]) {
    const steps = buildSteps(total);
    assert.equal(steps.at(-1), total, `${total}: the last step draws every bar`);
    steps.forEach((n, i) => {
      const before = i ? steps[i - 1] : 0;
      assert.ok(n > before && n - before <= BUILD_STEP, `${total}: step ${i} draws 1..${BUILD_STEP} bars (${before} -> ${n})`);
    });
  }
});

const board = (...sizes) => ({
  title: 'T',
  beatsPerBar: 4,
  sections: sizes.map((n, i) => ({ label: String.fromCharCode(65 + i), role: 'verse', bars: Array.from({ length: n }, (_, j) => [`C${i}.${j}`]) })),
});

test('contentUpTo keeps the first n bars, in their sections, and everything else of the board', () => {
  const c = board(3, 0, 2, 4);
  assert.equal(barCount(c), 9);
  assert.equal(contentUpTo(c, 9), c);
  assert.equal(contentUpTo(c, 100), c);
  assert.deepEqual(contentUpTo(c, 0).sections, []);
  const cut = (n) => contentUpTo(c, n).sections.map((s) => [s.label, s.bars.length]);
  assert.deepEqual(cut(2), [['A', 2]]);
  assert.deepEqual(cut(3), [['A', 3]]);
  assert.deepEqual(cut(4), [['A', 3], ['B', 0], ['C', 1]]);
  assert.deepEqual(cut(6), [['A', 3], ['B', 0], ['C', 2], ['D', 1]]);
  const part = contentUpTo(c, 6);
  assert.equal(part.title, 'T');
  assert.equal(part.beatsPerBar, 4);
  assert.equal(part.sections[3].role, 'verse');
  assert.deepEqual(part.sections[3].bars, [['C3.0']]);
  assert.equal(part.sections[0], c.sections[0], 'a whole section is the board\'s own');
  assert.equal(c.sections[3].bars.length, 4, 'the board is not changed');
});

// frames stands in for the browser's frames: next() settles when the test lets a frame pass.
function frames() {
  const waiting = [];
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    async pass() {
      waiting.splice(0).forEach((r) => r());
      await new Promise((r) => setImmediate(r));
    },
  };
}

function build(steps, f) {
  const log = [];
  const b = new StepBuild(steps, { draw: (n) => log.push(n), end: () => log.push('end'), next: f.next });
  b.done.then(() => log.push('done'));
  return { b, log };
}

test('a build draws a step a frame, then ends and settles once', async () => {
  const f = frames();
  const { b, log } = build([64, 128, 130], f);
  b.start();
  assert.deepEqual(log, [64], 'the first step is drawn at once');
  await f.pass();
  assert.deepEqual(log, [64, 128]);
  await f.pass();
  assert.deepEqual(log, [64, 128, 130, 'end', 'done']);
  b.finish();
  b.stop();
  await f.pass();
  assert.deepEqual(log, [64, 128, 130, 'end', 'done']);
});

test('finish draws every bar at once and the steps left are never drawn', async () => {
  const f = frames();
  const { b, log } = build([64, 128, 192], f);
  b.start();
  b.finish();
  assert.deepEqual(log, [64, 192, 'end'], 'finished in the same task');
  await f.pass();
  await f.pass();
  assert.deepEqual(log, [64, 192, 'end', 'done']);
});

test('stop ends a build where it is: nothing more is drawn, it still settles', async () => {
  const f = frames();
  const { b, log } = build([64, 128, 192], f);
  b.start();
  await f.pass();
  b.stop();
  b.finish();
  assert.deepEqual(log, [64, 128, 'end']);
  await f.pass();
  await f.pass();
  assert.deepEqual(log, [64, 128, 'end', 'done']);
});

test('a one-step build is over after start', async () => {
  const f = frames();
  const { b, log } = build([16], f);
  b.start();
  await b.done;
  assert.deepEqual(log, [16, 'end', 'done']);
});
