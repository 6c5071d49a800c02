// @ts-check
// Whether a board page has a chat panel to show, decided before any chat code or style is fetched: a
// board served by `tele serve` with no pairing in sight loads none of it (docs/performance.md).
//
// A page has a chat when it carries an invitation (#binding=…&invite=…), when this browser kept a
// binding for the board from an earlier pairing (the panel then says whether it still works), or when
// the server carries one (`tele host`: GET /api/capabilities says {"chat": true}).

import { request } from './api.js';
import { read } from './storage.js';

// bindingKey is where the chat panel keeps the binding id of a board in localStorage.
export const bindingKey = (board) => `tele.chat.binding:${board}`;

// ChatGate answers, once per page, whether the server carries a chat; the panel asks it again when it
// has neither an invitation nor a stored binding, and gets the same answer without a second request.
export class ChatGate {
  constructor(fragment, board) {
    this.invited = Boolean(fragment.get('binding') && fragment.get('invite'));
    this.stored = Boolean(board && read('local', bindingKey(board)));
    this.answer = null;
  }

  // serverHasChat → true when the server carries a chat; false when it does not or cannot say.
  serverHasChat() {
    this.answer ||= request('GET', '/api/capabilities').then((c) => Boolean(c?.chat), () => false);
    return this.answer;
  }

  async wanted() {
    return this.invited || this.stored || this.serverHasChat();
  }
}

// loadChatPanel fetches the chat panel's module and stylesheet together; the panel starts once its
// style is in, so it never shows unstyled.
export async function loadChatPanel() {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('./chat.css', import.meta.url).href;
  const styled = new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true }); // unstyled beats no chat at all
  });
  // Where board.html used to link it, right after app.css: the cascade stays as it was.
  const app = document.querySelector('link[rel="stylesheet"][href$="/app.css"]');
  if (app) app.after(link);
  else document.head.append(link);
  const [module] = await Promise.all([import('./chat-panel.js'), styled]);
  return module;
}
