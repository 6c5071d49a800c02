// @ts-check
// The first drawing of a large board, over several tasks. Drawing all 512 bars of the largest board in
// one task (about 13,000 elements) and laying out what is near the window in the frame after it holds
// the page for longer than a long task's 50 ms. Drawn a few bars a step, the first bars first, no task
// draws or lays out more than a step. Near the window each step lays out the bars the step before it
// drew, in its own task, before drawing more: the bars near the window are then laid out a step at a
// time without waiting for a frame between steps (in a browser with nothing cached a frame comes
// 30-60 ms after the last on two cores, and five of them used to stand between the board's arrival and
// its last bar). Past the window the sections drawn are skipped (content-visibility: auto, app.css), so
// a step there is larger and is not laid out. A usual board is drawn in one task: splitting it would
// only delay its last bar.

// AT_ONCE: a board of at most this many bars is drawn in one step.
export const AT_ONCE = 64;
// NEAR_STEP bars are drawn a step while the grid ends within a window and a half of the window's top:
// two rows on a desktop, four on a phone, laid out in about a third of a long task's time on two cores.
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

// NEAR_BUILD marks the grid while its build draws near the window: there its sections and bars are not
// content-visibility: auto (app.css). A section or bar just drawn is skipped until a frame has seen
// where it is, so a layout asked for between frames would leave every bar drawn since the last frame
// for the next frame to lay out at once (four rows and more: a long task). The build's end takes the
// mark away (board-view.js); the sections and bars near the window, laid out already, stay as they are.
export const NEAR_BUILD = 'data-near-build';

// stepWait is the wait before each step of a build into root after the first; it settles, in a later
// task, with the number of bars the step draws. While what is drawn ends within a window and a half of
// the window's top, it first lays out what the last step drew (reading the grid's height), so that no
// task and no frame lays out more than one step. Past that, the sections a step adds are skipped and
// need no layout. A hidden page lays out nothing.
export function stepWait(root) {
  let far = false;
  root.toggleAttribute(NEAR_BUILD, true);
  return async () => {
    await nextTask();
    if (far || document.visibilityState === 'hidden') return FAR_STEP;
    far = root.getBoundingClientRect().bottom > 1.5 * innerHeight;
    if (far) root.removeAttribute(NEAR_BUILD);
    return far ? FAR_STEP : NEAR_STEP;
  };
}

// nextTask settles in a later task; a task the page yields with scheduler.yield() goes before other
// pages' work.
export function nextTask() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise(/** @param {(v?: unknown) => void} resolve */ (resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close(); // an open port would keep its channel (and a Node test's process) alive
      resolve();
    };
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
