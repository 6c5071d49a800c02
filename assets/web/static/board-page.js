// The board page (/b/<board>): view, edit, play, live.
//
// State: `base` is the last board the server committed that this page knows; `ops` are the user's
// unsaved edits in order; the page shows `draft` = replay(base.content, ops). Saving sends the draft in
// one PUT with If-Match: "<base.revision>". A newer revision (from the stream, or fetched after a 412)
// becomes the new base and the ops are replayed on top of it, so nothing typed is lost.
//
// The capability comes from the #cap= fragment (already erased by app.js), from the answer of a chat
// pairing (grant), or from this tab's sessionStorage (after a reload, or put there by the list page
// from this device's key ring, keyring.js: the boards this browser made or opened with their edit
// link, which an edit link's key joins here). It is never written to a URL. The page switches between editing and read-only as it gains or loses it. With its key the page
// can undo its own last saved edit, as it can Pi's.

import { boardIdFromPath } from './board-path.js';
import { byId, h, setValue, show } from './dom.js';
import { bindText, setTitle } from './i18n.js';
import * as api from './api.js';
import { Catalogue, NO_CHORD } from './chords.js';
import { MAX_BARS, apply, barConflicts, barCount, clone, describeOp, diff, nextLabel, pathCandidates, replay, ruleEntry, sameTarget, sectionName } from './content.js';
import { BoardView } from './board-view.js';
import { BarDialog } from './bar-dialog.js';
import { ViewControls, glyph } from './view-controls.js';
import { keyText } from './notation.js';
import { FastEntry, parsePaste } from './fast-entry.js';
import { Player, flatten } from './player.js';
import { TEMPO_STEP, nudgeTempo, sectionRanges } from './practice.js';
import { Stream } from './stream.js';
import { read, remove, write } from './storage.js';
import { HistoryPanel } from './history-panel.js';
import { barForm } from './form.js';
import { barLine } from './form-view.js';
import { BoardManage } from './board-manage.js';
import { Stage } from './stage.js';
import { paintPlayedLength } from './played-length.js';
import { boardWithBars, forSave } from './lyrics-content.js';
import { LyricsStage } from './lyrics-stage.js';
import { LyricsPrint } from './lyrics-print.js';
import { LineEditing } from './lyrics-edit-page.js';
import { setupExportLinks } from './export-links.js';
import { forget, keep, keyFor } from './keyring.js';
import { claimLink, linkFailed } from './link-box.js';
import { ProposalsView } from './proposals-view.js';
import { Notifier, announce } from './notify.js';
import { BarSelection } from './bar-selection.js';

const capKey = (id) => `tele.cap:${id}`;
const MAX_LISTED = 8;

function capabilityFor(id, fragment) {
  const fromFragment = fragment.get('cap');
  if (fromFragment) {
    write('session', capKey(id), fromFragment);
    keep(id, fromFragment);
    return fromFragment;
  }
  return read('session', capKey(id));
}

// bootBoardPage starts the page and returns it; a chat panel can be added beside #board later
// without touching what this page renders.
export async function bootBoardPage({ fragment }) {
  const id = boardIdFromPath(location.pathname);
  const page = new BoardPage(id, id ? capabilityFor(id, fragment) : null);
  await page.start();
  return page;
}

class BoardPage {
  constructor(id, capability) {
    this.id = id;
    this.cap = capability;
    this.editable = Boolean(capability);
    this.base = null;
    this.ops = [];
    this.draft = null;
    this.saving = false;
    this.inflight = 0; // ops being saved; typing into them after that starts a new op
    this.pending = null; // a board that arrived during a save
    this.conflict = null; // {server} after a 412
    this.invalid = null; // element marked by a 422
    this.catalogue = new Catalogue(null);
    this.main = byId('board');
  }

  async start() {
    setTitle('title.boardLoading');
    if (!this.id) {
      bindText(byId('board-status'), 'board.notFound', { id: location.pathname });
      return;
    }
    const [board, catalogue] = await Promise.allSettled([api.getBoard(this.id), api.getCatalogue()]);
    if (catalogue.status === 'fulfilled') this.catalogue = new Catalogue(catalogue.value);
    if (board.status === 'rejected' && board.reason?.status === 404) {
      bindText(byId('board-status'), 'board.notFound', { id: this.id });
      this.main.setAttribute('aria-busy', 'false');
      return;
    }
    this.setup();
    if (board.status === 'fulfilled') this.adopt(board.value);
    else bindText(byId('board-status'), 'board.loadFailed');
    const events = { board: (b) => this.adopt(b), proposals: (p) => this.proposals.listed(p), capability: (c) => this.capabilityReplaced(c), deleted: (d) => this.manage.deleted(d) };
    this.stream = new Stream(api.boardEventsURL(this.id), events, (s, info) => this.connectionState(s, info));
    await this.built; // the page is ready once every bar of its first board is drawn
  }

  setup() {
    // Printing lays out every bar: a first build still in progress draws the rest first (before the
    // stage's own beforeprint, which fits the chords of every bar).
    window.addEventListener('beforeprint', () => this.view.complete());
    this.stage = new Stage();
    this.lyricsStage = new LyricsStage(byId('stage-tools'), byId('grid'), { playing: () => Boolean(this.player?.playing) });
    this.lyricsPrint = new LyricsPrint(byId('grid'));
    this.viewControls = new ViewControls(this.id, {
      editable: this.editable,
      onChange: () => this.draft && this.render(),
      onApply: () => this.transposeBoard(),
    });
    this.applyMode();
    this.setupPlayer();
    byId('conn-retry').addEventListener('click', () => this.stream?.connect());
    byId('rebased-close').addEventListener('click', () => show(byId('rebased'), false));
    byId('refused-close').addEventListener('click', () => show(byId('refused'), false));
    byId('new-link').addEventListener('click', () => this.newLink());
    byId('new-link-copy').addEventListener('click', () => copyLink());
    this.history = new HistoryPanel(this);
    this.manage = new BoardManage(this);
    this.notifier = new Notifier(() => this.draft?.title || '');
    this.proposals = new ProposalsView(this, { onNew: () => announce('proposed') });
    this.selection = new BarSelection(this);
    this.exportLinks = setupExportLinks(this.id);
  }

  // applyMode shows the page for editing or reading, as this.editable says; the grid is rebuilt for it.
  applyMode() {
    for (const el of document.querySelectorAll('.edit-only')) show(el, this.editable);
    for (const el of document.querySelectorAll('.view-only')) show(el, !this.editable);
    this.viewControls.setEditable(this.editable);
    const grid = byId('grid');
    this.view?.stop();
    grid.replaceChildren();
    this.view = new BoardView(grid, {
      editable: this.editable,
      handlers: {
        editBar: (s, b) => this.openBar(s, b),
        label: (s, value) => this.edit({ t: 'label', s, value }),
        role: (s, value) => this.edit({ t: 'role', s, value }),
        moveSection: (s, delta) => this.moveSection(s, delta),
        removeSection: (s) => this.removeSection(s),
        addBar: (s) => this.addBar(s),
        addSection: () => this.addSection(),
        duplicateSection: (s) => this.manage.duplicateSection(s),
        editLine: (s, k) => this.lineEditor().edit(s, k),
        addLine: (s) => this.lineEditor().add(s),
      },
    });
    if (this.editable && !this.editingReady) {
      this.setupEditing();
      this.editingReady = true;
    }
    byId('readonly-cmd').textContent = `tele board link ${this.id}`;
    show(byId('readonly-note'), !this.editable);
    if (this.draft) this.render();
  }

  // grant makes the page editable with capability (from a chat pairing's answer).
  grant(capability) {
    if (typeof capability !== 'string' || !capability || capability === this.cap) return;
    write('session', capKey(this.id), capability);
    this.cap = capability;
    this.showMessage(null);
    if (this.editable) return;
    this.editable = true;
    if (this.view) this.applyMode();
  }

  // ---- a new edit link (the capability replaced) ----

  // newLink replaces the board's capability; this page keeps editing with the new one and shows the
  // new link to share. Every other page with the old one falls back to reading (capabilityReplaced).
  async newLink() {
    if (!this.editable || !this.cap) return;
    const button = byId('new-link');
    button.disabled = true;
    this.showMessage(null);
    this.rotating = true; // the event of this very rotation may come before the answer: hold it
    try {
      const res = await api.rotateCapability(this.id, this.cap);
      if (typeof res?.capability !== 'string' || !res.capability) throw new Error('no capability in the answer');
      const old = this.cap;
      this.cap = res.capability;
      write('session', capKey(this.id), this.cap);
      if (keyFor(this.id) === old) keep(this.id, this.cap); // the ring's key is this page's: keep the new one
      byId('new-link-status').textContent = '';
      // The link shown carries a one-time code, never the new key (a browser keeps what it opens).
      byId('new-link-url').value = await claimLink(this.id, this.cap).catch((err) => {
        bindText(byId('new-link-status'), ...linkFailed(err));
        return '';
      });
      show(byId('new-link-panel'), true);
    } catch (err) {
      if (err.status === 401 || err.status === 403) this.revokeKey();
      else this.showMessage(['cap.failed', { message: err.message }]);
    } finally {
      button.disabled = false;
      this.rotating = false;
      const held = this.heldEvent;
      this.heldEvent = null;
      if (held) this.capabilityReplaced(held);
    }
  }

  // capabilityReplaced handles the stream's `capability` event: when the new key is not the one this
  // page holds, the page can no longer save and says why.
  async capabilityReplaced(event) {
    if (!this.cap || !event || event.id !== this.id) return;
    if (this.rotating) {
      this.heldEvent = event;
      return;
    }
    const held = this.cap;
    if ((await fingerprint(held)) === event.fingerprint || this.cap !== held) return;
    this.revokeKey();
  }

  // revokeKey drops a capability that no longer works: the page becomes read-only and says why. Unsaved
  // changes cannot be saved any more; the board shows the last saved revision.
  revokeKey() {
    remove('session', capKey(this.id));
    if (this.cap) forget(this.id, this.cap);
    this.cap = null;
    show(byId('new-link-panel'), false);
    byId('new-link-url').value = '';
    if (this.editable) {
      this.editable = false;
      this.ops = [];
      this.conflict = null;
      for (const id of ['conflict', 'rebased', 'dropped']) show(byId(id), false);
      if (this.base) this.draft = clone(this.base.content);
      this.applyMode();
    }
    this.showMessage(['cap.replaced', { id: this.id }]);
  }

  // ---- rendering ----

  // render shows the draft; first (the first board of the page) draws a large grid over several tasks,
  // this.built settling once every bar is drawn.
  render(first = false) {
    const c = this.draft;
    this.paintUndo();
    setTitle('title.board', { title: c.title });
    if (this.editable) {
      byId('title-sr').textContent = c.title;
      setValue(byId('f-title'), c.title);
      setValue(byId('f-description'), c.description);
      this.ensureKeyOption(c.key || '');
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
      this.built = this.view.build(shown, (bars) => this.stage.render(c, bars));
    } else {
      this.view.render(shown);
      this.stage.render(c, this.view.changed);
    }
    this.lyricsStage.render(c);
    this.lyricsPrint.render(c);
    this.paintPractice();
  }

  showBody() {
    show(byId('board-status'), false);
    show(byId('board-body'), true);
    this.main.setAttribute('aria-busy', 'false');
  }

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
  adopt(arrived) {
    const board = boardWithBars(arrived);
    if (!board || typeof board.revision !== 'number' || (board.id && board.id !== this.id)) return;
    this.history?.arrived(board, !this.base);
    this.exportLinks?.arrived(board.revision);
    if (this.base && board.revision <= this.base.revision) return;
    if (this.saving) {
      if (!this.pending || board.revision > this.pending.revision) this.pending = board;
      return;
    }
    if (this.conflict) {
      if (board.revision > this.conflict.server.revision) {
        this.conflict.server = board;
        this.showConflict(false);
      }
      return;
    }
    const first = !this.base;
    if (first || this.ops.length === 0) {
      this.base = board;
      this.draft = clone(board.content);
    } else {
      const theirs = diff(this.base.content, board.content);
      this.rebase(board);
      bindText(byId('rebased-text'), 'rebased.note', { rev: board.revision });
      fillList(byId('rebased-list'), theirs);
      show(byId('rebased'), true);
    }
    if (first) this.showBody();
    this.render(first);
    // Once every bar of the first board is in the document: the mark the browser benchmarks time the load by.
    if (first) this.built.then(() => performance.mark('tele:bars-rendered'));
    this.updateDirty();
    if (first) this.proposals.refresh();
    else this.proposals.boardChanged();
    if (!first && board.author === 'pi' && !board.proposal) announce('edited'); // an accepted proposal is a musician's doing
  }

  // rebase makes board the base and replays the user's ops on it; ops that no longer fit are shown.
  rebase(board) {
    const before = this.draft; // the draft the ops were made on names their sections
    const conflicts = barConflicts(this.base.content, board.content, this.ops);
    const { content, dropped } = replay(board.content, this.ops);
    this.ops = this.ops.filter((op) => !dropped.includes(op));
    this.base = board;
    this.draft = content;
    if (conflicts.length) this.showBarConflicts([...(this.barConflicts || []).filter((c) => this.ops.includes(c.op)), ...conflicts]);
    if (dropped.length) {
      fillList(byId('dropped-list'), dropped.map((op) => describeOp(op, before)));
      show(byId('dropped'), true);
    }
  }

  // ---- editing ----

  setupEditing() {
    const fields = [
      ['f-title', 'title', (v) => v],
      ['f-description', 'description', (v) => v],
      ['f-key', 'key', (v) => v],
      ['f-tempo', 'tempo', numberOrNull],
      ['f-beats', 'beatsPerBar', numberOrNull],
    ];
    for (const [elId, field, parse] of fields) {
      const el = byId(elId);
      el.addEventListener('input', () => this.edit({ t: 'set', field, value: parse(el.value) }));
    }
    const key = byId('f-key');
    for (const r of this.catalogue.roots) {
      key.append(h('option', { value: r }, r), h('option', { value: `${r}m` }, `${r}m`));
    }
    byId('meta-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.save();
    });
    byId('save').addEventListener('click', () => this.save());
    byId('discard').addEventListener('click', () => this.discard());
    byId('undo-save').addEventListener('click', () => this.undoSave());
    byId('conflict-reapply').addEventListener('click', () => this.reapply());
    byId('conflict-discard').addEventListener('click', () => this.discard());
    document.addEventListener('keydown', (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 's') {
        ev.preventDefault();
        this.save();
      }
    });
    window.addEventListener('beforeunload', (ev) => {
      if (this.ops.length) ev.preventDefault();
    });
    this.dialog = new BarDialog(this.catalogue, {
      apply: (s, b, chords, form) => (this.edit({ t: 'bar', s, b, chords, form }) ? this.view.barButton(s, b) : null),
      move: (s, b, delta) => (this.edit({ t: 'moveBar', s, b, to: b + delta }) ? this.view.barButton(s, b + delta) : null),
      insertAfter: (s, b) => (this.roomFor(1) && this.edit({ t: 'insertBar', s, b: b + 1, chords: [NO_CHORD] }) ? this.view.barButton(s, b + 1) : null),
      remove: (s, b) => (this.edit({ t: 'removeBar', s, b }) ? this.view.barButton(s, Math.max(0, b - 1)) : null),
    });
    this.setupFastEntry();
  }

  // setupFastEntry: arrow keys between bars, typing opens a bar's editor, a pasted chart line makes bars.
  setupFastEntry() {
    const grid = byId('grid');
    new FastEntry(grid, {
      buttons: () => {
        this.view.complete();
        return [...grid.querySelectorAll('.bar-btn')];
      },
      locate: (btn) => {
        const m = /^sections\[(\d+)\]\.bars\[(\d+)\]$/.exec(btn.closest('li.bar')?.dataset.path || '');
        return { s: Number(m?.[1]), b: Number(m?.[2]) };
      },
      open: (s, b) => this.openBar(s, b),
      paste: (s, b, text) => this.pasteBars(s, b, text),
    });
    this.dialog.input.addEventListener('paste', (ev) => {
      const text = ev.clipboardData?.getData('text/plain') || '';
      const target = this.dialog.target;
      if (!target || !parsePaste(text, this.catalogue)) return;
      ev.preventDefault();
      this.dialog.close(null);
      this.pasteBars(target.s, target.b, text);
    });
  }

  // pasteBeats is the meter pasted bars have: the board's (a chord's dots must add up to it).
  pasteBeats() {
    const b = this.draft?.beatsPerBar;
    return Number.isInteger(b) ? b : 4;
  }

  // pasteBars puts pasted bars in place of bar b of section s and after it; false when the text is one
  // bar (an ordinary paste). Nothing changes when a cell is not a bar or the bars do not fit.
  pasteBars(s, b, text) {
    const r = parsePaste(text, this.catalogue, this.pasteBeats());
    if (!r) return false;
    if (!r.bars) {
      this.refuse(r.unknown ? ['chord.unknown', r.unknown] : r.beatsWrong ? ['edit.pasteBeats', r.beatsWrong] : ['edit.pasteBad']);
      return true;
    }
    const extra = r.bars.length - 1;
    if (this.draft.sections[s].bars.length + extra > 64) {
      this.refuse(['edit.sectionFull']);
      return true;
    }
    if (!this.roomFor(extra)) return true;
    this.showMessage(null);
    // A pasted bar of chords alone keeps the form of the bar it lands on; pasted repeat signs and %
    // bars are added to it. The bars after it are inserted as pasted.
    const [first, ...rest] = r.bars.map(barForm);
    if (Array.isArray(r.bars[0])) this.edit({ t: 'bar', s, b, chords: first.chords });
    else {
      const old = barForm(this.draft.sections[s].bars[b]);
      const form = { ...old, simile: first.simile, durations: first.durations, repeatStart: first.repeatStart || old.repeatStart, repeatEnd: first.repeatEnd || old.repeatEnd };
      this.edit({ t: 'bar', s, b, chords: first.chords, form });
    }
    rest.forEach((f, i) => this.edit({ t: 'insertBar', s, b: b + 1 + i, chords: f.chords, form: Array.isArray(r.bars[i + 1]) ? undefined : f }));
    this.view.barButton(s, b + extra)?.focus();
    return true;
  }

  // transposeBoard writes the view's transposition to the board: the key and every bar that moves, as
  // edits saved in one revision through the usual save (PUT with If-Match). The view then shows the
  // board as it now is.
  transposeBoard() {
    const { semitones, sounding } = this.viewControls.current || {};
    if (!this.editable || !semitones || !this.draft) return;
    const c = this.draft;
    const ops = [];
    if (c.key && sounding.key !== c.key) ops.push({ t: 'set', field: 'key', value: sounding.key });
    sounding.sections.forEach((sec, s) => sec.bars.forEach((bar, b) => {
      const chords = barForm(bar).chords; // a bar's form stays; a % bar has no chords of its own
      if (chords.join(' ') !== barForm(c.sections[s].bars[b]).chords.join(' ')) ops.push({ t: 'bar', s, b, chords: [...chords] });
    }));
    for (const op of ops) if (apply(this.draft, op)) this.ops.push(op);
    this.viewControls.resetTranspose(); // renders the moved board untransposed
    this.updateDirty();
    this.save();
  }

  ensureKeyOption(value) {
    const select = byId('f-key');
    if (![...select.options].some((o) => o.value === value)) select.append(h('option', { value }, value));
  }

  // edit applies one op to the draft and records it.
  edit(op) {
    if (!this.draft || !apply(this.draft, op)) return false;
    const last = this.ops[this.ops.length - 1];
    if (this.ops.length > this.inflight && sameTarget(last, op)) this.ops[this.ops.length - 1] = op;
    else this.ops.push(op);
    if (this.invalid && opTouches(op, this.invalid.dataset.path)) this.clearInvalid();
    this.render();
    this.updateDirty();
    return true;
  }

  // lineEditor edits a section's lines (lyrics-edit-page.js), made when first needed.
  lineEditor() {
    this.lines ??= new LineEditing(this);
    return this.lines;
  }

  openBar(s, b) {
    const bars = this.draft.sections[s].bars;
    const n = flatten(this.draft).findIndex((x) => x.section === s && x.bar === b) + 1;
    this.dialog.open(s, b, n, bars[b], bars.length, this.view.barButton(s, b), this.draft.beatsPerBar);
  }

  moveSection(s, delta) {
    if (!this.edit({ t: 'moveSection', s, to: s + delta })) return;
    const to = s + delta;
    const btn = this.view.sectionControl(to, delta < 0 ? 'up' : 'down');
    (btn && !btn.disabled ? btn : this.view.sectionControl(to, 'input'))?.focus();
  }

  removeSection(s) {
    if (!this.edit({ t: 'removeSection', s })) return;
    const next = Math.min(s, this.draft.sections.length - 1);
    this.view.sectionControl(next, 'input')?.focus();
  }

  // roomFor says whether n more bars fit on the board; when they do not, the page says so and nothing
  // is added (the server would refuse the save, naming a bar the user did not add).
  roomFor(n) {
    if (barCount(this.draft) + n <= MAX_BARS) return true;
    this.refuse(['edit.tooManyBars', { max: MAX_BARS }]);
    return false;
  }

  addBar(s) {
    if (!this.roomFor(1)) return;
    const b = this.draft.sections[s].bars.length;
    if (this.edit({ t: 'insertBar', s, b, chords: [NO_CHORD] })) this.view.barButton(s, b)?.focus();
  }

  addSection() {
    if (!this.roomFor(4)) return;
    const s = this.draft.sections.length;
    const section = { label: nextLabel(this.draft), bars: [[NO_CHORD], [NO_CHORD], [NO_CHORD], [NO_CHORD]] };
    if (this.edit({ t: 'insertSection', s, section })) this.view.sectionControl(s, 'input')?.focus();
  }

  discard() {
    if (this.conflict) {
      this.base = this.conflict.server;
      this.conflict = null;
      show(byId('conflict'), false);
    }
    this.ops = [];
    this.draft = clone(this.base.content);
    this.showBarConflicts([]);
    this.clearInvalid();
    show(byId('rebased'), false);
    show(byId('dropped'), false);
    this.render();
    this.updateDirty();
    bindText(byId('save-status'), 'edit.discarded', { rev: this.base.revision });
  }

  // showBarConflicts lists bars both this page and someone else changed, each with a choice: keep mine
  // (the draft already has it) or use theirs (the edit is taken back). Saving waits for every choice.
  showBarConflicts(conflicts) {
    this.barConflicts = conflicts;
    const bars = flatten(this.draft);
    const items = conflicts.map((c) => {
      if (c.k !== undefined) return this.lineEditor().conflictItem(c, (useTheirs) => this.resolveBarConflict(c, useTheirs));
      const n = bars.findIndex((x) => x.section === c.s && x.bar === c.b) + 1;
      // theirs is a bar as written (a chart with form writes an object); mine, the chords typed.
      const params = { n, theirs: barLine(barForm(c.theirs), this.draft.beatsPerBar), mine: c.mine.join(' ') };
      const keep = bindText(h('button', { type: 'button' }), 'barConflict.keepMine', params);
      const take = bindText(h('button', { type: 'button' }), 'barConflict.useTheirs', params);
      keep.addEventListener('click', () => this.resolveBarConflict(c, false));
      take.addEventListener('click', () => this.resolveBarConflict(c, true));
      return h('li', {}, bindText(h('span'), 'barConflict.item', params), h('span', { class: 'actions' }, keep, take));
    });
    byId('bar-conflicts-list').replaceChildren(...items);
    // Lines of words in conflict are named as such (lyrics-strings.js), bars as bars.
    const lines = conflicts.some((c) => c.k !== undefined);
    bindText(byId('bar-conflicts-heading'), lines ? 'lineConflict.heading' : 'barConflict.heading');
    bindText(byId('bar-conflicts-heading').nextElementSibling, lines ? 'lineConflict.intro' : 'barConflict.intro');
    show(byId('bar-conflicts'), conflicts.length > 0);
    this.updateDirty();
  }

  resolveBarConflict(conflict, useTheirs) {
    if (useTheirs) {
      this.ops = this.ops.filter((op) => op !== conflict.op);
      this.draft = replay(this.base.content, this.ops).content;
      this.render();
    }
    this.showBarConflicts(this.barConflicts.filter((c) => c !== conflict));
    if (!this.barConflicts.length) byId(this.ops.length ? 'save' : 'grid')?.focus();
  }

  updateDirty() {
    if (!this.editable) return;
    const dirty = this.ops.length > 0;
    this.paintUndo();
    byId('save').disabled = !dirty || this.saving || Boolean(this.conflict) || Boolean(this.barConflicts?.length);
    byId('discard').disabled = !dirty || this.saving;
    this.main.dataset.dirty = String(dirty);
    const status = byId('save-status');
    if (this.saving) bindText(status, 'edit.saving');
    else if (dirty && !this.conflict && status.dataset.i18n !== 'edit.reapplied') bindText(status, 'edit.dirty');
    if (!dirty) show(byId('rebased'), false);
  }

  // ---- saving ----

  async save() {
    if (!this.editable || !this.ops.length || this.saving || this.conflict || this.barConflicts?.length) return;
    const sent = this.ops.length;
    const body = forSave(clone(this.draft));
    this.saving = true;
    this.inflight = sent;
    this.showMessage(null);
    this.updateDirty();
    try {
      const board = boardWithBars(await api.putBoard(this.id, this.base.revision, body, this.cap));
      this.history?.arrived(board, false);
      this.ops = this.ops.slice(sent);
      this.base = board;
      this.draft = replay(board.content, this.ops).content;
      this.clearInvalid();
      show(byId('rebased'), false);
      show(byId('dropped'), false);
      bindText(byId('save-status'), 'edit.saved', { rev: board.revision });
      this.ownSave = { revision: board.revision, before: board.revision - 1 };
      this.render();
    } catch (err) {
      this.saveFailed(err);
    } finally {
      this.saving = false;
      this.inflight = 0;
      this.updateDirty();
      const pending = this.pending;
      this.pending = null;
      if (pending) this.adopt(pending);
    }
  }

  // ---- undo the page's own last save ----

  // paintUndo offers Undo while the board is still at the revision this page saved and nothing is
  // typed since: a newer revision (anyone's) or an edit makes it a matter for the history.
  paintUndo() {
    const own = this.ownSave;
    show(byId('undo-save'), Boolean(this.editable && own && this.base?.revision === own.revision && !this.ops.length && !this.saving));
  }

  // undoSave restores the revision before this page's last save, over that save (If-Match): a board
  // changed meanwhile is refused with nothing lost.
  async undoSave() {
    const own = this.ownSave;
    if (!own || !this.editable || this.base?.revision !== own.revision || this.ops.length) return;
    const button = byId('undo-save');
    button.disabled = true;
    try {
      const board = await api.restoreRevision(this.id, own.before, own.revision, this.cap);
      this.ownSave = null;
      this.adopt(board);
      bindText(byId('save-status'), 'edit.undone', { rev: board.revision, from: own.before });
    } catch (err) {
      if (err.status === 412) this.showMessage(['edit.undoStale']);
      else if (err.status === 401 || err.status === 403) this.saveFailed(err);
      else this.showMessage(['edit.undoFailed', { message: err.message }]);
    } finally {
      button.disabled = false;
      this.paintUndo();
    }
  }

  saveFailed(err) {
    switch (err.status) {
      case 412:
        this.startConflict();
        return;
      case 400:
      case 422: {
        // Said in the page's language and a musician's words, from the path (and a refused chord's
        // symbol and suggestion); the server's English rule only where the page has no words of its own.
        const entry = ruleEntry(err.fields.path, err.fields.rule, err.fields);
        const rule = entry ? { $t: entry[0], params: entry[1] } : err.fields.rule || err.message;
        this.showInvalid(err.fields.path, rule);
        return;
      }
      case 401:
      case 403:
        forget(this.id, this.cap); // the ring's key no longer opens the board
        this.showMessage(['edit.unauthorized', { id: this.id }]);
        return;
      case 429:
        this.showMessage(['edit.rateLimited']);
        return;
      case 507:
        this.showMessage(['edit.diskFull']);
        return;
      case 0:
        this.showMessage(['edit.network']);
        return;
      default:
        this.showMessage(['edit.failed', { message: err.message }]);
    }
  }

  // showMessage says entry in the page's message, near the top of the board (null: no message).
  showMessage(entry) {
    const el = byId('message');
    show(byId('refused'), false);
    if (!entry) {
      show(el, false);
      return;
    }
    bindText(el, ...entry);
    show(el, true);
  }

  // refuse says why something done in the grid (a bar added, a paste, a section duplicated) changed
  // nothing, in a toast at the bottom of the window: the page's message may be a screen or more above
  // the bar the musician is at.
  refuse(entry) {
    show(byId('message'), false);
    bindText(byId('refused-text'), ...entry);
    show(byId('refused'), true);
  }

  // ---- 412: somebody else saved first ----

  async startConflict() {
    let server;
    try {
      server = await api.getBoard(this.id);
    } catch {
      this.showMessage(['edit.network']);
      return;
    }
    if (this.conflict || server.revision <= this.base.revision) return;
    this.conflict = { server };
    this.showConflict(true);
  }

  showConflict(focus) {
    const { server } = this.conflict;
    bindText(byId('conflict-intro'), 'conflict.intro', { rev: server.revision });
    fillList(byId('conflict-theirs'), diff(this.base.content, server.content));
    fillList(byId('conflict-yours'), diff(this.base.content, this.draft));
    show(byId('conflict'), true);
    this.updateDirty();
    if (focus) byId('conflict-heading').focus();
  }

  reapply() {
    const { server } = this.conflict;
    this.conflict = null;
    show(byId('conflict'), false);
    show(byId('rebased'), false);
    this.rebase(server);
    this.render();
    bindText(byId('save-status'), 'edit.reapplied', { rev: server.revision });
    this.updateDirty();
    byId(this.ops.length ? 'save' : 'grid')?.focus();
  }

  // ---- 422: the rule and the field ----

  showInvalid(path, rule) {
    this.clearInvalid();
    let el = null;
    for (const p of pathCandidates(path)) {
      el = this.main.querySelector(`[data-path="${CSS.escape(p)}"]`);
      if (el) break;
    }
    const field = this.fieldName(path);
    this.showMessage(['edit.invalid', { field, rule }]);
    if (!el) return;
    const target = el.matches('li.bar') ? el.querySelector('button') || el : el;
    target.classList.add('is-invalid');
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-errormessage', 'message');
    target.dataset.path ||= el.dataset.path;
    this.invalid = target;
    if (typeof target.focus === 'function') target.focus();
  }

  clearInvalid() {
    if (!this.invalid) return;
    this.invalid.classList.remove('is-invalid');
    this.invalid.removeAttribute('aria-invalid');
    this.invalid.removeAttribute('aria-errormessage');
    this.invalid = null;
    if (byId('message').dataset.i18n === 'edit.invalid') this.showMessage(null);
  }

  // fieldName names a JSON path for people, as a translatable param.
  fieldName(path) {
    const simple = { title: 'field.title', description: 'field.description', key: 'field.key', tempo: 'field.tempo', beatsPerBar: 'field.beats', sections: 'field.sections' };
    if (simple[path]) return { $t: simple[path] };
    let m = /^sections\[(\d+)\]\.label$/.exec(path || '');
    if (m) return { $t: 'field.sectionLabel', params: { n: Number(m[1]) + 1 } };
    m = /^sections\[(\d+)\]\.bars\[(\d+)\]/.exec(path || '');
    if (m) {
      const n = flatten(this.draft).findIndex((x) => x.section === Number(m[1]) && x.bar === Number(m[2])) + 1;
      if (n > 0) return { $t: 'field.bar', params: { n } };
    }
    return path || '—';
  }

  // ---- player ----

  setupPlayer() {
    const root = byId('player');
    const play = byId('play');
    if (!Player.supported()) {
      play.disabled = true;
      bindText(byId('play-pos'), 'player.unsupported');
      return;
    }
    this.player = new Player({
      catalogue: this.catalogue,
      getContent: () => this.viewControls.current?.sounding ?? this.draft, // what is shown, in sounding pitch
      getOptions: () => ({
        countIn: byId('count-in').checked, loop: byId('loop').checked, click: byId('click').checked,
        tempo: this.practiceTempo ?? null, range: this.loopRange(),
      }),
      onPosition: (pos) => {
        this.view.setCursor(pos);
        this.stage.follow();
        const el = byId('play-pos');
        if (!pos) {
          el.textContent = '';
          delete el.dataset.i18n;
        } else if (pos.countIn) bindText(el, 'player.countingIn', { beat: pos.countIn });
        else bindText(el, 'player.position', { n: pos.n, pass: pos.pass, times: pos.times });
      },
      onState: (state, audio) => {
        root.dataset.state = state;
        root.dataset.audio = audio;
        play.classList.toggle('is-playing', state === 'playing');
        bindText(byId('play-label'), state === 'playing' ? 'player.stop' : 'player.play');
      },
    });
    // Only a real gesture (a click, or Enter/Space on the button) starts or stops the player: a click a
    // script synthesizes is not trusted and does nothing.
    play.addEventListener('click', (ev) => {
      if (ev.isTrusted) this.player.toggle();
    });
    this.setupPractice();
  }

  // ---- practising: the loop's bars, the practice tempo ----

  // setupPractice wires the loop's range (a section, or bars from … to), and the practice tempo: −5/+5
  // BPM with its buttons or [ and ] anywhere but in a field, heard from the next bar, without stopping;
  // the board's tempo is not changed.
  setupPractice() {
    const loop = byId('loop');
    const section = byId('loop-section');
    const showRange = () => show(byId('loop-range'), loop.checked);
    loop.addEventListener('change', showRange);
    showRange();
    section.addEventListener('change', () => {
      if (section.value === 'custom') return;
      const r = sectionRanges(this.draft)[Number(section.value)];
      setValue(byId('loop-from'), r ? r.from : 1);
      setValue(byId('loop-to'), r ? r.to : barCount(this.draft));
    });
    for (const id of ['loop-from', 'loop-to']) byId(id).addEventListener('change', () => this.paintLoop());
    byId('tempo-down').addEventListener('click', () => this.nudgeTempo(-TEMPO_STEP));
    byId('tempo-up').addEventListener('click', () => this.nudgeTempo(+TEMPO_STEP));
    document.addEventListener('keydown', (ev) => {
      if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || (ev.key !== '[' && ev.key !== ']')) return;
      if (document.querySelector('dialog[open]') || ev.target.closest?.('input, textarea, select, [contenteditable]')) return;
      ev.preventDefault();
      this.nudgeTempo(ev.key === ']' ? TEMPO_STEP : -TEMPO_STEP);
    });
  }

  nudgeTempo(delta) {
    const next = nudgeTempo(this.practiceTempo ?? this.draft?.tempo, delta, 120);
    this.practiceTempo = next === this.draft?.tempo ? null : next;
    this.paintPractice();
  }

  // loopRange is the bars the loop plays ({from, to}), or null for the whole chart.
  loopRange() {
    const total = barCount(this.draft);
    const from = Number(byId('loop-from').value);
    const to = Number(byId('loop-to').value);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < 1) return null;
    if (Math.min(from, to) === 1 && Math.max(from, to) >= total) return null;
    return { from: Math.min(from, to, total), to: Math.min(Math.max(from, to), total) };
  }

  // paintPractice shows the loop's choices (one a section) and the tempo the player plays at.
  paintPractice() {
    const c = this.draft;
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
    for (const id of ['loop-from', 'loop-to']) byId(id).max = String(total);
    if (!byId('loop-from').value) setValue(byId('loop-from'), 1);
    if (!byId('loop-to').value) setValue(byId('loop-to'), total);
    this.paintLoop();
    paintPlayedLength(byId('played-length'), c, this.practiceTempo);
    const out = byId('practice-tempo');
    const board = Number.isFinite(c.tempo) ? c.tempo : null;
    if (this.practiceTempo !== null && this.practiceTempo !== undefined) {
      bindText(out, board ? 'player.tempoPractice' : 'meta.tempo', { tempo: this.practiceTempo, board });
      out.dataset.changed = '';
    } else {
      bindText(out, board ? 'meta.tempo' : 'meta.noTempo', { tempo: board });
      delete out.dataset.changed;
    }
  }

  // paintLoop selects the section the range is, if it is one.
  paintLoop() {
    const r = this.loopRange();
    const i = r ? sectionRanges(this.draft).findIndex((x) => x.from === r.from && x.to === r.to) : -1;
    setValue(byId('loop-section'), i >= 0 ? String(i) : r ? 'custom' : '');
  }
}

// paintViewHead writes the head's key as the chords are shown (a transposed view's key, a capo's
// shapes) and, beside it, what the view changes: "Capo 3 (sounds in Gm)", "Transposed from Gm",
// "Numbers". A printout or the stage then says which key its chords are in.
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

// fingerprint names a capability as the server's `capability` event does: base64url of the first 16
// bytes of its SHA-256. '' where Web Crypto is missing (then no key matches, and the page reads only).
async function fingerprint(capability) {
  if (!globalThis.crypto?.subtle) return '';
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(capability)));
  return btoa(String.fromCharCode(...sum.slice(0, 16))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// copyLink copies the new edit link, and says whether it could.
async function copyLink() {
  const input = byId('new-link-url');
  const status = byId('new-link-status');
  try {
    await navigator.clipboard.writeText(input.value);
    bindText(status, 'cap.copied');
  } catch {
    input.select();
    bindText(status, 'cap.copyFailed');
  }
}

function numberOrNull(v) {
  return v === '' ? null : Number(v);
}

// opTouches: does op edit the thing at path (so a 422 mark on it can go)?
function opTouches(op, path) {
  if (!path) return true;
  if (op.t === 'set') return path === op.field;
  if (op.t === 'label') return path === `sections[${op.s}].label`;
  if (op.t === 'bar') return path.startsWith(`sections[${op.s}].bars[${op.b}]`);
  return path.startsWith('sections');
}

// fillList renders i18n entries as list items, at most MAX_LISTED and a "more" line.
function fillList(ul, entries) {
  const items = entries.slice(0, MAX_LISTED).map(([key, params]) => bindText(h('li'), key, params));
  if (entries.length > MAX_LISTED) items.push(bindText(h('li'), 'chg.more', { n: entries.length - MAX_LISTED }));
  if (entries.length === 0) items.push(bindText(h('li'), 'chg.none'));
  ul.replaceChildren(...items);
}

