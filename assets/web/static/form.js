// @ts-check
// The form of a chart (content schema versions 2 to 4): repeats, endings, road signs, % and meter changes,
// and the order a band plays the bars in. This is board/form.go's PlayOrder for the page: the player
// follows the draft the user is editing, unsaved changes included, so the order is computed here and
// not asked of the server. Both read the same table of hand-written charts in their tests
// (board/formtable/play-order.json), so they cannot drift apart. The server checks the rules;
// here a form that breaks them is played in written order instead.

export const SIMILE = '%';
export const MAX_PLAYED_BARS = 4096;
export const MARKS = ['segno', 'coda', 'fine', 'dc', 'ds', 'dc-al-fine', 'dc-al-coda', 'ds-al-fine', 'ds-al-coda', 'to-coda'];
export const ROLES = ['intro', 'verse', 'prechorus', 'chorus', 'bridge', 'solo', 'interlude', 'outro', 'tag'];

const JUMPS = new Set(['dc', 'ds', 'dc-al-fine', 'dc-al-coda', 'ds-al-fine', 'ds-al-coda']);

// barForm reads a bar as written (an array of chords, or an object) into one shape.
export function barForm(bar) {
  if (Array.isArray(bar)) return { chords: bar, simile: false, durations: null, beats: 0, repeatStart: false, repeatEnd: 0, ending: 0, mark: '', toCoda: false };
  const o = bar || {};
  const simile = o.chords === SIMILE;
  return {
    chords: simile ? [] : Array.isArray(o.chords) ? o.chords : [],
    simile,
    durations: Array.isArray(o.durations) ? o.durations : null,
    beats: o.beats | 0,
    repeatStart: o.repeatStart === true,
    repeatEnd: o.repeatEnd | 0,
    ending: o.ending | 0,
    mark: MARKS.includes(o.mark) ? o.mark : '',
    toCoda: o.toCoda === true, // To Coda beside the bar's own sign (content schema version 3)
  };
}

// writeBar is the schema's way of writing a bar: the plain array when it carries chords alone.
export function writeBar(f) {
  const plain = !f.simile && !f.durations && !f.beats && !f.repeatStart && !f.repeatEnd && !f.ending && !f.mark && !f.toCoda;
  if (plain) return [...f.chords];
  const o = { chords: f.simile ? SIMILE : [...f.chords] };
  if (f.durations) o.durations = [...f.durations];
  if (f.beats) o.beats = f.beats;
  if (f.repeatStart) o.repeatStart = true;
  if (f.repeatEnd) o.repeatEnd = f.repeatEnd;
  if (f.ending) o.ending = f.ending;
  if (f.mark) o.mark = f.mark;
  if (f.toCoda) o.toCoda = true;
  return o;
}

// mapChords is the bar, written the same way (array or object), with each chord symbol mapped by fn (a
// transposition, a number); a % bar stays as it is.
export function mapChords(bar, fn) {
  if (Array.isArray(bar)) return bar.map(fn);
  if (bar && Array.isArray(bar.chords)) return { ...bar, chords: bar.chords.map(fn) };
  return bar;
}

// withChords is the bar with other chords and the same form (no longer a %). Its durations are kept
// while there is one for each chord, and dropped (an even share) when the count changes.
export function withChords(bar, chords) {
  if (Array.isArray(bar) || !bar) return [...chords];
  const f = barForm(bar);
  const durations = f.durations && f.durations.length === chords.length ? f.durations : null;
  return writeBar({ ...f, chords: [...chords], simile: false, durations });
}

// rhythm is how many beats each chord of a bar of beats beats lasts: its durations when they fit (one
// whole number per chord, adding up to beats), otherwise an even share (board.Rhythm).
export function rhythm(chords, durations, beats) {
  if (Array.isArray(durations) && durations.length === chords.length && durations.every((d) => Number.isInteger(d) && d >= 1)
    && durations.reduce((a, d) => a + d, 0) === beats) return [...durations];
  return chords.map(() => beats / chords.length);
}

// barText is a bar as text, form included ("|: Am7 D7 :|×2", "[1] %", "C (segno)"), for change lists.
export function barText(bar) {
  const f = barForm(bar);
  const parts = [];
  if (f.repeatStart) parts.push('|:');
  if (f.ending) parts.push(`[${f.ending}]`);
  parts.push(f.simile ? SIMILE : f.durations ? timedText(f.chords, f.durations) : f.chords.join(' '));
  if (f.beats) parts.push(`(${f.beats})`);
  if (f.repeatEnd) parts.push(`:|×${f.repeatEnd}`);
  if (f.mark) parts.push(`(${f.mark})`);
  if (f.toCoda) parts.push('(to-coda)');
  return parts.join(' ');
}

// timedText writes chords with their durations as fast entry reads them: each chord, then a dot for
// each further beat it lasts ("C . . G7" is C for three beats and G7 for one).
export function timedText(chords, durations) {
  return chords.map((c, k) => [c, ...Array(Math.max(0, (durations[k] | 0) - 1)).fill('.')].join(' ')).join(' ');
}

// readForm finds the repeats, endings and signs as board/form.go does (form_repeats.go's reader, bar by
// bar), or returns null when the form breaks a rule (the server says which).
function readForm(bars, firsts) {
  const groups = [];
  const st = { open: -1, inner: -1, awaitN: 0, closing: 0, ended: -1, taken: -1 };
  const inEnding = () => (st.open < 0 || st.awaitN ? 0 : groups[st.open].endings.length);
  const endLast = (i) => {
    const g = groups[st.open];
    if (g.endings.length < 2) return false;
    g.endings.at(-1).last = i - 1;
    st.ended = st.open;
    st.open = -1;
    return true;
  };
  // closesAhead: an end repeat comes at or after bar i before another repeat or ending starts.
  const closesAhead = (i) => {
    for (let k = i; k < bars.length; k++) {
      if (k > i && (bars[k].repeatStart || bars[k].ending)) return false;
      if (bars[k].repeatEnd) return true;
    }
    return false;
  };
  // closesPlain: the repeat starting at bar i, inside the open one, is a vamp in it.
  const closesPlain = (i) => {
    let k = i;
    for (; k < bars.length && !bars[k].repeatEnd; k++) {
      if (bars[k].ending || (k > i && (bars[k].repeatStart || firsts.has(k)))) return false;
    }
    if (k === bars.length || bars[k].ending) return false;
    for (k++; k < bars.length && !bars[k].repeatStart; k++) if (bars[k].repeatEnd) return true;
    return false;
  };
  const implicitLast = () => {
    groups[st.open].endings.push({ first: st.closing + 1, last: st.closing });
    st.open = -1;
    st.awaitN = 0;
    st.ended = -1;
  };
  const byJump = (i, gi, n) => {
    if (gi < 0 || n !== groups[gi].endings.length + 1 || n < 2) return false;
    groups[gi].endings.push({ first: i, last: -1 });
    groups[gi].byJump = true;
    st.open = gi;
    st.ended = -1;
    return true;
  };
  const step = (i) => {
    const b = bars[i];
    if (i === 0 && b.simile) return false;
    const n = inEnding();
    if (n && st.inner < 0 && (firsts.has(i) || b.repeatStart)) {
      const crosses = !b.repeatStart && closesAhead(i);
      const vamp = n === 1 && !firsts.has(i) && closesPlain(i);
      if (!crosses && !vamp && !endLast(i)) return false;
    }
    if (st.awaitN) {
      if (b.ending === st.awaitN) {
        groups[st.open].endings.push({ first: i, last: -1 });
        st.awaitN = 0;
        st.taken = i;
      } else if (b.ending) return false;
      else implicitLast();
    }
    if (b.repeatStart) {
      if (st.open >= 0 && st.inner < 0 && closesPlain(i)) {
        groups.push({ start: i, bodyEnd: -1, times: 0, endings: [], outer: st.open });
        st.inner = groups.length - 1;
      } else if (st.open >= 0) return false;
      else {
        groups.push({ start: i, bodyEnd: -1, times: 0, endings: [], outer: -1 });
        st.open = groups.length - 1;
        st.ended = -1;
      }
    }
    if (b.ending && i !== st.taken) {
      if (st.inner >= 0) return false;
      if (st.open < 0) {
        if (!byJump(i, st.ended, b.ending)) return false;
      } else {
        const g = groups[st.open];
        const k = g.endings.length;
        if (k && b.ending === k + 1 && k >= 2) {
          g.endings[k - 1].last = i - 1;
          byJump(i, st.open, b.ending);
        } else if (k || b.ending !== 1) return false;
        else {
          g.bodyEnd = i - 1;
          g.endings.push({ first: i, last: -1 });
        }
      }
    }
    if (b.repeatEnd) {
      if (st.inner >= 0) {
        Object.assign(groups[st.inner], { bodyEnd: i, times: b.repeatEnd });
        st.inner = -1;
        return true;
      }
      if (st.open < 0) return false;
      const g = groups[st.open];
      const k = g.endings.length;
      if (!k) {
        g.bodyEnd = i;
        g.times = b.repeatEnd;
        st.open = -1;
      } else {
        if (g.byJump || k === 4 || b.repeatEnd !== k + 1) return false;
        g.endings[k - 1].last = i;
        st.awaitN = k + 1;
        st.closing = i;
      }
    }
    return true;
  };
  for (let i = 0; i < bars.length; i++) if (!step(i)) return null;
  if (st.inner >= 0) return null;
  if (st.awaitN) implicitLast();
  else if (st.open >= 0 && (!groups[st.open].endings.length || !endLast(bars.length))) return null;
  return readSigns(bars, groups);
}

// readSigns places the signs and, for each repeat, the ending taken after the jump (form_signs.go): at
// most two jumps and two Fines (content schema version 4), one of each other sign.
function readSigns(bars, groups) {
  const sign = { segno: -1, coda: -1, 'to-coda': -1 };
  const jumps = [];
  const fines = [];
  for (let i = 0; i < bars.length; i++) {
    const m = bars[i].mark;
    if (!m) continue;
    if (JUMPS.has(m)) {
      if (jumps.length === 2) return null;
      jumps.push(i);
    } else if (m === 'fine') {
      if (fines.length === 2) return null;
      fines.push(i);
    } else {
      if (sign[m] >= 0) return null;
      sign[m] = i;
    }
  }
  for (let i = 0; i < bars.length; i++) {
    if (!bars[i].toCoda) continue;
    if (sign['to-coda'] >= 0 || !bars[i].mark || bars[i].mark === 'to-coda' || bars[i].mark === 'coda') return null;
    sign['to-coda'] = i;
  }
  const marks = jumps.map((j) => bars[j].mark);
  if (marks.some((jm) => jm.startsWith('ds')) && sign.segno < 0) return null;
  if (marks.some((jm) => jm.endsWith('al-coda')) && (sign.coda < 0 || sign['to-coda'] < 0)) return null;
  const jump = jumps.length ? jumps[0] : -1;
  const f = { groups, segno: sign.segno, coda: sign.coda, fines, toCoda: sign['to-coda'], jump, jumps, jm: marks[0] || '' };
  for (const g of groups) g.afterJump = g.endings.length - 1;
  const alFine = marks.some((jm) => jm.endsWith('al-fine'));
  const alCoda = marks.some((jm) => jm.endsWith('al-coda'));
  for (const i of [...(alFine ? fines : []), alCoda ? f.toCoda : -1]) {
    const r = i >= 0 ? regionOf(f, i) : { group: -1 };
    if (r.group >= 0 && r.ending > 0 && !groups[r.group].byJump) groups[r.group].afterJump = r.ending - 1;
  }
  return f;
}

// regionOf says where bar i lies, in the outermost repeat that holds it.
function regionOf(f, i) {
  for (let gi = 0; gi < f.groups.length; gi++) {
    const g = f.groups[gi];
    if (i < g.start) break;
    if (g.outer >= 0) continue;
    if (i <= g.bodyEnd) return { group: gi, ending: 0 };
    for (let n = 0; n < g.endings.length; n++) {
      const e = g.endings[n];
      if (e.first <= i && i <= e.last) return { group: gi, ending: n + 1 };
    }
  }
  return { group: -1, ending: 0 };
}

// expand follows the form (see board/form_play.go's player, which this mirrors step by step).
function expand(f, bars) {
  const n = bars.length;
  const groupAt = new Map();
  const closer = new Map();
  const endAt = new Map(); // bar → [group, ending number]
  f.groups.forEach((g, gi) => {
    groupAt.set(g.start, gi);
    if (g.times > 0) closer.set(g.bodyEnd, gi);
    g.endings.forEach((e, k) => {
      if (e.first > e.last) return;
      endAt.set(e.first, [gi, k + 1]);
      if (bars[e.last].repeatEnd) closer.set(e.last, gi);
    });
  });
  const pass = f.groups.map(() => 0);
  const order = [];
  // taken: how often each jump has been taken; following: the jump whose journey the band is on (-1
  // none); lastJump: the furthest jump taken, the repeats up to it have been played.
  const taken = f.jumps.map(() => 0);
  let following = -1;
  let lastJump = -1;
  let back = false;
  const once = (gi) => f.groups[gi].start <= lastJump;
  const allTaken = () => taken.length > 0 && taken.every((t) => t > 0);
  const targetOf = (j) => (bars[j].mark.startsWith('ds') ? f.segno : 0);
  const fineBetween = (from, to) => f.fines.some((i) => from <= i && i <= to);
  // jumpAt: the jump at bar i the band takes now, -1 when it plays on (form_play.go's jumpAt).
  const jumpAt = (i) => f.jumps.findIndex((j, k) => j === i && (taken[k] === 0
    || (taken[k] === 1 && f.jumps.length === 2 && allTaken() && bars[j].mark.endsWith('al-fine') && fineBetween(targetOf(j), j))));
  for (let i = 0; i < n;) {
    const bar = bars[i];
    if (groupAt.has(i) && !back) pass[groupAt.get(i)] = 1;
    back = false;
    if (endAt.has(i)) {
      const [gi, k] = endAt.get(i);
      const g = f.groups[gi];
      const want = once(gi) ? g.afterJump + 1 : pass[gi];
      if (want !== k) {
        if (!g.endings[want - 1]) return null;
        i = g.endings[want - 1].first;
        continue;
      }
    }
    if (order.length === MAX_PLAYED_BARS) return null;
    order.push(i);
    const jm = following >= 0 ? bars[f.jumps[following]].mark : '';
    if (bar.mark === 'fine' && !jm.endsWith('al-coda')) {
      if (allTaken()) return order;
      if (jm.endsWith('al-fine')) {
        i = f.jumps[following] + 1; // the head is over: on to what follows the jump (the solos)
        following = -1;
        continue;
      }
    }
    if ((bar.mark === 'to-coda' || bar.toCoda) && jm.endsWith('al-coda')) {
      following = -1;
      i = f.coda;
      continue;
    }
    const gi = closer.has(i) ? closer.get(i) : -1;
    if (gi >= 0 && !once(gi) && pass[gi] < bar.repeatEnd) {
      pass[gi]++;
      i = f.groups[gi].start;
      back = true;
      continue;
    }
    const k = jumpAt(i);
    if (k >= 0) {
      taken[k]++;
      following = k;
      lastJump = Math.max(lastJump, i);
      i = targetOf(i);
      continue;
    }
    i++;
  }
  return order;
}

// read reads content's bars in written order: their forms, their places in the grid and the form they
// make (null when it breaks a rule).
function read(content) {
  const bars = [];
  const places = [];
  const firsts = new Set();
  (content?.sections || []).forEach((s, si) => {
    firsts.add(bars.length);
    (s.bars || []).forEach((raw, bi) => {
      bars.push(barForm(raw));
      places.push({ section: si, bar: bi });
    });
  });
  firsts.delete(0);
  return { bars, places, f: readForm(bars, firsts) };
}

// endingSpans says for each section's bars which ending each is in (1–4, or 0): an ending runs from its
// bar marked with the number to its end repeat, or for the last ending to the end of its section or the
// next repeat, so a volta bracket spans every bar of it. A form that breaks the rules gives each ending
// its marked bar only.
export function endingSpans(content) {
  const { bars, places, f } = read(content);
  const out = (content?.sections || []).map((s) => (s.bars || []).map(() => 0));
  bars.forEach((b, i) => {
    if (b.ending) out[places[i].section][places[i].bar] = b.ending;
  });
  for (const g of f?.groups || []) {
    g.endings.forEach((e, n) => {
      for (let i = e.first; i <= e.last; i++) out[places[i].section][places[i].bar] = n + 1;
    });
  }
  return out;
}

// jumpEndings says for each section's bars which ending a plain D.C. or D.S. leads to (content schema
// version 3: the ending right after it, reached only by the jump), or 0, so the grid writes "D.C. al 3rd
// ending" as charts do.
export function jumpEndings(content) {
  const { places, f } = read(content);
  const out = (content?.sections || []).map((s) => (s.bars || []).map(() => 0));
  for (const g of f?.groups || []) {
    if (g.byJump && f.jump >= 0 && f.jump === g.endings.at(-1).first - 1) out[places[f.jump].section][places[f.jump].bar] = g.endings.length;
  }
  return out;
}

// playOrder lists the bars of content in the order they are played, each with its place in the grid,
// the chords heard (% followed back to the bar it repeats) and its beats. A form that breaks the rules
// is played in written order.
export function playOrder(content) {
  const { bars, places, f } = read(content);
  let order = f && expand(f, bars);
  if (!order) order = bars.map((_, i) => i);
  const beatsPerBar = Number.isInteger(content?.beatsPerBar) ? content.beatsPerBar : 4;
  // n is the bar's number on the chart (written order, from 1); pass, which time it is heard (a musician
  // reads "bar 1, 2nd time", not the 13th bar played); times, how often it is heard in all.
  const times = new Map();
  for (const i of order) times.set(i, (times.get(i) || 0) + 1);
  const heard = new Map();
  return order.map((i, index) => {
    let k = i;
    while (k > 0 && bars[k].simile) k--;
    heard.set(i, (heard.get(i) || 0) + 1);
    const beats = bars[i].beats || beatsPerBar;
    return { ...places[i], index, n: i + 1, pass: heard.get(i), times: times.get(i), chords: bars[k].chords, beats,
      rhythm: rhythm(bars[k].chords, bars[k].durations, beats) };
  });
}
