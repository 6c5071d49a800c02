// @ts-check
// Entry point of every page. It erases the URL fragment first (it may carry secrets), sets up the
// language, then starts the page named by <body data-page>.

import { takeFragment, claimCapability, claimRefusal } from './fragment.js';
import * as i18n from './i18n.js';
import { boardIdFromPath } from './board-path.js';
import { ChatGate, loadChatPanel } from './has-chat.js';
import { keep } from './keyring.js';
import { firstBoard } from './api.js';

const fragment = takeFragment();

async function main() {
  i18n.init();
  const select = document.getElementById('lang');
  if (select) i18n.bindLanguageSelect(select);
  const page = document.body.dataset.page;
  if (page === 'board') {
    // The board and the chat panel start side by side; neither waits for the other. The chat's code and
    // style load only when the page has a chat (has-chat.js). A pairing's answer carries the board's
    // capability, which the board page takes once it has started.
    // The board is asked for at once: its answer comes while the board page's modules are evaluated.
    const id = boardIdFromPath(location.pathname);
    const first = id ? firstBoard(id) : null;
    const gate = new ChatGate(fragment, id);
    const board = import('./board-page.js').then(({ bootBoardPage }) => bootBoardPage({ fragment, first }));
    const claim = fragment.get('claim');
    const claimed = !claim ? null : board.then((page) =>
      claimCapability(page.id, claim).then((capability) => {
        keep(page.id, capability); // an edit link opened here: this device's key ring keeps its key
        page.grant(capability);
      }, (err) => page.showMessage(claimRefusal(err, page.id))));
    const onCapability = (capability) => board.then((page) => page.grant(capability));
    const chat = gate.wanted().then(async (wanted) => {
      if (!wanted) return null;
      const { bootChatPanel } = await loadChatPanel();
      return bootChatPanel({ fragment, onCapability, serverHasChat: () => gate.serverHasChat() });
    });
    // Sharing with the band is the board page's; it waits for the page (share-panel.js).
    const share = board.then(async (page) => {
      const [{ bootSetNav }, { bootSharePanel }] = await Promise.all([import('./set-nav.js'), import('./share-panel.js')]);
      return bootSharePanel(page, await bootSetNav(page.id));
    });
    await Promise.all([board, chat, share, claimed]);
  } else if (page === 'join') {
    const { bootJoinPage } = await import('./join-page.js');
    await bootJoinPage({ fragment });
  } else if (page === 'follow') {
    const { bootFollowPage } = await import('./follow-page.js');
    await bootFollowPage();
  } else if (page === 'index') {
    const [{ bootIndexPage, refreshList }, { bootImportPanel }, { bootSetsPanel }] = await Promise.all([import('./index-page.js'), import('./import-panel.js'), import('./sets-panel.js')]);
    bootImportPanel({ onImported: refreshList });
    await Promise.all([bootIndexPage(), bootSetsPanel()]);
  }
  document.documentElement.dataset.ready = 'true';
}

main();
