// The form of a chart (content schema version 2): repeats, endings, road signs, % and meter changes,
// and the order a band plays the bars in. This is board/form.go's PlayOrder for the page: the player
// follows the draft the user is editing, unsaved changes included, so the order is computed here and
// not asked of the server. Both read the same table of hand-written charts in their tests
// (board/testdata/form/play-order.json), so they cannot drift apart. The server checks the rules;
// here a form that breaks them is played in written order instead.

export const SIMILE = '%';
export const MAX_PLAYED_BARS = 4096;
export const MARKS = ['segno', 'coda', 'fine', 'dc', 'ds', 'dc-al-fine', 'dc-al-coda', 'ds-al-fine', 'ds-al-coda', 'to-coda'];
export const ROLES = ['intro', 'verse', 'prechorus', 'chorus', 'bridge', 'solo', 'interlude', 'outro', 'tag'];

const JUMPS = new Set(['dc', 'ds', 'dc-al-fine', 'dc-al-coda', 'ds-al-fine', 'ds-al-coda']);

// barForm reads a bar as written (an array of chords, or an object) into one shape.
export function barForm(bar) {
  if (Array.isArray(bar)) return { chords: bar, simile: false, durations: null, beats: 0, repeatStart: false, repeatEnd: 0, ending: 0, mark: '' };
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
  };
}

// writeBar is the schema's way of writing a bar: the plain array when it carries chords alone.
export function writeBar(f) {
  const plain = !f.simile && !f.durations && !f.beats && !f.repeatStart && !f.repeatEnd && !f.ending && !f.mark;
  if (plain) return [...f.chords];
  const o = { chords: f.simile ? SIMILE : [...f.chords] };
  if (f.durations) o.durations = [...f.durations];
  if (f.beats) o.beats = f.beats;
  if (f.repeatStart) o.repeatStart = true;
  if (f.repeatEnd) o.repeatEnd = f.repeatEnd;
  if (f.ending) o.ending = f.ending;
  if (f.mark) o.mark = f.mark;
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
  return parts.join(' ');
}

// timedText writes chords with their durations as fast entry reads them: each chord, then a dot for
// each further beat it lasts ("C . . G7" is C for three beats and G7 for one).
export function timedText(chords, durations) {
  return chords.map((c, k) => [c, ...Array(Math.max(0, (durations[k] | 0) - 1)).fill('.')].join(' ')).join(' ');
}

// readForm finds the repeats, endings and signs as board/form.go does, or returns null when the form
// breaks a rule (the server says which).
function readForm(bars, firsts) {
  const groups = [];
  let open = -1;
  let awaitN = 0;
  const endLast = (i) => {
    const g = groups[open];
    if (g.endings.length < 2) return false;
    g.endings.at(-1).last = i - 1;
    open = -1;
    return true;
  };
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i];
    if (i === 0 && b.simile) return null;
    const inEnding = open >= 0 && awaitN === 0 && groups[open].endings.length > 0;
    if (inEnding && (firsts.has(i) || b.repeatStart) && !endLast(i)) return null;
    if (awaitN && b.ending !== awaitN) return null;
    if (b.repeatStart) {
      if (open >= 0) return null;
      groups.push({ start: i, bodyEnd: -1, times: 0, endings: [] });
      open = groups.length - 1;
    }
    if (b.ending) {
      if (awaitN) {
        groups[open].endings.push({ first: i, last: -1 });
        awaitN = 0;
      } else if (open < 0 || groups[open].endings.length || b.ending !== 1) return null;
      else {
        groups[open].bodyEnd = i - 1;
        groups[open].endings.push({ first: i, last: -1 });
      }
    }
    if (b.repeatEnd) {
      if (open < 0) return null;
      const g = groups[open];
      const n = g.endings.length;
      if (n) {
        if (n === 4 || b.repeatEnd !== n + 1) return null;
        g.endings[n - 1].last = i;
        awaitN = n + 1;
      } else {
        g.bodyEnd = i;
        g.times = b.repeatEnd;
        open = -1;
      }
    }
  }
  if (awaitN) return null;
  if (open >= 0 && (!groups[open].endings.length || !endLast(bars.length))) return null;
  const sign = { segno: -1, coda: -1, fine: -1, 'to-coda': -1, jump: -1 };
  for (let i = 0; i < bars.length; i++) {
    const m = bars[i].mark;
    if (!m) continue;
    const k = JUMPS.has(m) ? 'jump' : m;
    if (sign[k] >= 0) return null;
    sign[k] = i;
  }
  const jm = sign.jump >= 0 ? bars[sign.jump].mark : '';
  if (jm.startsWith('ds') && sign.segno < 0) return null;
  if (jm.endsWith('al-coda') && (sign.coda < 0 || sign['to-coda'] < 0)) return null;
  return { groups, segno: sign.segno, coda: sign.coda, fine: sign.fine, toCoda: sign['to-coda'], jump: sign.jump, jm };
}

function regionOf(f, i) {
  for (let gi = 0; gi < f.groups.length; gi++) {
    const g = f.groups[gi];
    if (i < g.start) break;
    if (i <= g.bodyEnd) return { group: gi, ending: 0 };
    for (let n = 0; n < g.endings.length; n++) {
      const e = g.endings[n];
      if (e.first <= i && i <= e.last) return { group: gi, ending: n + 1 };
    }
  }
  return { group: -1, ending: 0 };
}

// expand follows the form (see board/form.go's expand, which this mirrors step by step).
function expand(f, bars) {
  const groupAt = new Map(f.groups.map((g, gi) => [g.start, gi]));
  const pass = f.groups.map(() => 0);
  const order = [];
  let jumped = false;
  let back = false;
  for (let i = 0; i < bars.length;) {
    const bar = bars[i];
    const r = regionOf(f, i);
    if (groupAt.has(i) && !back) pass[groupAt.get(i)] = 1;
    back = false;
    const once = r.group >= 0 && jumped && f.groups[r.group].start <= f.jump;
    if (r.ending > 0 && i === f.groups[r.group].endings[r.ending - 1].first) {
      const g = f.groups[r.group];
      const want = once ? g.endings.length : pass[r.group];
      if (want !== r.ending) {
        if (!g.endings[want - 1]) return null;
        i = g.endings[want - 1].first;
        continue;
      }
    }
    if (order.length === MAX_PLAYED_BARS) return null;
    order.push(i);
    if (jumped && bar.mark === 'fine') return order;
    if (jumped && bar.mark === 'to-coda') {
      i = f.coda;
      continue;
    }
    if (bar.repeatEnd && !once) {
      const g = f.groups[r.group];
      const times = r.ending > 0 ? r.ending + 1 : g.times;
      if (pass[r.group] < times) {
        pass[r.group]++;
        i = g.start;
        back = true;
        continue;
      }
    }
    if (i === f.jump && !jumped) {
      jumped = true;
      i = f.jm.startsWith('ds') ? f.segno : 0;
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
