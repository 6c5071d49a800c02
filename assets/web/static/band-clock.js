// @ts-check
// The band's clock: where a follower's cursor is, from the leader's transport and the server's time,
// never from when a message arrived. Pure functions, so the page and the unit tests share them.

import { playOrder } from './form.js';

// offsetFrom picks the clock offset (server − local, ms) of the sample with the shortest round trip:
// samples are {sent, serverTime, received} in ms; the server read its clock about half way.
export function offsetFrom(samples) {
  let best = null;
  for (const s of samples) {
    const rtt = s.received - s.sent;
    if (!(rtt >= 0) || !Number.isFinite(s.serverTime)) continue;
    if (!best || rtt < best.rtt) best = { rtt, offset: s.serverTime - (s.sent + rtt / 2) };
  }
  return best ? best.offset : 0;
}

// positionAt is the bar the leader plays at server time now: {section, bar, index, until} (index in
// play order, repeats expanded; until, the server time the position changes next), {countIn: beat,
// until} during a count-in, {until} before the start, or null when stopped or past the end. The
// transport says which bar of the play order (from) starts at startedAt, at which tempo; a loop goes
// on from the first bar of the whole order. order is playOrder(content), which a caller asking every
// bar computes once.
export function positionAt(content, transport, now, order = playOrder(content)) {
  if (!content || !transport?.playing) return null;
  const tempo = Number.isInteger(transport.tempo) && transport.tempo > 0 ? transport.tempo : content.tempo || 120;
  const beat = 60000 / tempo;
  const beats = Number.isInteger(content.beatsPerBar) ? content.beatsPerBar : 4;
  let start = transport.startedAt;
  if (now < start) return { until: start };
  if (transport.countIn) {
    const n = Math.floor((now - start) / beat);
    if (n < beats) return { countIn: n + 1, until: start + (n + 1) * beat };
    start += beats * beat;
  }
  const from = Math.max(0, transport.from || 0);
  if (from >= order.length) return null;
  // The first pass runs from `from` to the end; a loop's every later pass is the whole order.
  const first = barsLength(order, from, beat);
  let t = now - start;
  if (t >= first) {
    if (!transport.loop) return null;
    const whole = barsLength(order, 0, beat);
    t -= first;
    start += first + Math.floor(t / whole) * whole;
    t %= whole;
    return walk(order, 0, t, start, beat);
  }
  return walk(order, from, t, start, beat);
}

function barsLength(order, from, beat) {
  let sum = 0;
  for (let i = from; i < order.length; i++) sum += order[i].beats * beat;
  return sum;
}

// walk finds the bar t ms into a pass that began at bar `from` at server time start.
function walk(order, from, t, start, beat) {
  let at = start;
  for (let i = from; i < order.length; i++) {
    const b = order[i];
    const len = b.beats * beat;
    if (t < len) return { section: b.section, bar: b.bar, index: b.index, until: at + len };
    t -= len;
    at += len;
  }
  return null;
}

// transportAt is the transport that holds at server time now, of the last one sent (next) and the one
// before it (previous): a leader that changes tempo or jumps while playing sends the change a little
// before it is heard, at the bar it starts on, and until then the previous one still holds.
export function transportAt(previous, next, now) {
  if (next?.playing && previous?.playing && now < next.startedAt) return previous;
  return next;
}
