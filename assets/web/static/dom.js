// @ts-check
// Small DOM helpers. Text always goes in as text (textContent, never HTML), so board content can
// never become markup.

// h creates an element: h('button', {class: 'x', type: 'button', dataset: {path: 'title'}}, 'text', child).
// Properties named on* are not supported on purpose: listeners are added with addEventListener.
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name === 'text') el.textContent = value;
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * byId is the page's element with that id. Its type names what the pages' controls found by id have
 * (PageElement: an input's value, a dialog's showModal, …); the markup (web/pages) says which it is.
 * @param {string} id
 * @returns {PageElement}
 */
export function byId(id) {
  return document.getElementById(id);
}

// setValue changes a form control's value only when it differs, so the caret and selection of a
// control the user is typing in stay where they are.
export function setValue(el, value) {
  const v = value === undefined || value === null ? '' : String(value);
  if (el.value !== v) el.value = v;
}

// show writes the hidden attribute only when it changes: writing it, even unchanged, restyles el.
export function show(el, visible) {
  if (el.hidden !== !visible) el.hidden = !visible;
}
