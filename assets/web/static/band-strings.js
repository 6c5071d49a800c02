// Strings of the band view (share-panel.js on the board page, join-page.js, follow-page.js). English and
// 简体中文; added to the page's dictionaries with i18n.extend when one of those modules is imported.

import { extend } from './i18n.js';

export const STRINGS = {
  en: {
    'band.share': 'Share with the band',
    'band.shareHint': 'Phones on this Wi-Fi scan the code (or open the link) and follow this page: the song, the bar being played. They can only read.',
    'band.linkLabel': 'Join link',
    'band.newKey': 'New join link',
    'band.stop': 'Stop sharing',
    'band.starting': 'Starting to share…',
    'band.sharing': 'Sharing with the band · {n} following',
    'band.stopped': 'Sharing stopped: the phones no longer follow.',
    'band.off': 'Sharing needs Tele started with tele serve --share. Stop Tele and start it that way, then try again.',
    'band.failed': 'Could not share: {message}',
    'band.joinHeading': 'Join the band',
    'band.joining': 'Joining…',
    'band.joinFailed': 'This join link no longer works. Ask the leader for the new one.',
    'band.joinNoKey': 'Open the join link the leader shares (scan the code on the leader’s screen).',
    'band.joinTooFast': 'Too many tries with a wrong link. Try again in {seconds} s.',
    'band.connecting': 'Connecting…',
    'band.live': 'Following the leader · {n} following',
    'band.offline': 'Connection lost, trying again…',
    'band.ended': 'The leader stopped sharing. Open the new join link to follow again.',
    'band.waiting': 'Waiting for the leader to open a song…',
    'band.title': 'Band view',
  },
  'zh-CN': {
    'band.share': '与乐队共享',
    'band.shareHint': '同一 Wi-Fi 上的手机扫描二维码（或打开链接）即可跟随此页：歌曲和正在演奏的小节。它们只能查看。',
    'band.linkLabel': '加入链接',
    'band.newKey': '新的加入链接',
    'band.stop': '停止共享',
    'band.starting': '正在开始共享…',
    'band.sharing': '正在与乐队共享 · {n} 人跟随',
    'band.stopped': '已停止共享：手机不再跟随。',
    'band.off': '共享需要用 tele serve --share 启动 Tele。请停止 Tele 并以此方式重新启动，然后再试。',
    'band.failed': '无法共享：{message}',
    'band.joinHeading': '加入乐队',
    'band.joining': '正在加入…',
    'band.joinFailed': '此加入链接已失效。请向领奏者索取新链接。',
    'band.joinNoKey': '请打开领奏者共享的加入链接（扫描领奏者屏幕上的二维码）。',
    'band.joinTooFast': '错误链接尝试次数过多。请在 {seconds} 秒后再试。',
    'band.connecting': '正在连接…',
    'band.live': '正在跟随领奏者 · {n} 人跟随',
    'band.offline': '连接中断，正在重试…',
    'band.ended': '领奏者已停止共享。打开新的加入链接即可再次跟随。',
    'band.waiting': '正在等待领奏者打开歌曲…',
    'band.title': '乐队视图',
  },
};

extend(STRINGS);
