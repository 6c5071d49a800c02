// @ts-check
// The chat view's changes between two snapshots, for the chat stream's worker (chat-stream-worker.js)
// and the panel (chat-panel.js). The server sends every change as a complete view of up to 256 KiB
// (docs/api.md, "Streams"); while a reply streams, one word at a time, almost all of it is what the
// previous snapshot said. The worker reads and parses the snapshots off the page's main thread and
// posts only what changed (ViewDiff); the panel rebuilds the view from those changes (ViewModel), so
// the main thread handles a few hundred bytes per streamed word instead of a 256 KiB event.
//
// A change message: {type: 'view', fields, changes, order?, reset?}
//   fields   every member of the view but its items (epoch, idleVersion, status, runId, notice, ...)
//   changes  the items that differ from the previous snapshot, oldest first: {item} for a new or
//            changed item (whole), {id, append} for an item whose text only grew (the streamed words)
//   order    the ids of the items, oldest first, when they differ from the previous snapshot's
//   reset    set on the first message of a ViewDiff: the model forgets what it held before
// Only items the panel can show travel (showableItems): a string id, a known role, the first of each id.

export const ROLES = ['user', 'assistant', 'tool', 'notice'];

// showableItems are the items of a view the panel shows, in order.
export function showableItems(items) {
  const seen = new Set();
  const out = [];
  for (const it of items) {
    if (!it || typeof it !== 'object' || typeof it.id !== 'string' || !ROLES.includes(it.role) || seen.has(it.id)) continue;
    seen.add(it.id);
    out.push(it);
  }
  return out;
}

export function isView(view) {
  return Boolean(view) && typeof view === 'object' && Array.isArray(view.items);
}

// ViewDiff turns each snapshot into the message of what changed since the one before.
export class ViewDiff {
  constructor() {
    this.items = null; // id → item of the previous snapshot; null before the first
    this.order = [];
  }

  // next returns the change message for view, or null when view is not a chat view (it is ignored,
  // as the panel ignores it).
  next(view) {
    if (!isView(view)) return null;
    const { items, ...fields } = view;
    const list = showableItems(items);
    const prev = this.items;
    const changes = [];
    const byId = new Map();
    let sameOrder = prev !== null && list.length === this.order.length;
    for (let i = 0; i < list.length; i++) {
      const it = list[i];
      byId.set(it.id, it);
      if (sameOrder && this.order[i] !== it.id) sameOrder = false;
      const change = itemChange(prev?.get(it.id), it);
      if (change) changes.push(change);
    }
    const order = sameOrder ? this.order : list.map((it) => it.id);
    const msg = { type: 'view', fields, changes };
    if (!sameOrder) msg.order = order;
    if (prev === null) msg.reset = true;
    this.items = byId;
    this.order = order;
    return msg;
  }
}

function itemChange(old, it) {
  if (!old) return { item: it };
  const keys = Object.keys(it);
  if (keys.length !== Object.keys(old).length) return { item: it };
  for (const k of keys) {
    if (k !== 'text' && !Object.is(old[k], it[k])) return { item: it };
  }
  if (old.text === it.text) return null;
  if (typeof old.text === 'string' && typeof it.text === 'string' && it.text.startsWith(old.text)) {
    return { id: it.id, append: it.text.slice(old.text.length) };
  }
  return { item: it };
}

// ViewModel is the view rebuilt from the change messages, on the page.
export class ViewModel {
  constructor() {
    this.items = new Map(); // id → item
    this.order = [];
  }

  // apply takes one change message and returns the view it describes, with the ids of the items that
  // changed. A message that does not fit (an append to an item it does not hold) is skipped there.
  apply(msg) {
    if (msg.reset) {
      this.items = new Map();
      this.order = [];
    }
    const changed = new Set();
    for (const c of msg.changes) {
      if (c.item) {
        this.items.set(c.item.id, c.item);
        changed.add(c.item.id);
        continue;
      }
      const old = this.items.get(c.id);
      if (!old || typeof old.text !== 'string' || typeof c.append !== 'string') continue;
      this.items.set(c.id, { ...old, text: old.text + c.append });
      changed.add(c.id);
    }
    if (msg.order) {
      this.order = msg.order;
      const kept = new Set(this.order);
      for (const id of this.items.keys()) if (!kept.has(id)) this.items.delete(id);
    }
    const items = [];
    for (const id of this.order) {
      const it = this.items.get(id);
      if (it) items.push(it);
    }
    return { view: { ...msg.fields, items }, changed };
  }
}
