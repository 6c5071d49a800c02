// @ts-check
// The board player (Web Audio). It voices catalogue chords at the board's tempo and each bar's beats,
// in the order the form plays them (form.js: repeats, endings, D.C./D.S.), with an optional one-bar
// count-in and loop, and reports the bar being heard so the grid can show a cursor. It starts only from start(), which the page calls from a click on Play, and stops only from
// stop() (the Stop button) or when the last bar ends without loop. Nothing else (board updates,
// language switches, the tab going to the background) starts or stops it.
//
// Scheduling: a short timer looks ahead 150 ms and schedules whole bars on the audio clock, so timing
// does not depend on the timer's accuracy. The content is read at each bar, so edits and live
// updates are heard from the next bar on. Each bar's position is reported on its own timer, set for
// when the bar sounds, not at the next look-ahead (which would be up to 25 ms late): the band's
// phones place their cursors from the same times (timeline, share-panel.js), and must agree with it.

import { playOrder } from './form.js';
import { clickBeats, loopBars } from './practice.js';

const LOOKAHEAD = 0.15; // seconds scheduled ahead of the audio clock
const TICK_MS = 25;
// DRIFT_MS is how far the audio clock may run from the page's clock before the timeline is told again:
// a sound card's clock is not the system's (a few hundred parts per million apart), and the band's phones
// count bars on the system's clock from the last time told.
const DRIFT_MS = 4;
const CLOCK_SAMPLES = 1000 / TICK_MS;

const midiHz = (m) => 440 * 2 ** ((m - 69) / 12);

export class Player {
  // getContent() → the content shown; getOptions() → {countIn, loop, click, tempo (the practice tempo,
  // or null for the board's), range ({from, to}: the bars a loop plays, or null)}; onPosition({bar, section, index,
  // n, pass, times} of a bar (form.js playOrder's), or {countIn}) or null when stopped; onState('playing' | 'stopped', audioState).
  constructor({ catalogue, getContent, getOptions, onPosition, onState }) {
    this.catalogue = catalogue;
    this.getContent = getContent;
    this.getOptions = getOptions;
    this.onPosition = onPosition;
    this.onState = onState;
    this.ctx = null;
    this.playing = false;
    // run: {master, nextTime, index, cues, timer; for the timeline: tells (queued), last (bar and tempo
    // scheduled last), samples and offset (sampleClock), anchor (the last told), retell (drifted)}
    this.run = null;
    this.timeline = null; // see onTimeline
  }

  // onTimeline(fn) has fn told, while playing, of every start, tempo change and jump of the play order
  // (a loop going round), when it is scheduled, a little before it is heard: {at (ms since the epoch on
  // this page's clock), index (the bar of playOrder that starts then), tempo, countIn (a count-in bar
  // comes first), loop (it loops the whole song)}. The bars in between follow from the tempo; fn(null) when playing stops.
  onTimeline(fn) {
    this.timeline = fn;
  }

  // wallTime maps a time on the audio clock to ms since the epoch on this page's clock, by the offset
  // between the two clocks (sampleClock).
  wallTime(t) {
    return t * 1000 + this.run.offset;
  }

  // sampleClock measures the offset between the audio clock and Date.now(), which every page of the
  // machine reads alike (performance.timeOrigin is each page's own estimate) and the band's clock is
  // measured in. The audio clock moves in steps of a few ms (a block of samples at a time), so a single
  // reading is late by up to a step: the smallest offset of the last second's readings is the closest,
  // and a second is short enough to follow the clocks' drift.
  sampleClock() {
    const run = this.run;
    run.samples.push(Date.now() - this.ctx.currentTime * 1000);
    if (run.samples.length > CLOCK_SAMPLES) run.samples.shift();
    run.offset = Math.min(...run.samples);
  }

  static supported() {
    return typeof window.AudioContext === 'function';
  }

  // start must be called from a user gesture (the Play button's click).
  start() {
    if (this.playing) return;
    if (!this.ctx) {
      this.ctx = new AudioContext({ latencyHint: 'interactive' });
      this.ctx.addEventListener('statechange', () => this.onState(this.playing ? 'playing' : 'stopped', this.ctx.state));
    }
    const ctx = this.ctx;
    ctx.resume().catch(() => {}); // the state shows on the player (data-audio); nothing to report here
    const master = ctx.createGain();
    master.gain.value = 0.9;
    const comp = ctx.createDynamicsCompressor();
    master.connect(comp).connect(ctx.destination);
    const { countIn } = this.getOptions();
    this.run = { master, comp, nextTime: ctx.currentTime + 0.08, index: 0, cues: [], tells: [], timer: 0, last: null, samples: [], offset: 0 };
    this.playing = true;
    if (countIn) this.scheduleCountIn();
    this.onState('playing', ctx.state);
    this.tick();
  }

  stop() {
    if (!this.playing) return;
    const { master, comp, timer } = this.run;
    clearTimeout(timer);
    const now = this.ctx.currentTime;
    master.gain.cancelScheduledValues(now);
    master.gain.setValueAtTime(master.gain.value, now);
    master.gain.linearRampToValueAtTime(0, now + 0.06);
    setTimeout(() => {
      master.disconnect();
      comp.disconnect();
    }, 200);
    this.run = null;
    this.playing = false;
    this.timeline?.(null);
    this.onPosition(null);
    this.onState('stopped', this.ctx.state);
  }

  toggle() {
    if (this.playing) this.stop();
    else this.start();
  }

  tick() {
    const run = this.run;
    if (!run) return;
    const now = this.ctx.currentTime;
    while (run.nextTime < now + LOOKAHEAD && !run.ended) this.scheduleBar();
    // While the audio clock stands (a context not yet running), its times cannot be mapped to the
    // page's clock: the cues wait for it.
    if (this.ctx.state === 'running') {
      this.sampleClock();
      const wall = Date.now();
      for (const cue of run.cues.splice(0)) setTimeout(() => this.cue(run, cue), Math.max(0, this.wallTime(cue.time) - wall));
      for (const { t, ...tell } of run.tells.splice(0)) {
        run.anchor = { t, at: this.wallTime(t) };
        this.timeline?.({ at: run.anchor.at, ...tell });
      }
      if (run.anchor && Math.abs(this.wallTime(run.anchor.t) - run.anchor.at) > DRIFT_MS) run.retell = true;
    }
    run.timer = setTimeout(() => this.tick(), TICK_MS);
  }

  cue(run, cue) {
    if (this.run !== run) return; // stopped (and maybe started again) since it was set
    if (cue.end) this.stop();
    else this.onPosition(cue.position);
  }

  // timing reads the tempo at each bar: a practice tempo changed while playing is heard from the next
  // bar on, without stopping.
  timing(content) {
    const practice = this.getOptions().tempo;
    const tempo = clampInt(Number.isInteger(practice) ? practice : content.tempo, 30, 300, 120);
    const beats = clampInt(content.beatsPerBar, 1, 12, 4);
    return { beat: 60 / tempo, beats, tempo };
  }

  scheduleCountIn() {
    const run = this.run;
    const content = this.getContent();
    const options = this.getOptions();
    const first = (options.loop ? loopBars(playOrder(content), options.range) : playOrder(content))[0];
    const { beat, beats, tempo } = this.timing(content);
    if (first) this.told(run.nextTime, first.index, tempo, true, wholeLoop(options));
    for (let i = 0; i < beats; i++) {
      const t = run.nextTime + i * beat;
      this.click(t, i === 0);
      run.cues.push({ time: t, position: { countIn: i + 1 } });
    }
    run.nextTime += beats * beat;
  }

  scheduleBar() {
    const run = this.run;
    const content = this.getContent();
    const options = this.getOptions();
    const bars = options.loop ? loopBars(playOrder(content), options.range) : playOrder(content);
    if (run.index >= bars.length) {
      if (options.loop && bars.length) run.index = 0;
      else {
        run.ended = true;
        run.cues.push({ time: run.nextTime, end: true });
        return;
      }
    }
    const { beat, tempo } = this.timing(content);
    const bar = bars[run.index];
    const t0 = run.nextTime;
    if (run.retell || !run.last || bar.index !== run.last.index + 1 || tempo !== run.last.tempo) this.told(t0, bar.index, tempo, false, wholeLoop(options));
    run.last = { index: bar.index, tempo };
    const barLen = beat * bar.beats;
    // Each chord at its beat: the bar's durations (content schema version 3), or an even share.
    let at = t0;
    bar.chords.forEach((symbol, i) => {
      const len = beat * bar.rhythm[i];
      const v = this.catalogue.voicing(symbol);
      if (v) this.chord(v, at, len);
      at += len;
    });
    if (options.click) for (const c of clickBeats(bar.beats)) this.click(t0 + c.beat * beat, c.accent);
    run.cues.push({ time: t0, position: { section: bar.section, bar: bar.bar, index: run.index, n: bar.n, pass: bar.pass, times: bar.times } });
    run.index++;
    run.nextTime = t0 + barLen;
  }

  // told queues, for the timeline, a new stretch of steady playing: from bar index at tempo, from audio
  // time t.
  told(t, index, tempo, countIn, loop) {
    this.run.retell = false;
    this.run.anchor = null; // until this one is told
    this.run.last = { index: index - 1, tempo };
    this.run.tells.push({ t, index, tempo, countIn, loop });
  }

  chord({ bass, notes }, t, dur) {
    const ctx = this.ctx;
    const out = ctx.createBiquadFilter();
    out.type = 'lowpass';
    out.frequency.value = 2200;
    out.Q.value = 0.4;
    out.connect(this.run.master);
    const level = 0.32 / Math.sqrt(notes.length + 1);
    const end = t + Math.max(0.12, dur - 0.04);
    this.note(out, bass, t, end, level * 1.3, 'triangle');
    notes.forEach((m, i) => this.note(out, m, t + i * 0.008, end, level, i % 2 ? 'sine' : 'triangle'));
    setTimeout(() => out.disconnect(), (end - ctx.currentTime + 0.5) * 1000);
  }

  note(dest, midi, t, end, level, type) {
    const ctx = this.ctx;
    const osc = ctx.createOscillator();
    osc.type = type;
    osc.frequency.value = midiHz(midi);
    const g = ctx.createGain();
    g.gain.setValueAtTime(0, t);
    g.gain.linearRampToValueAtTime(level, t + 0.012);
    g.gain.exponentialRampToValueAtTime(level * 0.45, t + 0.5);
    g.gain.setValueAtTime(level * 0.45, Math.max(t + 0.5, end - 0.06));
    g.gain.linearRampToValueAtTime(0, end);
    osc.connect(g).connect(dest);
    osc.start(t);
    osc.stop(end + 0.02);
  }

  click(t, accent) {
    const ctx = this.ctx;
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.value = accent ? 1760 : 1320;
    const g = ctx.createGain();
    g.gain.setValueAtTime(0, t);
    g.gain.linearRampToValueAtTime(accent ? 0.5 : 0.32, t + 0.002);
    g.gain.exponentialRampToValueAtTime(0.001, t + 0.06);
    osc.connect(g).connect(this.run.master);
    osc.start(t);
    osc.stop(t + 0.08);
  }
}

// wholeLoop: the loop goes round the whole song, which a phone can follow by itself; a loop of some bars
// is told again each time round (a phone that heard it late shows no bar rather than a wrong one).
function wholeLoop(options) {
  return Boolean(options.loop && !options.range);
}

function clampInt(v, lo, hi, fallback) {
  return Number.isInteger(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
}

// flatten lists every bar in written order with its place in the grid (the player follows playOrder).
export function flatten(content) {
  const out = [];
  (content?.sections || []).forEach((s, si) =>
    s.bars.forEach((chords, bi) => out.push({ section: si, bar: bi, chords })));
  return out;
}
