// The strings of a song's words (lyric sections, the line editor, stage autoscroll), English and
// 简体中文, added to i18n.js's dictionaries when this module is first imported.

import { extend } from './i18n.js';

export const STRINGS = {
  en: {
    'lyrics.recall': 'Chorus',
    'lyrics.editLine': 'Edit line {n}: {text}',
    'lyrics.shownNotPlayed': 'Words: shown, not played',
    'lyrics.scroll': 'Autoscroll',
    'lyrics.scrolling': 'Autoscroll: on (tap to pause)',
    'lyrics.scrollPaused': 'Autoscroll: paused (tap to go on)',
    'lyrics.scrollSlower': 'Scroll slower',
    'lyrics.scrollFaster': 'Scroll faster',
    'lyrics.scrollSpeed': 'Speed {n}%',
  },
  'zh-CN': {
    'lyrics.recall': '副歌',
    'lyrics.editLine': '编辑第 {n} 行：{text}',
    'lyrics.shownNotPlayed': '歌词：只显示，不演奏',
    'lyrics.scroll': '自动滚动',
    'lyrics.scrolling': '自动滚动：进行中（轻点暂停）',
    'lyrics.scrollPaused': '自动滚动：已暂停（轻点继续）',
    'lyrics.scrollSlower': '滚动慢一些',
    'lyrics.scrollFaster': '滚动快一些',
    'lyrics.scrollSpeed': '速度 {n}%',
  },
};

extend(STRINGS);
