// @ts-check
// The board page's path, /b/<board>: the one place the page and the chat panel read the board id from.

// boardIdFromPath returns the board id of a board page's path, or null for any other path (or a
// malformed escape in it).
export function boardIdFromPath(pathname) {
  const m = /^\/b\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}
