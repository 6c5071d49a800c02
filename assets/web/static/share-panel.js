// @ts-check
// "Share with the band" on a board page that holds the board's edit key: it starts a share session on
// the server (POST /api/share), shows the join link and its QR code, and leads: the board shown and
// the player's start, stop, tempo changes and jumps reach every phone that follows (docs/band.md). The
// leader token and the join link stay in this tab's session storage, so opening the next song in this
// tab keeps leading (the phones follow to it). Nothing here changes the board page; it listens to the
// player's timeline (player.js).
//
// Handing the lead over: another tab of this server with a board's edit key shows **Take the lead**
// while a tab leads (the tabs talk over a BroadcastChannel, which only this origin's pages share). Its
// click asks the leading tab, which gets a new leader token (POST /api/share/lead: its own stops at
// once) and hands it and the join link over; the new tab leads from then on, with its song.
//
// The leading page holds the leader's stream (GET /api/share/events) for as long as it leads: the
// server knows a page leads, and when that page closed without stopping, its stream ended. Take the
// lead then claims the share (POST /api/share/claim) with no one to ask: the same join link, the phones
// still following.

import './band-strings.js';
import { byId, show } from './dom.js';
import { bindText } from './i18n.js';
import { request } from './api.js';
import { Stream, watchPage } from './stream.js';
import { read, remove, write } from './storage.js';
import { copyLink } from './link-box.js';
import { offsetFrom } from './band-clock.js';

const LEADER_KEY = 'tele.band.leader';
const JOIN_KEY = 'tele.band.join';
const POLL_MS = 3000;
// The clock's offset is the fastest round trip's of the last CLOCK_KEEP samples: three when leading
// starts, then one with every poll of the follower count.
const CLOCK_KEEP = 20;
const CHANNEL = 'tele.band';

export function bootSharePanel(page, set) {
  if (!byId('band-share') || !page?.id) return null;
  return new SharePanel(page, set);
}

class SharePanel {
  // set: {id} when the board was opened from a set (set-nav.js): the phones may read its songs.
  constructor(page, set) {
    this.page = page;
    this.set = set;
    this.leader = read('session', LEADER_KEY);
    this.timeline = null; // the player's last {at, index, tempo, countIn}, while it plays
    this.offset = 0;
    this.samples = []; // the clock's last samples
    this.status = byId('band-status');
    byId('band-share').addEventListener('click', () => this.start());
    byId('band-stop').addEventListener('click', () => this.stop());
    byId('band-new-key').addEventListener('click', () => this.newKey());
    byId('band-copy').addEventListener('click', () => copyLink(byId('band-link'), this.status));
    byId('band-take').addEventListener('click', () => this.take());
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    this.channel?.addEventListener('message', (ev) => this.heard(ev.data || {}));
    page.player?.onTimeline((tl) => this.timelineChanged(tl));
    // A leading tab that is left says so: the others claim the lead then rather than ask it (a tab that
    // only opened its next song says it leads again at once).
    addEventListener('pagehide', () => this.leader && this.channel?.postMessage({ type: 'left' }));
    if (this.leader) this.resume();
    else this.channel?.postMessage({ type: 'who' });
  }

  // heard answers the other tabs: the leading one says so and hands the lead over when asked; the others
  // offer to take it while one leads.
  heard(msg) {
    if (this.leader) {
      if (msg.type === 'who') this.channel.postMessage({ type: 'leading' });
      else if (msg.type === 'take' && typeof msg.id === 'string') this.handOver(msg.id);
      return;
    }
    if (msg.type === 'leading') {
      this.leadingTab = true;
      show(byId('band-take'), this.page.editable);
    } else if (msg.type === 'left') this.leadingTab = false;
    else if (msg.type === 'stopped') show(byId('band-take'), false);
    else if (msg.type === 'lead' && msg.to === this.asked && typeof msg.leader === 'string') {
      this.asked = null;
      this.becomeLeader(msg.leader, msg.joinUrl || '');
    }
  }

  becomeLeader(leader, joinUrl) {
    this.leader = leader;
    write('session', LEADER_KEY, leader);
    write('session', JOIN_KEY, joinUrl);
    show(byId('band-take'), false);
    this.resume();
  }

  // take asks the leading tab to hand the lead over; when that tab is gone, it claims the share.
  async take() {
    if (this.leadingTab) {
      this.ask();
      return;
    }
    try {
      const res = await request('POST', '/api/share/claim', { body: {} });
      this.becomeLeader(res.leader, res.joinUrl);
    } catch (err) {
      if (err.code === 'leading') this.ask();
      else if (err.code === 'not_sharing') {
        show(byId('band-take'), false);
        show(byId('share-panel'), true);
        bindText(this.status, 'band.stopped');
      } else this.failed(err);
    }
  }

  ask() {
    this.asked = crypto.randomUUID();
    this.channel?.postMessage({ type: 'take', id: this.asked });
  }

  async handOver(to) {
    const joinUrl = read('session', JOIN_KEY);
    // The hand-over ends this tab's stream: it hands the lead on and needs no telling.
    this.presence?.close();
    this.presence = null;
    await this.quiet();
    try {
      const { leader } = await request('POST', '/api/share/lead', { headers: this.auth(), body: {} });
      this.end();
      this.channel.postMessage({ type: 'lead', to, leader, joinUrl });
      bindText(this.status, 'band.handed');
      show(byId('band-live'), false);
      show(byId('band-take'), this.page.editable);
    } catch (err) {
      this.failed(err);
      if (this.leader) {
        this.hold();
        this.poll = setInterval(() => this.refresh(), POLL_MS);
      }
    }
  }

  auth(leader = this.leader) {
    return { Authorization: `Bearer ${leader}` };
  }

  async start() {
    bindText(this.status, 'band.starting');
    show(byId('share-panel'), true);
    try {
      const res = await request('POST', '/api/share', { body: {} });
      this.leader = res.leader;
      write('session', LEADER_KEY, res.leader);
      write('session', JOIN_KEY, res.joinUrl);
      await this.lead();
    } catch (err) {
      this.failed(err);
    }
  }

  async resume() {
    show(byId('share-panel'), true);
    try {
      await this.lead();
    } catch (err) {
      this.failed(err);
    }
  }

  // lead shows the link and its code, measures the clock and sends this page's board.
  async lead() {
    show(byId('band-live'), true);
    byId('band-stop').disabled = false;
    this.channel?.postMessage({ type: 'leading' });
    byId('band-link').value = read('session', JOIN_KEY) || '';
    this.hold();
    await this.measureClock();
    await this.send();
    await this.drawCode();
    clearInterval(this.poll);
    this.poll = setInterval(() => this.refresh(), POLL_MS);
  }

  async measureClock() {
    for (let i = 0; i < 3; i++) await this.getShare();
  }

  // getShare reads GET /api/share, taking a sample of the clock with it.
  async getShare() {
    const sent = Date.now();
    const state = await request('GET', '/api/share', { headers: this.auth() });
    this.samples.push({ sent, serverTime: state.serverTime, received: Date.now() });
    this.samples.splice(0, Math.max(0, this.samples.length - CLOCK_KEEP));
    this.offset = offsetFrom(this.samples);
    return state;
  }

  // transport is what the phones need to place their cursors: the bar that starts at startedAt (on the
  // server's clock) and the tempo from there on; loop, when the whole song loops (a loop of some bars is
  // told again each time round).
  transport() {
    const tl = this.timeline;
    if (!tl) return undefined;
    return { playing: true, tempo: tl.tempo, startedAt: Math.round(tl.at + this.offset), countIn: tl.countIn, loop: tl.loop, from: tl.index };
  }

  timelineChanged(tl) {
    this.timeline = tl;
    if (this.leader) this.send().catch((err) => this.failed(err));
  }

  // send posts the state; one at a time, in order, so a stop never overtakes the start before it.
  send() {
    const next = (this.sending || Promise.resolve()).catch(() => {}).then(() => this.post());
    this.sending = next;
    return next;
  }

  async post() {
    const state = await request('POST', '/api/share/state', { headers: this.auth(), body: { board: this.page.id, set: this.set?.id, transport: this.transport() } });
    this.showCount(state.followers);
  }

  refresh() {
    this.polling = this.getShare().then((state) => this.showCount(state.followers), (err) => this.failed(err));
    return this.polling;
  }

  // quiet stops the poll and waits for the requests already sent with this page's leader token: one
  // reaching the server after the share stopped or the lead moved on would be refused, and the phone's
  // count or the stop would then read as a failure.
  async quiet() {
    clearInterval(this.poll);
    await Promise.allSettled([this.polling, this.sending]);
  }

  showCount(n) {
    bindText(this.status, 'band.sharing', { n: n ?? 0 });
    this.status.dataset.followers = String(n ?? 0);
  }

  // drawCode draws the QR code of the join link: fetched with the leader token (an <img> cannot send
  // it), drawn on a canvas (the page's policy allows images from this origin only, not blob: URLs).
  async drawCode() {
    const res = await fetch('/api/share/qr', { headers: this.auth(), cache: 'no-store' });
    if (!res.ok) return;
    const bitmap = await createImageBitmap(await res.blob());
    const canvas = byId('band-qr');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d').drawImage(bitmap, 0, 0);
    canvas.dataset.drawn = 'true';
  }

  async newKey() {
    try {
      const res = await request('POST', '/api/share/key', { headers: this.auth(), body: {} });
      write('session', JOIN_KEY, res.joinUrl);
      byId('band-link').value = res.joinUrl;
      await this.drawCode();
      await this.refresh();
    } catch (err) {
      this.failed(err);
    }
  }

  async stop() {
    const leader = this.leader;
    if (!leader) return;
    // No state is sent after the click (timelineChanged reads this.leader), and the stop is sent last.
    this.leader = null;
    byId('band-stop').disabled = true;
    await this.quiet();
    try {
      await request('DELETE', '/api/share', { headers: this.auth(leader) });
    } catch {
      // Stopped already, or the lead went elsewhere: either way this page leads no more.
    }
    this.end();
    this.channel?.postMessage({ type: 'stopped' });
    bindText(this.status, 'band.stopped');
    show(byId('share-panel'), true);
    show(byId('band-live'), false);
  }

  // hold opens the leader's stream, which says the page leads for as long as it is open.
  hold() {
    this.presence?.close();
    this.presence = new Stream('/api/share/events', { ended: () => this.lost() }, () => {}, watchPage, this.auth());
  }

  // lost: the lead went elsewhere without this tab (a share started anew from another page).
  lost() {
    if (!this.leader) return;
    this.end();
    bindText(this.status, 'band.stopped');
    show(byId('band-live'), false);
  }

  end() {
    this.presence?.close();
    this.presence = null;
    clearInterval(this.poll);
    this.leader = null;
    remove('session', LEADER_KEY);
    remove('session', JOIN_KEY);
    byId('band-link').value = '';
  }

  failed(err) {
    show(byId('share-panel'), true);
    if (err.code === 'share_off') bindText(this.status, 'band.off');
    else if (err.code === 'not_leader') {
      this.end();
      bindText(this.status, 'band.stopped');
    } else bindText(this.status, 'band.failed', { message: err.message });
    show(byId('band-live'), Boolean(this.leader));
  }
}
