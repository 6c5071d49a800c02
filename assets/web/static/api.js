// @ts-check
// The HTTP API of docs/api.md, as the page uses it. Every failure is an ApiError carrying the HTTP status
// (0 when the server could not be reached) and the body's {code, message, ...fields}.

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || (status === 0 ? 'network' : `http_${status}`);
    this.fields = error || {};
  }
}

// request is the one fetch wrapper of the page's APIs (boards here, chat in chat-api.js). Same-origin
// fetches send the exact Origin and the path-scoped cookies by themselves (credentials default to
// same-origin). text: the body as text (an export), not JSON.
/**
 * @param {string} method
 * @param {string} url
 * @param {{ body?: unknown, headers?: Record<string, string>, text?: boolean }} [opts]
 */
export async function request(method, url, { body, headers = {}, text: asText = false } = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { Accept: 'application/json', ...headers }, cache: 'no-store' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new ApiError(0, { code: 'network', message: String(err?.message || err) });
  }
  let data = null;
  const text = await res.text().catch(() => '');
  if (asText && res.ok) return text;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) throw new ApiError(res.status, data?.error);
  return data;
}

const boardURL = (id) => `/api/boards/${encodeURIComponent(id)}`;

export function boardEventsURL(id) {
  return `${boardURL(id)}/events`;
}

// listBoards → {boards: [{id, title, revision, updatedAt?}], setAside: [{board, what, revision}]}: the
// boards, and what the server could not read and set aside (docs/api.md).
export async function listBoards() {
  const data = await request('GET', '/api/boards');
  const list = Array.isArray(data) ? data : data?.boards || [];
  const boards = list.map((b) => ({
    id: b.id,
    title: b.title ?? b.content?.title ?? b.id,
    revision: b.revision,
    updatedAt: b.updatedAt,
  }));
  return { boards, setAside: Array.isArray(data?.setAside) ? data.setAside : [] };
}

export function getBoard(id) {
  return request('GET', boardURL(id));
}

// createBoard → the board and its capability (the only response that ever carries it).
export function createBoard(id, content) {
  return request('POST', '/api/boards', { body: { id, content } });
}

// putBoard saves content over revision; one PUT with If-Match and the capability.
export function putBoard(id, revision, content, capability) {
  return request('PUT', boardURL(id), {
    body: content,
    headers: { 'If-Match': `"${revision}"`, Authorization: `Bearer ${capability}` },
  });
}

// rotateCapability asks for a new capability of board id as a holder of the current one → {capability};
// every earlier edit link stops working.
export function rotateCapability(id, capability) {
  return request('POST', `${boardURL(id)}/capability`, { body: {}, headers: { Authorization: `Bearer ${capability}` } });
}

// newClaim asks, as a holder of board id's capability, for a one-time code for an edit link →
// {claim, expiresAt}.
export function newClaim(id, capability) {
  return request('POST', `${boardURL(id)}/claims`, { body: {}, headers: { Authorization: `Bearer ${capability}` } });
}

// restoreRevision makes revision `from` the board's next revision, over revision ifMatch → the board.
export function restoreRevision(id, from, ifMatch, capability) {
  return request('POST', `${boardURL(id)}/restore`, {
    body: { revision: from },
    headers: { 'If-Match': `"${ifMatch}"`, Authorization: `Bearer ${capability}` },
  });
}

// copyBoard makes a new board from board id's current content → the new board and its capability.
export function copyBoard(id, newId) {
  return request('POST', `${boardURL(id)}/copy`, { body: newId ? { id: newId } : {} });
}

// deleteBoard deletes board id, which must still be at revision, with its history; null on success.
export function deleteBoard(id, revision, capability) {
  return request('DELETE', boardURL(id), { headers: { 'If-Match': `"${revision}"`, Authorization: `Bearer ${capability}` } });
}

// exportBoard → the board exported in format (docs/api.md), as text: for ireal, an irealb:// link.
export function exportBoard(id, format) {
  return request('GET', `${boardURL(id)}/export?format=${encodeURIComponent(format)}`, { text: true, headers: { Accept: 'text/plain, application/json' } });
}

export function getCatalogue() {
  return request('GET', '/api/catalogue');
}

// firstBoard asks for what the board page's first drawing needs, the board and the chord catalogue,
// each settled (a failure is the page's to show, once it has started).
/** @param {string} id */
export function firstBoard(id) {
  return Promise.allSettled([getBoard(id), getCatalogue()]);
}
