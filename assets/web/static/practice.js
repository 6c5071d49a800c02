// @ts-check
// What a band practising with the player sets (pure logic, no DOM or audio; node's unit tests import
// it): the practice tempo, moved 5 BPM at a time from the keyboard while the player plays; the bars a
// loop plays (a section or a range of the chart's bars, as the form plays them, every pass); and the
// click's beats, accented on 1.

export const TEMPO_STEP = 5;
export const MIN_TEMPO = 30;
export const MAX_TEMPO = 300;

// nudgeTempo is the tempo delta BPM from tempo (the board's when tempo is not a number), kept within
// what the board allows.
export function nudgeTempo(tempo, delta, boardTempo = 120) {
  const from = Number.isInteger(tempo) ? tempo : Number.isInteger(boardTempo) ? boardTempo : 120;
  return Math.min(MAX_TEMPO, Math.max(MIN_TEMPO, from + delta));
}

// loopBars is the part of a play order (form.js playOrder) a loop over the chart's bars from … to
// (numbers as the chart counts them, from 1) plays: every bar heard in that range, each pass of a
// repeat included. A range that holds no bar, or none given, is the whole order.
export function loopBars(order, range) {
  if (!range) return order;
  const from = Math.min(range.from, range.to);
  const to = Math.max(range.from, range.to);
  const part = order.filter((b) => b.n >= from && b.n <= to);
  return part.length ? part : order;
}

// sectionRanges are the loop's choices by section: {s, from, to} with the chart's bar numbers.
export function sectionRanges(content) {
  const out = [];
  let n = 1;
  (content?.sections || []).forEach((sec, s) => {
    if (sec.bars.length) out.push({ s, from: n, to: n + sec.bars.length - 1 });
    n += sec.bars.length;
  });
  return out;
}

// clickBeats are the clicks of a bar of beats: one a beat, the first accented.
export function clickBeats(beats) {
  return Array.from({ length: beats }, (_, i) => ({ beat: i, accent: i === 0 }));
}
