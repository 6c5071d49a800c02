// @ts-check
// Beat positions as a musician types them (content schema version 3): "C . . G7" is C for three beats
// and G7 for one, each dot (or a lone slash) a beat more of the chord before, as ChordPro grids write
// it. readTimed and rhythmsFor are pure (node's unit tests import them); the server checks the rules.

import { timedText } from './form.js';

// MAX_RHYTHMS bounds the picker's list; any other rhythm can still be typed with dots.
const MAX_RHYTHMS = 24;

// readTimed splits typed text into its chords' text (dots left out) and each chord's beats: counts is
// null when no dot was typed (the chords share the bar evenly); lead is true when a dot comes before
// the first chord, which goes on with nothing.
export function readTimed(text) {
  const tokens = String(text || '').split(/[\s,|]+/).filter(Boolean);
  const chords = [];
  const counts = [];
  let dots = false;
  let lead = false;
  for (const tok of tokens) {
    if (tok === '.' || tok === '/' || /^\.+$/.test(tok)) {
      dots = true;
      if (!counts.length) lead = true;
      else counts[counts.length - 1] += tok === '/' ? 1 : tok.length;
      continue;
    }
    chords.push(tok);
    counts.push(1);
  }
  return { text: chords.join(' '), counts: dots ? counts : null, lead };
}

// durationsOf is what a bar stores for counts in a bar of beats beats: null for an even share (no
// durations say the same), the counts otherwise.
export function durationsOf(counts, beats) {
  if (!counts || counts.length < 2) return null;
  const even = counts.every((c) => c === counts[0]) && counts[0] * counts.length === beats;
  return even ? null : [...counts];
}

// rhythmsFor lists the uneven rhythms n chords can have in a bar of beats beats (each chord a whole
// beat or more), the ones with the longest first chord first: for two chords in 4/4, 3+1 and 1+3; for
// three, 2+1+1, 1+2+1 and 1+1+2.
export function rhythmsFor(n, beats) {
  const out = [];
  const walk = (left, parts) => {
    if (out.length >= MAX_RHYTHMS) return;
    if (parts.length === n - 1) {
      if (left >= 1) out.push([...parts, left]);
      return;
    }
    for (let d = left - (n - 1 - parts.length); d >= 1; d--) walk(left - d, [...parts, d]);
  };
  if (n >= 2 && beats >= n) walk(beats, []);
  return out.filter((r) => durationsOf(r, beats));
}

// withRhythm is the text of chords with the rhythm durations (null: even), as typed in the editor.
export function withRhythm(chords, durations) {
  return durations ? timedText(chords, durations) : chords.join(' ');
}
