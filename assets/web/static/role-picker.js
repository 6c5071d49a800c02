// @ts-check
// A section's role (intro, verse, …, tag: docs/content.md) beside its free label. Editing, it is a
// disclosure in the section's head holding a radio group drawn as chips: the keyboard (Enter on the
// summary, arrow keys in the group) and the mouse (a click on a chip) both choose it. Reading, it is
// the role's name after the label.

import { h } from './dom.js';
import { bindAttr, bindText } from './i18n.js';
import { ROLES } from './form.js';
import './form-strings.js';

export class RolePicker {
  // onChange(role) is told the role chosen ('' for none).
  constructor(sectionIndex, onChange) {
    const name = `role-${sectionIndex}`;
    this.current = bindText(h('span', { class: 'role-current' }), 'role.none');
    this.group = h('fieldset', { class: 'chips role-chips' });
    this.legend = h('legend', { class: 'sr-only' });
    this.group.append(this.legend);
    for (const role of ['', ...ROLES]) {
      const input = h('input', { type: 'radio', name, value: role });
      input.addEventListener('change', () => input.checked && onChange(role));
      this.group.append(h('label', { class: 'chip', dataset: { value: role } }, input, bindText(h('span'), role ? `role.${role}` : 'role.none')));
    }
    this.summary = h('summary', { class: 'role-summary' }, bindText(h('span'), 'role.summary'), ': ', this.current);
    this.el = h('details', { class: 'section-role' }, this.summary, this.group);
  }

  // set shows the section's role; name is the section's name as the page says it.
  set(role, name) {
    const value = role || '';
    if (this.value !== value) {
      this.value = value;
      bindText(this.current, value ? `role.${value}` : 'role.none');
      for (const i of this.group.querySelectorAll('input')) i.checked = i.value === value;
    }
    if (this.name !== name) {
      this.name = name;
      bindText(this.legend, 'role.label', { name });
      bindAttr(this.summary, 'aria-label', 'role.label', { name });
    }
  }
}

// paintRoleName shows a section's role after its label on a page that reads only.
export function paintRoleName(el, role) {
  if (!role) {
    el.hidden = true;
    return;
  }
  if (el.dataset.i18n !== `role.${role}`) bindText(el, `role.${role}`);
  el.hidden = false;
}
