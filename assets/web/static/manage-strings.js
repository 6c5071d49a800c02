// @ts-check
// Strings of board management (board-manage.js, link-box.js, the list page's new board): edit links,
// copying and deleting a board, duplicating a section, the title's length. English and 简体中文; added
// to the page's dictionaries with i18n.extend when a module that needs them is imported (extend
// translates the page's markup that named these keys before they existed).

import { extend } from './i18n.js';

export const STRINGS = {
  en: {
    'ring.held': 'Editable on this device',
    'ring.forget': 'Forget the edit key',
    'ring.forgetAria': 'Forget the edit key of {title} on this device',
    'ring.forgotten': 'This device no longer keeps the edit key of “{id}”: it opens read-only. To edit it again, open its edit link (tele board link {id} prints it).',
    'link.copy': 'Copy',
    'link.copied': 'Copied.',
    'link.copyFailed': 'Could not copy: the link is selected, copy it yourself (Ctrl+C, or ⌘C on a Mac).',
    'link.private': 'Keep this link private: anyone who has it can edit the board.',
    'link.label': 'Edit link',
    'link.failed': 'The edit link could not be made ({message}). This device keeps the edit key, so you can edit here; try again for a link.',

    'manage.label': 'This board',
    'manage.copyEditLink': 'Copy edit link',
    'manage.editLinkCopied': 'Edit link copied. Keep it private: anyone who has it can edit this board.',
    'manage.copyBoard': 'Copy board',
    'manage.copying': 'Copying…',
    'manage.copyMade': 'A copy of the saved board is ready: “{title}”, board {id}. This is its own edit link; this board stays as it is.',
    'manage.copyOpen': 'Open the copy',
    'manage.copyTooFast': 'No copy made: many boards were made just now. Try again in {seconds} s.',
    'manage.copyNetwork': 'No copy made: Tele could not be reached. Try again.',
    'manage.copyFailed': 'No copy made: {message}',
    'manage.delete': 'Delete board…',

    'delete.heading': 'Delete this board?',
    'delete.text': '“{title}” and all its history will be deleted, for everyone who has its link. This cannot be undone.',
    'delete.unsaved': 'Your unsaved changes will be lost too.',
    'delete.cancel': 'Keep the board',
    'delete.confirm': 'Delete board',
    'delete.deleting': 'Deleting…',
    'delete.changed': 'Not deleted: someone changed the board since you opened it (it is now revision {rev}). Look at it, then delete it again if you still want to.',
    'delete.unauthorized': 'Not deleted: this page has no valid edit link for the board.',
    'delete.rateLimited': 'Not deleted: too many changes at once. Try again in a moment.',
    'delete.network': 'Not deleted: Tele could not be reached. Try again.',
    'delete.failed': 'Not deleted: {message}',

    'gone.text': 'This board was deleted.',
    'gone.list': 'Go to all boards',

    'section.duplicate': 'Duplicate section {name}',
    'section.dupTooManyBars': 'Not duplicated: a board holds at most {max} bars, and a copy of section {name} would make {n}.',
    'section.dupTooManySections': 'Not duplicated: a board holds at most {max} sections.',

    'title.atLimit': 'A title holds at most {max} characters; what you type or paste past that is not kept.',

    'created.heading': 'Board “{title}” is ready',
    'created.text': 'This is its edit link: whoever opens it can edit the board. Tele shows it here only now; later, run tele board link {id} on this computer to see it again.',
    'created.open': 'Open the board',
  },
  'zh-CN': {
    'ring.held': '此设备可编辑',
    'ring.forget': '忘记编辑密钥',
    'ring.forgetAria': '在此设备上忘记 {title} 的编辑密钥',
    'ring.forgotten': '此设备不再保存“{id}”的编辑密钥：它将以只读方式打开。要再次编辑，请打开它的编辑链接（tele board link {id} 会输出它）。',
    'link.copy': '复制',
    'link.copied': '已复制。',
    'link.copyFailed': '无法复制：链接已选中，请自行复制（Ctrl+C，Mac 上按 ⌘C）。',
    'link.private': '请妥善保管此链接：任何拿到它的人都能编辑这个和弦谱。',
    'link.label': '编辑链接',
    'link.failed': '无法生成编辑链接（{message}）。这台设备保存了编辑密钥，你可以在这里编辑；稍后再试以获取链接。',

    'manage.label': '此和弦谱',
    'manage.copyEditLink': '复制编辑链接',
    'manage.editLinkCopied': '编辑链接已复制。请妥善保管：任何拿到它的人都能编辑这个和弦谱。',
    'manage.copyBoard': '复制和弦谱',
    'manage.copying': '正在复制…',
    'manage.copyMade': '已保存内容的副本已就绪：“{title}”，ID 为 {id}。这是副本自己的编辑链接；原和弦谱保持不变。',
    'manage.copyOpen': '打开副本',
    'manage.copyTooFast': '未复制：刚刚新建了太多和弦谱，请 {seconds} 秒后再试。',
    'manage.copyNetwork': '未复制：无法连接 Tele。请重试。',
    'manage.copyFailed': '未复制：{message}',
    'manage.delete': '删除和弦谱…',

    'delete.heading': '删除这个和弦谱？',
    'delete.text': '“{title}”及其全部历史都将被删除，所有持有链接的人都将无法再打开。此操作无法撤销。',
    'delete.unsaved': '你未保存的修改也会丢失。',
    'delete.cancel': '保留',
    'delete.confirm': '删除和弦谱',
    'delete.deleting': '正在删除…',
    'delete.changed': '未删除：在你打开之后有人修改了这个和弦谱（现在是第 {rev} 版）。请先看看，如仍要删除请再试一次。',
    'delete.unauthorized': '未删除：此页面没有有效的编辑链接。',
    'delete.rateLimited': '未删除：修改太频繁，请稍后再试。',
    'delete.network': '未删除：无法连接 Tele。请重试。',
    'delete.failed': '未删除：{message}',

    'gone.text': '这个和弦谱已被删除。',
    'gone.list': '前往全部和弦谱',

    'section.duplicate': '复制段落 {name}',
    'section.dupTooManyBars': '未复制：和弦谱最多 {max} 个小节，复制段落 {name} 后将有 {n} 个。',
    'section.dupTooManySections': '未复制：和弦谱最多 {max} 个段落。',

    'title.atLimit': '标题最多 {max} 个字；超出部分（输入或粘贴的）不会保留。',

    'created.heading': '和弦谱“{title}”已创建',
    'created.text': '这是它的编辑链接：打开它的人都能编辑。Tele 只在此时显示一次；以后可在这台电脑上运行 tele board link {id} 再次查看。',
    'created.open': '打开和弦谱',
  },
};

extend(STRINGS);
