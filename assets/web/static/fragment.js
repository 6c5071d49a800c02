// The URL fragment carries secrets (the board capability `cap`, and for a paired chat `binding` and
// `invite`). takeFragment reads it once and erases it from the address bar and the history entry at
// once, so it is never bookmarked, shared or shown again. Callers get the parsed parameters.
export function takeFragment() {
  const raw = location.hash.replace(/^#/, '');
  if (location.hash) {
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  return new URLSearchParams(raw);
}
