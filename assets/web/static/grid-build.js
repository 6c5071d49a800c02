// The first drawing of a large board, over several tasks. Drawing all 512 bars of the largest board in
// one task (about 13,000 elements) and laying out what is near the window in the frame after it holds
// the page for longer than a long task's 50 ms; drawn a section's worth of bars a frame, the first bars
// first, the top of the chart is painted early and each frame lays out only what one step added
// (sections further down are skipped: content-visibility: auto, app.css). A usual board is drawn in
// one task: splitting it would only delay its last bar.

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

// nextFrame settles once the browser has drawn a frame: a step of a build gets a frame of its own, so
// no frame lays out more than one step's bars (a message posted from the frame's animation callbacks
// is handled after its style, layout and paint). A hidden page draws no frames; its steps follow one
// another as tasks.
export function nextFrame() {
  return new Promise((resolve) => {
    const afterwards = () => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve();
      ch.port2.postMessage(null);
    };
    if (document.visibilityState === 'hidden') afterwards();
    else requestAnimationFrame(afterwards);
  });
}

// StepBuild calls draw(n) for each of steps (bar counts, see buildSteps), the first at start() and
// each next one once next() settles (the next frame), then end(). It is over when every step is drawn,
// when finish() draws the last step at once, or when stop() ends it where it is; done settles then,
// and end() runs once.
export class StepBuild {
  constructor(steps, { draw, end = () => {}, next = nextFrame }) {
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
