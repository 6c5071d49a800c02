// @ts-check
// The board page's player and practice controls: play and stop, the count-in, the click, the loop's
// bars (a section, or bars from … to) and the practice tempo (−5/+5 BPM with its buttons, or [ and ]
// anywhere but in a field, heard from the next bar without stopping; the board's tempo is not
// changed). practice.js holds the arithmetic.

import { byId, h, setValue, show } from './dom.js';
import { bindText } from './i18n.js';
import { barCount, sectionName } from './content.js';
import { Player } from './player.js';
import { TEMPO_STEP, nudgeTempo, sectionRanges } from './practice.js';
import { paintPlayedLength } from './played-length.js';

export class PracticePanel {
  /** @param {import('./board-page.js').BoardPage} page */
  constructor(page) {
    this.page = page;
    /** @type {number | null} */
    this.tempo = null; // the practice tempo; null: the board's
    /** @type {Player | null} */
    this.player = null;
    const root = byId('player');
    const play = /** @type {HTMLButtonElement} */ (byId('play'));
    if (!Player.supported()) {
      play.disabled = true;
      bindText(byId('play-pos'), 'player.unsupported');
      return;
    }
    const player = new Player({
      catalogue: page.catalogue,
      getContent: () => page.viewControls.current?.sounding ?? page.draft, // what is shown, in sounding pitch
      getOptions: () => ({
        countIn: checked('count-in'), loop: checked('loop'), click: checked('click'),
        tempo: this.tempo, range: this.loopRange(),
      }),
      onPosition: (/** @type {any} */ pos) => {
        page.view.setCursor(pos);
        page.stage.follow();
        const el = byId('play-pos');
        if (!pos) {
          el.textContent = '';
          delete el.dataset.i18n;
        } else if (pos.countIn) bindText(el, 'player.countingIn', { beat: pos.countIn });
        else bindText(el, 'player.position', { n: pos.n, pass: pos.pass, times: pos.times });
      },
      onState: (/** @type {string} */ state, /** @type {string} */ audio) => {
        root.dataset.state = state;
        root.dataset.audio = audio;
        play.classList.toggle('is-playing', state === 'playing');
        bindText(byId('play-label'), state === 'playing' ? 'player.stop' : 'player.play');
      },
    });
    this.player = player;
    // Only a real gesture (a click, or Enter/Space on the button) starts or stops the player: a click a
    // script synthesizes is not trusted and does nothing.
    play.addEventListener('click', (ev) => {
      if (ev.isTrusted) player.toggle();
    });
    this.setupPractice();
  }

  setupPractice() {
    const loop = /** @type {HTMLInputElement} */ (byId('loop'));
    const section = /** @type {HTMLSelectElement} */ (byId('loop-section'));
    const showRange = () => show(byId('loop-range'), loop.checked);
    loop.addEventListener('change', showRange);
    showRange();
    section.addEventListener('change', () => {
      if (section.value === 'custom') return;
      const draft = /** @type {Content} */ (this.page.draft);
      const r = sectionRanges(draft)[Number(section.value)];
      setValue(byId('loop-from'), r ? r.from : 1);
      setValue(byId('loop-to'), r ? r.to : barCount(draft));
    });
    for (const id of ['loop-from', 'loop-to']) byId(id).addEventListener('change', () => this.paintLoop());
    byId('tempo-down').addEventListener('click', () => this.nudgeTempo(-TEMPO_STEP));
    byId('tempo-up').addEventListener('click', () => this.nudgeTempo(+TEMPO_STEP));
    document.addEventListener('keydown', (ev) => {
      if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || (ev.key !== '[' && ev.key !== ']')) return;
      const target = /** @type {Element | null} */ (ev.target);
      if (document.querySelector('dialog[open]') || target?.closest?.('input, textarea, select, [contenteditable]')) return;
      ev.preventDefault();
      this.nudgeTempo(ev.key === ']' ? TEMPO_STEP : -TEMPO_STEP);
    });
  }

  /** @param {number} delta */
  nudgeTempo(delta) {
    const tempo = this.page.draft?.tempo;
    const next = nudgeTempo(this.tempo ?? tempo, delta, 120);
    this.tempo = next === tempo ? null : next;
    this.paint();
  }

  /**
   * loopRange is the bars the loop plays ({from, to}), or null for the whole chart.
   * @returns {{ from: number, to: number } | null}
   */
  loopRange() {
    const total = barCount(this.page.draft);
    const from = Number(/** @type {HTMLInputElement} */ (byId('loop-from')).value);
    const to = Number(/** @type {HTMLInputElement} */ (byId('loop-to')).value);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < 1) return null;
    if (Math.min(from, to) === 1 && Math.max(from, to) >= total) return null;
    return { from: Math.min(from, to, total), to: Math.min(Math.max(from, to), total) };
  }

  // paint shows the loop's choices (one a section), the tempo the player plays at and the board's played
  // length at that tempo.
  paint() {
    const c = this.page.draft;
    if (!c) return;
    const ranges = sectionRanges(c);
    const section = byId('loop-section');
    const sig = JSON.stringify(ranges.map((r) => [sectionName(c.sections[r.s], r.s), r.from, r.to]));
    if (section.dataset.sig !== sig) {
      section.dataset.sig = sig;
      section.replaceChildren(bindText(h('option', { value: '' }), 'player.loopWhole'),
        ...ranges.map((r, i) => bindText(h('option', { value: String(i) }), 'player.loopSectionOf', { name: sectionName(c.sections[r.s], r.s), from: r.from, to: r.to })),
        bindText(h('option', { value: 'custom' }), 'player.loopCustom'));
    }
    const total = barCount(c);
    const from = /** @type {HTMLInputElement} */ (byId('loop-from'));
    const to = /** @type {HTMLInputElement} */ (byId('loop-to'));
    from.max = to.max = String(total);
    if (!from.value) setValue(from, 1);
    if (!to.value) setValue(to, total);
    this.paintLoop();
    paintPlayedLength(byId('played-length'), c, this.tempo);
    const out = byId('practice-tempo');
    const board = Number.isFinite(c.tempo) ? c.tempo : null;
    if (this.tempo !== null) {
      bindText(out, board ? 'player.tempoPractice' : 'meta.tempo', { tempo: this.tempo, board });
      out.dataset.changed = '';
    } else {
      bindText(out, board ? 'meta.tempo' : 'meta.noTempo', { tempo: board });
      delete out.dataset.changed;
    }
  }

  // paintLoop selects the section the range is, if it is one.
  paintLoop() {
    const r = this.loopRange();
    const i = r ? sectionRanges(this.page.draft).findIndex((x) => x.from === r.from && x.to === r.to) : -1;
    setValue(byId('loop-section'), i >= 0 ? String(i) : r ? 'custom' : '');
  }
}

/** @param {string} id */
const checked = (id) => /** @type {HTMLInputElement} */ (byId(id)).checked;
