// @ts-check
// The join page (/join on the share listener): it posts the key from the link's fragment (already taken
// out of the address bar by app.js) and, once joined, opens the follow page. The key never goes in a URL
// the server sees.

import './band-strings.js';
import { byId } from './dom.js';
import { bindText, setTitle } from './i18n.js';
import { request } from './api.js';

export async function bootJoinPage({ fragment }) {
  setTitle('band.joinHeading');
  const status = byId('join-status');
  const key = fragment.get('key');
  if (!key) {
    bindText(status, 'band.joinNoKey');
    return;
  }
  try {
    await request('POST', '/api/join', { body: { key } });
    location.replace('/');
  } catch (err) {
    if (err.code === 'rate_limited') bindText(status, 'band.joinTooFast', { seconds: Math.max(1, Math.ceil((err.fields.retryAfterMs || 1000) / 1000)) });
    else bindText(status, 'band.joinFailed');
    status.dataset.state = 'failed';
  }
}
