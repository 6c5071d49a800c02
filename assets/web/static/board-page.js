// @ts-check
// The board page (/b/<board>): view, edit, play, live.
//
// State: `base` is the last board the server committed that this page knows; `ops` are the user's
// unsaved edits in order; the page shows `draft` = replay(base.content, ops). Saving sends the draft in
// one PUT with If-Match: "<base.revision>". A newer revision (from the stream, or fetched after a 412)
// becomes the new base and the ops are replayed on top of it, so nothing typed is lost.
//
// The page is this state and its drawing; the rest is in modules of one job each: its edit key
// (page-keys.js, capability.js), the save/conflict cycle (save-panel.js, save-cycle.js), editing
// (board-editing.js, edit-ops.js), the player and practice (practice-panel.js). With its key the page
// can undo its own last saved edit, as it can Pi's.
//
// The first drawing of the chart waits for the modules this file imports statically, and for nothing
// else: a browser with nothing cached fetches and compiles each of them before the first bar shows
// (docs/performance.md). The page's other parts (its edit key and saving, editing, the player,
// history, proposals, news, bar selection, export, managing the board) arrive by loadPanels once every
// bar of the first board is drawn; the board stream starts after them, so every event finds its part.

import { boardIdFromPath } from './board-path.js';
import { byId, setValue, show } from './dom.js';
import { bindText, setTitle } from './i18n.js';
import * as api from './api.js';
import { Catalogue } from './chords.js';
import { apply, clone, describeOp, diff } from './content.js';
import { BoardView } from './board-view.js';
import { ViewControls, glyph } from './view-controls.js';
import { keyText } from './notation.js';
import { Stream } from './stream.js';
import { Stage } from './stage.js';
import { paintPlayedLength } from './played-length.js';
import { boardWithBars } from './lyrics-content.js';
import { LyricsStage } from './lyrics-stage.js';
import { LyricsPrint } from './lyrics-print.js';
import { capabilityFor } from './capability.js';
import { arrival, opTouches, rebased } from './save-cycle.js';
import { recordOp } from './edit-ops.js';

/**
 * @typedef {{
 *   BoardEditing: typeof import('./board-editing.js').BoardEditing,
 *   LineEditing: typeof import('./lyrics-edit-page.js').LineEditing,
 *   fillList: typeof import('./save-panel.js').fillList,
 *   announce: typeof import('./notify.js').announce,
 * }} Panels the classes and functions of the parts loadPanels brought that the page calls itself
 */

/**
 * bootBoardPage starts the page and returns it; a chat panel can be added beside #board later
 * without touching what this page renders.
 * first is the board and the catalogue, asked for by app.js before this module was evaluated
 * (api.firstBoard); null when the address names no board.
 * @param {{ fragment: URLSearchParams, first: ReturnType<typeof api.firstBoard> | null }} opts
 */
export async function bootBoardPage({ fragment, first }) {
  const id = boardIdFromPath(location.pathname);
  const page = new BoardPage(id, id ? capabilityFor(id, fragment) : null);
  await page.start(first);
  return page;
}

// PARTS are the page's controls that the parts loadPanels brings answer: the board's fields, the
// player, saving, and the board's links and managing.
const PARTS = ['meta-form', 'player', 'save-bar', 'history-toggle', 'manage'];

/**
 * @param {string[]} ids
 * @param {boolean} inert
 */
function setInert(ids, inert) {
  for (const id of ids) byId(id).inert = inert;
}

export class BoardPage {
  /**
   * @param {string} id
   * @param {string | null} capability
   */
  constructor(id, capability) {
    this.id = id;
    this.cap = capability;
    this.editable = Boolean(capability);
    /** @type {Board | null} */
    this.base = null;
    /** @type {Op[]} */
    this.ops = [];
    /** @type {Content | null} */
    this.draft = null;
    this.saving = false;
    this.inflight = 0; // ops being saved; typing into them after that starts a new op
    /** @type {Board | null} */
    this.pending = null; // a board that arrived during a save
    /** @type {{ server: Board } | null} */
    this.conflict = null; // after a 412
    /** @type {import('./save-cycle.js').EditConflict[]} */
    this.barConflicts = []; // bars, lines and fields both sides changed, waiting for the musician's choice
    /** @type {{ revision: number, before: number } | null} */
    this.ownSave = null; // this page's last save, while Undo can take it back
    /** @type {HTMLElement | null} */
    this.invalid = null; // element marked by a 422
    this.isGone = false; // the board was deleted (board-manage.js)
    /** @type {import('./lyrics-edit-page.js').LineEditing | null} */
    this.lines = null; // the lines' editor, made when first needed (lineEditor)
    this.catalogue = new Catalogue(null);
    this.main = byId('board');
    // The parts loadPanels brings. Until then only the first drawing runs, which asks nothing of them
    // but what it asks with `?.`.
    /** @type {Panels | null} */
    this.panels = null;
    /** @type {import('./page-keys.js').PageKeys | null} */
    this.keys = null;
    /** @type {import('./save-panel.js').SavePanel | null} */
    this.saves = null;
    /** @type {import('./board-editing.js').BoardEditing | null} */
    this.editing = null;
    /** @type {import('./practice-panel.js').PracticePanel | null} */
    this.practice = null;
    /** @type {import('./history-panel.js').HistoryPanel | null} */
    this.history = null;
    /** @type {import('./board-manage.js').BoardManage | null} */
    this.manage = null;
    /** @type {import('./proposals-view.js').ProposalsView | null} */
    this.proposals = null;
    /** @type {ReturnType<typeof import('./export-links.js').setupExportLinks> | null} */
    this.exportLinks = null;
  }

  /** @param {ReturnType<typeof api.firstBoard> | null} first */
  async start(first) {
    setTitle('title.boardLoading');
    if (!this.id || !first) {
      bindText(byId('board-status'), 'board.notFound', { id: location.pathname });
      return;
    }
    const [board, catalogue] = await first;
    if (catalogue.status === 'fulfilled') this.catalogue = new Catalogue(catalogue.value);
    if (board.status === 'rejected' && firstViewShown()) {
      // The page says why it shows no board, where the first view stood.
      byId('grid').replaceChildren();
      firstViewTaken();
      show(byId('board-body'), false);
      show(byId('board-status'), true);
    }
    if (board.status === 'rejected' && board.reason?.status === 404) {
      bindText(byId('board-status'), 'board.notFound', { id: this.id });
      this.main.setAttribute('aria-busy', 'false');
      return;
    }
    this.setup();
    if (board.status === 'fulfilled') this.adopt(board.value);
    else bindText(byId('board-status'), 'board.loadFailed');
    await this.built; // every bar of the first board is drawn (tele:bars-rendered)
    await this.loadPanels();
    // The board stream's events, each its JSON as the server sends it (docs/api.md).
    const events = {
      board: (/** @type {unknown} */ b) => this.adopt(b),
      proposals: (/** @type {any} */ p) => this.proposals.listed(p),
      capability: (/** @type {import('./page-keys.js').CapabilityEvent} */ c) => this.keys.replaced(c),
      deleted: (/** @type {unknown} */ d) => this.manage.deleted(d),
    };
    this.stream = new Stream(api.boardEventsURL(this.id), events, (/** @type {string} */ s, /** @type {{ seconds: number }} */ info) => this.connectionState(s, info));
  }

  // loadPanels brings and starts the page's parts that the first drawing does not need, in the order
  // they place themselves on the page. A page read-only now may be given its key later (a claim, a
  // pairing), so the editing modules come too: applyMode makes the editor then without waiting.
  async loadPanels() {
    try {
      await this.bringPanels();
    } finally {
      setInert(PARTS, false);
    }
  }

  async bringPanels() {
    const [keys, saves, editing, lines, practice, history, manage, notify, proposals, selection, exportLinks] = await Promise.all([
      import('./page-keys.js'), import('./save-panel.js'), import('./board-editing.js'), import('./lyrics-edit-page.js'),
      import('./practice-panel.js'), import('./history-panel.js'), import('./board-manage.js'), import('./notify.js'),
      import('./proposals-view.js'), import('./bar-selection.js'), import('./export-links.js'),
    ]);
    this.panels = { BoardEditing: editing.BoardEditing, LineEditing: lines.LineEditing, fillList: saves.fillList, announce: notify.announce };
    this.keys = new keys.PageKeys(this);
    this.saves = new saves.SavePanel(this);
    if (this.editable) this.editing = new editing.BoardEditing(this);
    this.practice = new practice.PracticePanel(this);
    byId('new-link').addEventListener('click', () => this.keys?.newLink());
    byId('new-link-copy').addEventListener('click', () => keys.copyLink());
    this.history = new history.HistoryPanel(this);
    this.manage = new manage.BoardManage(this);
    new notify.Notifier(() => this.draft?.title || '');
    this.proposals = new proposals.ProposalsView(this, { onNew: () => notify.announce('proposed') });
    new selection.BarSelection(this);
    this.exportLinks = exportLinks.setupExportLinks(this.id, () => this.isGone);
    if (!this.base) return;
    this.history.arrived(this.base, true);
    this.exportLinks.arrived(this.base.revision);
    this.render(); // what the parts paint: the editor's fields, the practice tempo, Undo
    this.saves.updateDirty();
  }

  setup() {
    // Until loadPanels brings what answers them, the controls of the parts take no clicks or typing:
    // a field typed into then would be painted over by the board, and Play would do nothing.
    setInert(PARTS, true);
    // Printing lays out every bar: a first build still in progress draws the rest first (before the
    // stage's own beforeprint, which fits the chords of every bar).
    window.addEventListener('beforeprint', () => this.view.complete());
    this.stage = new Stage();
    this.lyricsStage = new LyricsStage(byId('stage-tools'), byId('grid'), { playing: () => Boolean(this.player?.playing) });
    this.lyricsPrint = new LyricsPrint(byId('grid'));
    this.viewControls = new ViewControls(this.id, {
      editable: this.editable,
      onChange: () => this.draft && this.render(),
      onApply: () => this.editing?.transposeBoard(),
    });
    this.applyMode();
    byId('conn-retry').addEventListener('click', () => this.stream?.connect());
    byId('rebased-close').addEventListener('click', () => show(byId('rebased'), false));
    byId('refused-close').addEventListener('click', () => show(byId('refused'), false));
  }

  // player plays the board (null where the browser cannot: practice-panel.js).
  get player() {
    return this.practice?.player ?? null;
  }

  // applyMode shows the page for editing or reading, as this.editable says; the grid is rebuilt for it.
  applyMode() {
    for (const el of document.querySelectorAll('.edit-only')) show(el, this.editable);
    for (const el of document.querySelectorAll('.view-only')) show(el, !this.editable);
    this.viewControls.setEditable(this.editable);
    const grid = byId('grid');
    this.view?.stop();
    // The server's drawing of the chart for a reader (first-view.js) becomes the page's own.
    const adopt = !this.view && !this.editable && firstViewShown();
    if (!adopt) grid.replaceChildren();
    this.view = new BoardView(grid, {
      editable: this.editable,
      handlers: {
        editBar: (s, b) => this.editing?.openBar(s, b),
        label: (s, value) => this.edit({ t: 'label', s, value }),
        role: (s, value) => this.edit({ t: 'role', s, value }),
        moveSection: (s, delta) => this.editing?.moveSection(s, delta),
        removeSection: (s) => this.editing?.removeSection(s),
        addBar: (s) => this.editing?.addBar(s),
        addSection: () => this.editing?.addSection(),
        duplicateSection: (s) => this.manage?.duplicateSection(s),
        editLine: (s, k) => this.lineEditor().edit(s, k),
        addLine: (s) => this.lineEditor().add(s),
      },
    });
    if (adopt) this.view.adopt();
    if (this.editable && !this.editing && this.panels) this.editing = new this.panels.BoardEditing(this);
    byId('readonly-cmd').textContent = `tele board link ${this.id}`;
    show(byId('readonly-note'), !this.editable);
    if (this.draft) this.render();
  }

  // ---- what other parts of the page ask of it ----

  /**
   * grant makes the page editable with capability (from a chat pairing's answer).
   * @param {unknown} capability
   */
  grant(capability) {
    this.keys.grant(capability);
  }

  save() {
    return this.saves.save();
  }

  startConflict() {
    return this.saves.startConflict();
  }

  /** @param {import('./i18n.js').Entry | null} entry */
  showMessage(entry) {
    this.saves.showMessage(entry);
  }

  /** @param {import('./i18n.js').Entry} entry */
  refuse(entry) {
    this.saves.refuse(entry);
  }

  /** @param {number} n */
  roomFor(n) {
    return Boolean(this.editing?.roomFor(n));
  }

  /**
   * edit applies one op to the draft and records it; false when its place does not exist.
   * @param {Op} op
   */
  edit(op) {
    if (!this.draft || !apply(this.draft, op)) return false;
    recordOp(this.ops, this.inflight, op);
    if (this.invalid && opTouches(op, this.invalid.dataset.path)) this.saves?.clearInvalid();
    this.render();
    this.saves?.updateDirty();
    return true;
  }

  // lineEditor edits a section's lines (lyrics-edit-page.js), made when first needed.
  lineEditor() {
    this.lines ??= new (/** @type {Panels} */ (this.panels)).LineEditing(this);
    return this.lines;
  }

  // ---- rendering ----

  // render shows the draft; first (the first board of the page) draws a large grid over several tasks,
  // this.built settling once every bar is drawn.
  render(first = false) {
    const c = /** @type {Content} */ (this.draft);
    this.saves?.paintUndo();
    setTitle('title.board', { title: c.title });
    if (this.editable) {
      byId('title-sr').textContent = c.title;
      setValue(byId('f-title'), c.title);
      setValue(byId('f-description'), c.description);
      this.editing?.ensureKeyOption(c.key || '');
      setValue(byId('f-key'), c.key || '');
      setValue(byId('f-tempo'), c.tempo);
      setValue(byId('f-beats'), c.beatsPerBar);
    }
    // The read-only head is the page's heading without the edit link, and the chart's heading in stage
    // mode and on paper with it (stage.css, print.css).
    const title = byId('title');
    if (title.textContent !== c.title) title.textContent = c.title;
    // An emptied tempo field is no tempo, in words (the stage and print head show it), never "null BPM".
    if (Number.isFinite(c.tempo)) bindText(byId('meta-tempo'), 'meta.tempo', { tempo: c.tempo });
    else bindText(byId('meta-tempo'), 'meta.noTempo');
    bindText(byId('meta-beats'), 'meta.beats', { beats: c.beatsPerBar });
    const desc = byId('description');
    if (desc.textContent !== (c.description || '')) desc.textContent = c.description || '';
    show(desc, Boolean(c.description));
    // The grid shows the view (transposed, capo shapes or numbers); the board stays as it is. The head
    // names the key of the chords shown, and how the view differs from the board (stage and paper).
    const v = this.viewControls.compute(c);
    const shown = v.shown;
    paintViewHead(c, v, this.viewControls.state);
    if (first) {
      this.built = this.view.build(shown, (/** @type {unknown} */ bars) => this.stage.render(c, bars));
    } else {
      this.view.render(shown);
      this.stage.render(c, this.view.changed);
    }
    this.lyricsStage.render(c);
    this.lyricsPrint.render(c);
    // The practice panel paints the played length at its tempo; without a player, at the board's.
    if (this.practice) this.practice.paint();
    else paintPlayedLength(byId('played-length'), c);
  }

  showBody() {
    show(byId('board-status'), false);
    show(byId('board-body'), true);
    this.main.setAttribute('aria-busy', 'false');
  }

  /**
   * @param {string} state
   * @param {{ seconds: number }} info
   */
  connectionState(state, info) {
    const conn = byId('conn');
    const wasLive = conn.dataset.state === 'live';
    conn.dataset.state = state;
    const key = { live: 'conn.live', offline: 'conn.offline' }[state] || 'conn.connecting';
    bindText(byId('conn-text'), key, state === 'offline' ? { s: info.seconds } : undefined);
    show(byId('conn-retry'), state === 'offline');
    if (state === 'offline') this.manage?.checkGone();
    // The stream says live on every event: list the proposals again only when it comes back (they may
    // have changed while away), never after the board is gone.
    if (state === 'live' && !wasLive && this.base && !this.isGone) this.proposals?.refresh();
  }

  // ---- the server's boards ----

  // adopt takes a board from the server (initial load, stream, or save response order aside).
  /** @param {unknown} arrived */
  adopt(arrived) {
    const board = boardWithBars(arrived);
    if (!board || typeof board.revision !== 'number' || (board.id && board.id !== this.id)) return;
    this.history?.arrived(board, !this.base);
    this.exportLinks?.arrived(board.revision);
    const what = arrival(this, board);
    if (what === 'old') return;
    if (what === 'hold') {
      if (!this.pending || board.revision > this.pending.revision) this.pending = board;
      return;
    }
    if (what === 'conflict') {
      const conflict = /** @type {{server: Board}} */ (this.conflict);
      if (board.revision > conflict.server.revision) {
        conflict.server = board;
        this.saves.showConflict(false);
      }
      return;
    }
    const first = !this.base;
    if (what === 'take') {
      this.base = board;
      this.draft = clone(board.content);
    } else {
      const theirs = diff(/** @type {Board} */ (this.base).content, board.content);
      this.rebase(board);
      bindText(byId('rebased-text'), 'rebased.note', { rev: board.revision });
      this.panels?.fillList(byId('rebased-list'), theirs);
      show(byId('rebased'), true);
    }
    if (first) this.showBody();
    this.render(first);
    // Once every bar of the first board is in the document: the mark the browser benchmarks time the load
    // by, unless the server's first view set it (first-view.js), which the page has now made its own.
    if (first && firstViewShown()) this.built.then(firstViewTaken);
    else if (first) this.built.then(() => performance.mark('tele:bars-rendered'));
    this.saves?.updateDirty();
    // The open proposals are listed once the stream is live (connectionState): whatever changes after
    // that comes as its events. A board that first arrives on a live stream lists them here.
    if (first && byId('conn').dataset.state === 'live') this.proposals?.refresh();
    else if (!first) this.proposals?.boardChanged();
    if (!first && board.author === 'pi' && !board.proposal) this.panels?.announce('edited'); // an accepted proposal is a musician's doing
  }

  /**
   * rebase makes board the base and replays the user's ops on it; ops that no longer fit are shown,
   * and the edits both sides made differently are the musician's to choose.
   * @param {Board} board
   */
  rebase(board) {
    const before = this.draft; // the draft the ops were made on names their sections
    const r = rebased(/** @type {Board} */ (this.base).content, board.content, this.ops, this.barConflicts);
    this.ops = r.ops;
    this.base = board;
    this.draft = r.draft;
    if (r.conflicts) this.saves.showConflicts(r.conflicts);
    if (r.dropped.length) {
      this.panels?.fillList(byId('dropped-list'), r.dropped.map((op) => describeOp(op, before)));
      show(byId('dropped'), true);
    }
  }
}

// firstViewShown: the page shows the chart the server drew into its grid (first-view.js).
function firstViewShown() {
  return document.documentElement.dataset.firstView === 'shown';
}

// firstViewTaken ends the first view: the page has made the server's drawing its own, and shows the
// words it has written and translated around it (app.css).
function firstViewTaken() {
  delete document.documentElement.dataset.firstView;
}

// paintViewHead writes the head's key as the chords are shown (a transposed view's key, a capo's
// shapes) and, beside it, what the view changes: "Capo 3 (sounds in Gm)", "Transposed from Gm",
// "Numbers". A printout or the stage then says which key its chords are in.
/**
 * @param {Content} c
 * @param {ReturnType<ViewControls['compute']>} v
 * @param {ViewControls['state']} state
 */
function paintViewHead(c, v, state) {
  const numbers = state.numbers && !v.needsKey;
  const key = !c.key ? '' : numbers ? c.key : state.capo || v.instrument ? v.shapesKey : v.soundingKey;
  if (key) bindText(byId('meta-key'), 'meta.key', { key: keyText(key) });
  else bindText(byId('meta-key'), 'meta.noKey');
  const params = {
    capo: numbers ? 0 : state.capo,
    instrument: v.instrument ? glyph(v.instrument) : '',
    sounds: c.key && (state.capo || v.instrument) && !numbers ? keyText(v.soundingKey) : '',
    from: c.key && v.semitones && !numbers ? keyText(c.key) : '',
    n: !c.key && v.semitones && !numbers ? (v.semitones > 0 ? `+${v.semitones}` : String(v.semitones)) : '',
    numbers,
  };
  const el = byId('meta-view');
  const any = params.capo || params.instrument || params.from || params.n || numbers;
  if (any) bindText(el, 'meta.view', params);
  show(el, Boolean(any));
}
