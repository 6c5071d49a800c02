// @ts-check
// English / 简体中文: the engine. One dictionary per locale, starting with page-strings.js's words;
// a module with words of its own adds them with extend (chat-strings.js, form-strings.js, …). Every generated string on a page is bound to a key, so a language switch re-renders all of
// them, and nothing else: board content is never a key, and no listener here touches the board, the
// player or the scroll position.
//
// Binding:
//   HTML:  <span data-i18n="player.play">Play</span>          textContent
//          <input data-i18n-aria-label="field.title">          aria-label (also -placeholder, -title)
//   JS:    bindText(el, key, params), bindAttr(el, 'aria-label', key, params)
// Values are strings with {name} placeholders or functions (params, locale) → string.

import { read, write } from './storage.js';
import { STRINGS } from './page-strings.js';

/**
 * @typedef {Record<string, unknown>} Params a string's params: a value, or a translation ({$t, params})
 * @typedef {unknown} Param one param
 * @typedef {[string, Params?]} Entry an i18n key and its params, as bindText(el, ...entry) takes them
 * @typedef {(p: Record<string, any>, loc: string) => string} Words a string made of its params (which may
 *   be anything the caller bound: a count, a list of names) in a locale
 * @typedef {Record<string, string | Words>} Dictionary
 */

export const LOCALES = ['en', 'zh-CN'];
export const STORAGE_KEY = 'tele.locale';
const STATIC_ATTRS = ['aria-label', 'placeholder', 'title'];

/** @type {Record<string, Dictionary>} */
const dictionaries = { en: { ...STRINGS.en }, 'zh-CN': { ...STRINGS['zh-CN'] } };

let current = 'en';
let translated = false; // init has translated the page
/** @type {string | null} */
let titleKey = null;
/** @type {Params | undefined} */
let titleParams = undefined;
let titlePrefix = ''; // "(2) " while a hidden page has news (notify.js)
/** @type {Set<(loc: string) => void>} */
const listeners = new Set();
// Attribute bindings (bindAttr): element → attribute → [key, params].
/** @type {WeakMap<Element, Map<string, [string, Params | undefined]>>} */
const attrBindings = new WeakMap();

// extend adds strings, e.g. extend({en: {'chat.send': 'Send'}, 'zh-CN': {'chat.send': '发送'}}). A
// module's strings arrive with the module, which may load after the page was translated (init): the
// page's elements bound to the keys it adds, which showed the bare key until then, are translated now.
/** @param {Record<string, Dictionary>} dicts */
export function extend(dicts) {
  /** @type {Set<string>} */
  const added = new Set();
  for (const [loc, entries] of Object.entries(dicts)) {
    if (!dictionaries[loc]) throw new Error(`i18n: unknown locale ${loc}`);
    Object.assign(dictionaries[loc], entries);
    for (const key of Object.keys(entries)) added.add(key);
  }
  if (translated) translate(document, added);
}

export function locale() {
  return current;
}

// initialLocale: the stored choice, else Chinese for a browser language starting with "zh", else English.
export function initialLocale() {
  const stored = read('local', STORAGE_KEY);
  if (stored && LOCALES.includes(stored)) return stored;
  const lang = (navigator.languages && navigator.languages[0]) || navigator.language || '';
  return lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

// t translates key with params. A param may itself be a translation, {$t: key, params}, so a message
// that names a field ("Not saved. Tempo (BPM): ...") is re-translated as a whole on a switch.
/**
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params) {
  const entry = dictionaries[current][key] ?? dictionaries.en[key];
  if (entry === undefined) return key;
  const p = resolve(params);
  if (typeof entry === 'function') return entry(p, current);
  return entry.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ name) => (p[name] !== undefined ? String(p[name]) : m));
}

/**
 * @param {Params | undefined} params
 * @returns {Record<string, unknown>}
 */
function resolve(params) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [name, v] of Object.entries(params || {})) out[name] = Array.isArray(v) ? v.map(translated1) : translated1(v);
  return out;
}

// translated1 is a param as a string when it is a translation ({$t, params}), else as it is.
/** @param {unknown} v */
function translated1(v) {
  const x = /** @type {{ $t?: unknown, params?: Params }} */ (v);
  return x && typeof x === 'object' && typeof x.$t === 'string' ? t(x.$t, x.params) : v;
}

// init picks the initial locale and translates the page. Call once, before rendering.
export function init() {
  current = initialLocale();
  document.documentElement.lang = current;
  translate(document);
  translated = true;
}

// setLocale switches the language of the page and remembers it when storage allows (with storage
// disabled the switch still works for this page).
/** @param {string} loc */
export function setLocale(loc) {
  if (!LOCALES.includes(loc)) return;
  write('local', STORAGE_KEY, loc);
  if (loc === current) return;
  current = loc;
  document.documentElement.lang = loc;
  translate(document);
  for (const fn of listeners) fn(loc);
}

// onChange registers fn(locale) for strings that are not bound to an element (rare: prefer binding).
/** @param {(loc: string) => void} fn */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// bindText makes el's text the translation of key and keeps it so across switches.
// (Its arguments stay untyped for the checker: pages spread i18n entries into it, bindText(el, ...entry).)
export function bindText(el, key, params) {
  // Only what changes is written: a page re-renders its header and notes on every change of the board,
  // and each write would make the browser restyle and lay out the element again.
  if (el.dataset.i18n !== key) el.dataset.i18n = key;
  const args = params ? JSON.stringify(params) : undefined;
  if (args !== el.dataset.i18nArgs) {
    if (args === undefined) delete el.dataset.i18nArgs;
    else el.dataset.i18nArgs = args;
  }
  const text = t(key, params);
  if (el.textContent !== text) el.textContent = text;
  return el;
}

// bindAttr does the same for an attribute (aria-label, placeholder, title). The binding is kept beside
// the element, not written into it (a grid binds the name of each of its 512 bars on every change):
// data-i18n-attr names the bound attributes, for translate() to find the element.
export function bindAttr(el, attr, key, params) {
  let bound = attrBindings.get(el);
  if (!bound) {
    bound = new Map();
    attrBindings.set(el, bound);
  }
  if (!bound.has(attr)) el.dataset.i18nAttr = [...bound.keys(), attr].join(' ');
  bound.set(attr, [key, params]);
  const text = t(key, params);
  if (el.getAttribute(attr) !== text) el.setAttribute(attr, text);
  return el;
}

// setTitle binds document.title.
/**
 * @param {string} key
 * @param {Params} [params]
 */
export function setTitle(key, params) {
  titleKey = key;
  titleParams = params;
  document.title = titlePrefix + t(key, params);
}

// setTitlePrefix puts prefix before the title, kept across title changes and switches ('' removes it).
/** @param {string} prefix */
export function setTitlePrefix(prefix) {
  titlePrefix = prefix;
  if (titleKey) document.title = prefix + t(titleKey, titleParams);
}

// translate re-renders the bound strings under root (and the title): every one, or those of the keys
// in only (a Set).
/**
 * @param {ParentNode} root
 * @param {Set<string>} [only]
 */
export function translate(root, only) {
  const wanted = (/** @type {string | null | undefined} */ key) => !only || only.has(/** @type {string} */ (key));
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) {
    if (!wanted(el.dataset.i18n)) continue;
    const args = el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : undefined;
    const text = t(el.dataset.i18n, args);
    if (el.textContent !== text) el.textContent = text;
  }
  for (const attr of STATIC_ATTRS) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      const key = el.getAttribute(`data-i18n-${attr}`);
      if (wanted(key)) el.setAttribute(attr, t(key));
    }
  }
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const [attr, [key, params]] of attrBindings.get(el) || []) {
      if (wanted(key)) el.setAttribute(attr, t(key, params));
    }
  }
  if (titleKey && wanted(titleKey)) document.title = titlePrefix + t(titleKey, titleParams);
}

// bindLanguageSelect wires the header's <select>: it shows the current locale and switches on change.
/** @param {PageElement} select the header's <select> */
export function bindLanguageSelect(select) {
  select.value = current;
  select.addEventListener('change', () => setLocale(select.value));
  onChange((loc) => {
    if (select.value !== loc) select.value = loc;
  });
}
