// Entry point of every page. It erases the URL fragment first (it may carry secrets), sets up the
// language, then starts the page named by <body data-page>.

import { takeFragment } from './fragment.js';
import * as i18n from './i18n.js';

const fragment = takeFragment();

async function main() {
  i18n.init();
  const select = document.getElementById('lang');
  if (select) i18n.bindLanguageSelect(select);
  const page = document.body.dataset.page;
  if (page === 'board') {
    // The board and the chat panel start side by side; neither waits for the other. A pairing's answer
    // carries the board's capability, which the board page takes once it has started.
    const [{ bootBoardPage }, { bootChatPanel }] = await Promise.all([import('./board-page.js'), import('./chat-panel.js')]);
    const board = bootBoardPage({ fragment });
    const onCapability = (capability) => board.then((page) => page.grant(capability));
    await Promise.all([board, bootChatPanel({ fragment, onCapability })]);
  } else if (page === 'index') {
    const { bootIndexPage } = await import('./index-page.js');
    await bootIndexPage();
  }
  document.documentElement.dataset.ready = 'true';
}

main();
