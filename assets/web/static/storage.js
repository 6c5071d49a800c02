// @ts-check
// Web Storage that never throws: with storage disabled (a privacy setting, a sandboxed frame, a test
// that makes the getter throw) every read is null and every write reports false. Only the keys the page
// documents go to localStorage: preferences (tele.locale, tele.chat.*, tele.view:<board>, tele.instrument,
// tele.shortSigns, tele.stage.size, tele.notify, tele.notify.sound) and the key ring of boards this browser made or opened by their edit
// link (tele.keyring, keyring.js); a tab's capability goes to sessionStorage.

function area(kind) {
  return kind === 'session' ? window.sessionStorage : window.localStorage;
}

export function read(kind, key) {
  try {
    return area(kind).getItem(key);
  } catch {
    return null;
  }
}

export function write(kind, key, value) {
  try {
    area(kind).setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function remove(kind, key) {
  try {
    area(kind).removeItem(key);
  } catch {
    // Nothing to do: a storage we cannot reach holds nothing of ours.
  }
}
