// @ts-check
// The first drawing of a large board, over several tasks. Drawing all 512 bars of the largest board in
// one task (about 13,000 elements) and laying out what is near the window in the frame after it holds
// the page for longer than a long task's 50 ms. Drawn a few bars a step, the first bars first, the top
// of the chart is painted early and no task draws or lays out more than a step. Near the window every
// bar drawn is styled, laid out and painted in the next frame, so a step there is small and waits for
// that frame; past it, the sections drawn are skipped (content-visibility: auto, app.css), so a step
// there is larger and follows the last one as a task. A usual board is drawn in one task: splitting it
// would only delay its last bar.

// AT_ONCE: a board of at most this many bars is drawn in one step.
export const AT_ONCE = 64;
// NEAR_STEP bars are drawn a step while the grid ends within a window and a half of the window's top:
// two rows on a desktop, four on a phone, a frame of about a third of a long task's time on two cores.
export const NEAR_STEP = 16;
// FAR_STEP bars are drawn a step past that, where a section is skipped until it comes near the window.
export const FAR_STEP = 64;

export function barCount(content) {
  return (content.sections || []).reduce((n, s) => n + s.bars.length, 0);
}

// barsShown is how many bars of each section a grid showing content's first n bars holds: the sections
// after the nth bar left out, the one holding it cut after it.
export function barsShown(content, n) {
  const shown = [];
  let left = n;
  for (const s of content.sections || []) {
    if (left <= 0) break;
    const k = Math.min(s.bars.length, left);
    shown.push(k);
    left -= k;
  }
  return shown;
}

// stepWait is the wait before each step of a build into root after the first; it settles with the
// number of bars the step draws. While what is drawn ends within a window and a half of the window's
// top, the bars a step adds are styled, laid out and painted at once: each of these steps waits for a
// frame, so no frame lays out more than one of them. Past that, the sections a step adds are skipped
// and cost a frame far less: those steps follow one another as tasks. A hidden page draws no frames
// at all.
export function stepWait(root) {
  let far = false;
  return async () => {
    if (far || document.visibilityState === 'hidden') {
      await nextTask();
      return FAR_STEP;
    }
    await nextFrame();
    // Just after a frame the layout is up to date: reading it costs nothing.
    far = root.getBoundingClientRect().bottom > 1.5 * innerHeight;
    return far ? FAR_STEP : NEAR_STEP;
  };
}

// nextFrame settles after the browser's next frame: a message posted from the frame's animation
// callbacks is handled after its style, layout and paint.
function nextFrame() {
  return new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve) => {
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve();
      ch.port2.postMessage(null);
    });
  });
}

// nextTask settles in a later task; a task the page yields with scheduler.yield() goes before other
// pages' work.
function nextTask() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

// StepBuild draws a board of total bars in steps: draw(n) draws its first n bars, NEAR_STEP at
// start(), then as many more as each next() settles with (stepWait), up to total; then end(). It is
// over when every bar is drawn, when finish() draws them all at once, or when stop() ends it where it
// is; done settles then, and end() runs once.
export class StepBuild {
  constructor(total, { draw, end, next }) {
    this.total = total;
    this.draw = draw;
    this.end = end;
    this.next = next;
    this.over = false;
    this.done = new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve) => {
      this.resolve = resolve;
    });
  }

  async start() {
    let n = Math.min(NEAR_STEP, this.total);
    this.draw(n);
    while (n < this.total) {
      const step = await this.next();
      if (this.over) return;
      n = Math.min(this.total, n + step);
      this.draw(n);
    }
    this.close();
  }

  // finish draws every bar now (what the page looks up must exist).
  finish() {
    if (this.over) return;
    this.draw(this.total);
    this.close();
  }

  // stop ends the build where it is: what draws the grid next draws every bar.
  stop() {
    if (!this.over) this.close();
  }

  close() {
    this.over = true;
    this.end();
    this.resolve();
  }
}
