// The first drawing of a large board, over several tasks. Drawing all 512 bars of the largest board in
// one task (about 13,000 elements) and laying out what is near the window in the frame after it holds
// the page for longer than a long task's 50 ms. Drawn a section's worth of bars a step, the first bars
// first, the top of the chart is painted early, no task draws more than a step and no frame lays out
// more than a step's bars near the window (stepWait). A usual board is drawn in one task: splitting it would only
// delay its last bar.

// BUILD_STEP bars are drawn a step; a board of at most twice that is drawn at once.
export const BUILD_STEP = 64;

// buildSteps is how many of a board's first bars are drawn after each step of its build, the last
// one being all of them.
export function buildSteps(total, step = BUILD_STEP) {
  if (total <= 2 * step) return [total];
  const steps = [];
  for (let n = step; n < total; n += step) steps.push(n);
  steps.push(total);
  return steps;
}

export function barCount(content) {
  return (content.sections || []).reduce((n, s) => n + s.bars.length, 0);
}

// contentUpTo is content with only its first n bars: the sections after them left out, the section
// holding the nth cut after it. With every bar, it is content itself.
export function contentUpTo(content, n) {
  if (n >= barCount(content)) return content;
  const sections = [];
  let left = n;
  for (const s of content.sections) {
    if (left === 0) break;
    const bars = s.bars.length <= left ? s.bars : s.bars.slice(0, left);
    sections.push(bars === s.bars ? s : { ...s, bars });
    left -= bars.length;
  }
  return { ...content, sections };
}

// stepWait is the wait between the steps of a build into root. While what is drawn ends within a
// window and a half of the window's top, the section a step adds is styled, laid out and painted at
// once: each of these steps waits for a frame, so no frame lays out more than one of them. Past that,
// the sections a step adds are skipped (content-visibility: auto, app.css) and cost a frame far less:
// those steps follow one another as tasks. A hidden page draws no frames at all.
export function stepWait(root) {
  let far = false;
  return async () => {
    if (far || document.visibilityState === 'hidden') return nextTask();
    await nextFrame();
    // Just after a frame the layout is up to date: reading it costs nothing.
    far = root.getBoundingClientRect().bottom > 1.5 * innerHeight;
  };
}

// nextFrame settles after the browser's next frame: a message posted from the frame's animation
// callbacks is handled after its style, layout and paint.
function nextFrame() {
  return new Promise((resolve) => {
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
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

// StepBuild calls draw(n) for each of steps (bar counts, see buildSteps), the first at start() and
// each next one once next() settles (stepWait), then end(). It is over when every step is drawn,
// when finish() draws the last step at once, or when stop() ends it where it is; done settles then,
// and end() runs once.
export class StepBuild {
  constructor(steps, { draw, end, next }) {
    this.steps = steps;
    this.draw = draw;
    this.end = end;
    this.next = next;
    this.over = false;
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  async start() {
    for (let i = 0; i < this.steps.length; i++) {
      if (i > 0) await this.next();
      if (this.over) return;
      this.draw(this.steps[i]);
    }
    this.close();
  }

  // finish draws every bar now (what the page looks up must exist).
  finish() {
    if (this.over) return;
    this.draw(this.steps[this.steps.length - 1]);
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
