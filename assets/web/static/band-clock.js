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

// positionAt is the bar the leader plays at server time now: {section, bar, index} (index in play
// order, repeats expanded), {countIn: beat} during a count-in, or null when stopped or past the end.
// order is playOrder(content), which a caller asking every few milliseconds computes once.
export function positionAt(content, transport, now, order = playOrder(content)) {
  if (!content || !transport?.playing) return null;
  const tempo = Number.isInteger(transport.tempo) && transport.tempo > 0 ? transport.tempo : content.tempo || 120;
  const beat = 60000 / tempo;
  const beats = Number.isInteger(content.beatsPerBar) ? content.beatsPerBar : 4;
  let t = now - transport.startedAt;
  if (t < 0) return null;
  if (transport.countIn) {
    if (t < beats * beat) return { countIn: Math.floor(t / beat) + 1 };
    t -= beats * beat;
  }
  const bars = order.slice(Math.max(0, transport.from || 0));
  if (!bars.length) return null;
  const total = bars.reduce((sum, b) => sum + b.beats * beat, 0);
  if (t >= total) {
    if (!transport.loop) return null;
    t %= total;
  }
  for (const b of bars) {
    const len = b.beats * beat;
    if (t < len) return { section: b.section, bar: b.bar, index: b.index };
    t -= len;
  }
  return null;
}
