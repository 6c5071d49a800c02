// English / 简体中文. One dictionary per locale, extensible (a chat panel adds its strings with
// extend). Every generated string on a page is bound to a key, so a language switch re-renders all of
// them, and nothing else: board content is never a key, and no listener here touches the board, the
// player or the scroll position.
//
// Binding:
//   HTML:  <span data-i18n="player.play">Play</span>          textContent
//          <input data-i18n-aria-label="field.title">          aria-label (also -placeholder, -title)
//   JS:    bindText(el, key, params), bindAttr(el, 'aria-label', key, params)
// Values are strings with {name} placeholders or functions (params, locale) → string.

import { read, write } from './storage.js';

export const LOCALES = ['en', 'zh-CN'];
export const STORAGE_KEY = 'tele.locale';
const STATIC_ATTRS = ['aria-label', 'placeholder', 'title'];

const dictionaries = {
  en: {
    'lang.label': 'Language',
    'skip': 'Skip to content',
    'nav.boards': 'All boards',
    'title.index': 'Chord boards · Tele',
    'title.board': '{title} · Tele chord board',
    'title.boardLoading': 'Chord board · Tele',

    'home.heading': 'Chord boards',
    'home.lede': 'Chord charts on this computer. Open one to play it; edit it with its edit link.',
    'home.loading': 'Loading boards…',
    'home.loadFailed': 'Could not load the boards. Is tele serve still running?',
    'home.empty': 'No boards yet. Create the first one below.',
    'home.setAside': (p) =>
      `${p.n === 1 ? 'One thing' : `${p.n} things`} could not be read and ${p.n === 1 ? 'was' : 'were'} put aside, not deleted: ${p.names.map((x) => t(x.$t, x.params)).join(', ')}. Every other board works. To see why, run: tele board check`,
    'home.setAsideBoard': 'board {id}',
    'home.setAsideRevision': 'revision {rev} of board {id}',
    'home.setAsideKey': 'the edit link of board {id} (it has a new one)',
    'home.count': (p) => (p.n === 1 ? '1 board' : `${p.n} boards`),
    'home.revision': 'revision {rev}',
    'home.updated': (p, loc) => `changed ${formatDate(p.date, loc)}`,
    'new.heading': 'New board',
    'new.id': 'Board id',
    'new.idHint': 'Letters, digits, “-” and “_”. It becomes part of the link.',
    'new.title': 'Title',
    'new.create': 'Create board',
    'new.creating': 'Creating…',
    'new.badId': 'Use 1–64 letters, digits, “-” or “_”, starting with a letter or digit.',
    'new.needTitle': 'Give the board a title.',
    'new.exists': 'A board with this id already exists.',
    'new.tooFast': 'Many boards were made just now. Try again in {seconds} s.',
    'new.failed': 'Could not create the board: {message}',

    'board.loading': 'Loading the board…',
    'board.notFound': 'There is no board “{id}” here.',
    'board.loadFailed': 'Could not load the board. Is tele serve still running?',
    'ro.before': 'Read-only. To edit, ask whoever made this board for its edit link, or run ',
    'ro.after': ' on the computer running Tele and open the link it prints.',
    'meta.key': 'Key {key}',
    'meta.noKey': 'No key',
    'meta.tempo': '{tempo} BPM',
    'meta.noTempo': 'no tempo',
    'meta.view': (p) => [
      p.instrument ? `${p.instrument} instrument${p.sounds ? ` (concert ${p.sounds})` : ''}` : '',
      p.capo ? `Capo ${p.capo}${p.sounds && !p.instrument ? ` (sounds in ${p.sounds})` : ''}` : '',
      p.from ? `Transposed from ${p.from}` : p.n ? `Transposed ${p.n}` : '',
      p.numbers ? 'Nashville numbers' : '',
    ].filter(Boolean).join(' · '),
    'meta.beats': (p) => (p.beats === 1 ? '1 beat per bar' : `${p.beats} beats per bar`),
    'field.title': 'Title',
    'field.description': 'Description',
    'field.key': 'Key',
    'field.noKey': 'none',
    'field.tempo': 'Tempo (BPM)',
    'field.beats': 'Beats per bar',
    'field.sections': 'Sections',
    'field.sectionLabel': 'Label of section {n}',
    'field.bar': 'Bar {n}',

    'grid.label': 'Chord grid',
    'section.aria': 'Section {name}',
    'section.unnamed': '{n}',
    'section.moveUp': 'Move section {name} up',
    'section.moveDown': 'Move section {name} down',
    'section.remove': 'Remove section {name}',
    'section.add': 'Add section',
    'section.addBar': 'Add bar to section {name}',
    'section.addBarShort': 'Add bar',
    'bar.aria': 'Bar {n}: {chords}',
    'bar.edit': 'Edit bar {n}: {chords}',

    'dialog.rhythm': 'Beats of each chord',
    'dialog.rhythmHint': 'Or type a dot for each beat more, like C . . G7.',
    'dialog.rhythmEven': 'Evenly',
    'dialog.rhythmOne': 'The whole bar',
    'dialog.beatsSum': 'These chords take {sum} beats; the bar has {beats}. Add or remove dots.',
    'dialog.beatsLead': 'A dot goes on with the chord before it: start with a chord.',
    'edit.pasteBeats': 'Not pasted: “{cell}” takes {sum} beats; a bar has {beats}.',
    'dialog.heading': 'Bar {n}',
    'dialog.chords': 'Chords',
    'dialog.hint': 'One to four chords separated by spaces, such as Am7 D7 or F#m7b5/C#. N.C. means no chord. Cø, CΔ, C-7 and B♭ are fine too.',
    'chord.unknown': (p) =>
      p.suggestion
        ? `Not a chord Tele knows: “${p.symbol}”. Did you mean “${p.suggestion}”?`
        : `Not a chord Tele knows: “${p.symbol}”. Write a root (C … B) and a quality, such as Am7 or F#m7b5; add /E for a bass note; N.C. means no chord.`,
    'chord.useSuggestion': 'Use {suggestion}',
    'dialog.respelled': 'Will be written {chords}',
    'dialog.simileTyped': 'A % bar: it plays the chords of the bar before.',
    'dialog.empty': 'A bar needs at least one chord (N.C. for none).',
    'dialog.tooMany': 'A bar holds at most four chords.',
    'dialog.loading': 'The chord catalogue is still loading.',
    'picker.legend': 'Pick from the catalogue',
    'picker.root': 'Root',
    'picker.quality': 'Quality',
    'picker.major': 'major',
    'picker.bass': 'Bass',
    'picker.noBass': 'root',
    'picker.replace': 'Use this chord',
    'picker.add': 'Add to bar',
    'dialog.movePrev': 'Move earlier',
    'dialog.moveNext': 'Move later',
    'dialog.insert': 'Insert a bar after',
    'dialog.remove': 'Remove bar',
    'dialog.cancel': 'Cancel',
    'dialog.apply': 'Apply',

    'edit.save': 'Save',
    'edit.discard': 'Discard changes',
    'edit.dirty': 'Unsaved changes',
    'edit.saving': 'Saving…',
    'edit.saved': 'Saved as revision {rev}',
    'edit.undo': 'Undo my last save',
    'edit.undone': 'Your last save is undone: revision {rev} has the content of revision {from}.',
    'edit.undoStale': 'Not undone: the board changed since your save. Nothing was lost; look at the history.',
    'edit.undoFailed': 'Not undone: {message}',
    'edit.invalid': 'Not saved. {field}: {rule}',
    'edit.pasteBad': 'Not pasted: each bar holds 1 to 4 chords.',
    'edit.sectionFull': 'Not pasted: a section holds at most 64 bars.',
    'edit.tooManyBars': 'A board holds at most {max} bars, and this one is full. Remove a bar first.',
    'rule.title': 'give the board a title of 1 to 120 characters.',
    'rule.description': 'a description holds at most 2,000 characters.',
    'rule.key': 'choose a key from the list, or none.',
    'rule.tempo': 'use a whole number of beats per minute from 30 to 300.',
    'rule.beats': 'use a whole number of beats from 1 to 12.',
    'rule.sections': 'a board has 1 to 32 sections.',
    'rule.label': 'a section label holds at most 40 characters.',
    'rule.bars': 'a section holds 1 to 64 bars.',
    'rule.totalBars': 'a board holds at most 512 bars.',
    'rule.bar': 'a bar holds 1 to 4 chords (N.C. for none).',
    'edit.unauthorized': 'Not saved: this page has no valid edit link for the board. Run tele board link {id} for a fresh one.',
    'claim.used': 'This edit link was already used, or is more than a day old: you can look at the board, not change it. For a new link, run tele board link {id} on the computer running Tele.',
    'claim.tooMany': 'Too many edit links that do not work were tried for this board. Wait a minute, then open yours again.',
    'claim.failed': 'This page could not be opened for editing ({message}). Reload it to try again.',
    'cap.new': 'New edit link',
    'cap.label': 'New edit link',
    'cap.made': 'A new edit link is ready. Earlier edit links no longer work: share this one with whoever should edit.',
    'cap.copy': 'Copy',
    'cap.copied': 'Copied.',
    'cap.copyFailed': 'Could not copy; select the link and copy it yourself.',
    'cap.failed': 'No new edit link: {message}',
    'cap.replaced': 'Read-only now: someone made a new edit link for this board, so the one this page used no longer works. Ask for the new link, or run tele board link {id}.',
    'edit.rateLimited': 'Not saved: too many saves at once. Try again in a moment.',
    'edit.diskFull': 'Not saved: the disk of the computer running Tele is full. Free some space, then save again.',
    'edit.network': 'Not saved: Tele could not be reached. Your changes are kept; try again.',
    'edit.failed': 'Not saved: {message}',
    'edit.reapplied': 'Your changes are re-applied on revision {rev}. Check them, then save.',
    'edit.discarded': 'Your changes were discarded; this is revision {rev}.',

    'conflict.heading': 'The board changed while you were editing',
    'conflict.intro': 'Revision {rev} was saved somewhere else, so your save was not made. Nothing you typed is lost: re-apply your changes on top of the new revision, or discard them.',
    'conflict.theirs': 'Changed elsewhere',
    'conflict.yours': 'Your unsaved changes',
    'conflict.reapply': 'Re-apply my changes',
    'conflict.discard': 'Discard my changes',
    'barConflict.heading': 'The same bar was changed in two places',
    'barConflict.intro': 'Choose the chords to keep for each bar; saving waits until you have.',
    'barConflict.item': 'Bar {n}: changed elsewhere to {theirs}; yours is {mine}.',
    'barConflict.keepMine': 'Keep mine ({mine})',
    'barConflict.useTheirs': 'Use theirs ({theirs})',
    'conflict.dropped': 'These changes could not be re-applied because their place no longer exists:',
    'rebased.note': 'Revision {rev} arrived while you were editing. Your unsaved changes stay on top of it.',
    'rebased.details': 'What changed',
    'toast.dismiss': 'Dismiss',

    'conn.connecting': 'Connecting…',
    'conn.live': 'Live',
    'conn.offline': 'Connection lost. Reconnecting in {s} s…',
    'conn.retry': 'Reconnect now',

    'player.label': 'Player',
    'player.play': 'Play',
    'player.stop': 'Stop',
    'player.countIn': 'Count-in',
    'player.loop': 'Loop',
    'player.loopRange': 'Bars the loop plays',
    'player.loopSection': 'Loop a section',
    'player.loopWhole': 'the whole chart',
    'player.loopSectionOf': 'section {name} (bars {from}–{to})',
    'player.loopCustom': 'the bars chosen',
    'player.loopFrom': 'bars',
    'player.loopTo': 'to',
    'player.click': 'Click',
    'player.tempoGroup': 'Practice tempo (the board keeps its own); keys [ and ]',
    'player.slower': 'Slower by 5 BPM',
    'player.faster': 'Faster by 5 BPM',
    'player.tempoPractice': '{tempo} BPM (board {board})',
    'player.position': (p) => (p.times > 1 ? `Bar ${p.n} · ${ordinal(p.pass)} time` : `Bar ${p.n}`),
    'player.countingIn': 'Count-in {beat}',
    'player.unsupported': 'This browser cannot play audio.',

    // Stage mode and printing (stage.js).
    'stage.tools': 'Stage and print',
    'stage.enter': 'Stage',
    'stage.enterTitle': 'Stage mode: full screen, only the chart',
    'stage.leaveTitle': 'Back to the whole page (Esc)',
    'stage.leave': 'Leave stage',
    'stage.smaller': 'Smaller chords',
    'stage.larger': 'Larger chords',
    'stage.size': 'Chord size {n}%',
    'print.action': 'Print',
    'print.aria': 'Print the chart',

    'view.label': 'View: transpose, capo, instrument, numbers (this browser only)',
    'view.summary': 'Transpose · capo · instrument · numbers',
    // What the closed panel's summary says the view changes: "+3 · capo 3 · 1 4 5".
    'view.badge': (p) => [p.shift, p.capo ? `capo ${p.capo}` : '', p.instrument ? `${p.instrument} instr.` : '', p.numbers ? '1 4 5' : ''].filter(Boolean).join(' · '),
    'view.transpose': 'Transpose',
    'view.down': 'Down a semitone',
    'view.up': 'Up a semitone',
    'view.shiftAria': (p) => (p.n === 0 ? 'Not transposed' : `${p.n > 0 ? 'Up' : 'Down'} ${Math.abs(p.n)} ${Math.abs(p.n) === 1 ? 'semitone' : 'semitones'}`),
    'view.toKey': 'Key',
    'view.keyNeeded': 'set the board’s key first',
    'view.capo': 'Capo',
    'view.noCapo': 'none',
    'view.capoN': 'fret {n}',
    'view.numbersLabel': 'Numbers',
    'view.instrument': 'Instrument',
    'view.short': 'Short signs (∆7 ø7 °7)',
    'view.concert': 'concert pitch (C)',
    'view.instrumentName': '{name} instrument',
    'view.instrumentKey': 'Written for {name} instruments: key of {written}; it sounds in {sounding}. This device remembers the instrument for every board.',
    'view.instrumentNoKey': 'Written for {name} instruments. This device remembers the instrument for every board.',
    'view.reset': 'Reset view',
    'view.apply': 'Transpose the board',
    'view.applyTo': 'Transpose the board to {key}',
    'view.applyBy': 'Transpose the board {n}',
    'view.transposed': 'Shown {n} semitones: key of {key} (the board is in {from}). Only this browser sees it.',
    'view.transposedNoKey': 'Shown {n} semitones. Only this browser sees it.',
    'view.capoKey': 'Capo {capo}: play these shapes; it sounds in {sounding}. The shapes are in {shapes}.',
    'view.capoShapes': 'Capo {capo}: play these shapes.',
    'view.numbers': 'Nashville numbers in {key}.',
    'view.numbersNeedKey': 'Numbers need the board’s key. Set a key, then numbers show.',

    'chg.title': 'Title: “{from}” → “{to}”',
    'chg.description': 'Description changed',
    'chg.key': 'Key: {from} → {to}',
    'chg.tempo': 'Tempo: {from} → {to} BPM',
    'chg.beats': 'Beats per bar: {from} → {to}',
    'chg.sections': 'Number of sections: {from} → {to}',
    'chg.label': 'Section {n} label: “{from}” → “{to}”',
    'chg.barCount': 'Section {name}: {from} → {to} bars',
    'chg.bar': 'Section {name}, bar {n}: {from} → {to}',
    'chg.more': '…and {n} more',
    'chg.none': 'No difference in content.',
    'op.label': 'Label of section {s} → “{value}”',
    'op.bar': 'Section {s}, bar {b} → {chords}',
    'op.insertBar': 'New bar in section {s}',
    'op.removeBar': 'Removing bar {b} of section {s}',
    'op.moveBar': 'Moving bar {b} of section {s}',
    'op.removeSection': 'Removing section {s}',
    'op.moveSection': 'Moving section {s}',
    'op.other': 'An edit of section {s}',
  },
  'zh-CN': {
    'lang.label': '语言',
    'skip': '跳到正文',
    'nav.boards': '全部和弦谱',
    'title.index': '和弦谱 · Tele',
    'title.board': '{title} · Tele 和弦谱',
    'title.boardLoading': '和弦谱 · Tele',

    'home.heading': '和弦谱',
    'home.lede': '这台电脑上的和弦谱。打开即可播放；用编辑链接打开即可编辑。',
    'home.loading': '正在加载和弦谱…',
    'home.loadFailed': '无法加载和弦谱。tele serve 还在运行吗？',
    'home.empty': '还没有和弦谱。在下面新建第一个。',
    'home.setAside': (p) =>
      `有 ${p.n} 项无法读取，已移到一旁（没有删除）：${p.names.map((x) => t(x.$t, x.params)).join('、')}。其他和弦谱都能正常使用。要查看原因，请运行：tele board check`,
    'home.setAsideBoard': '和弦谱 {id}',
    'home.setAsideRevision': '和弦谱 {id} 的第 {rev} 版',
    'home.setAsideKey': '和弦谱 {id} 的编辑链接（已换成新的）',
    'home.count': (p) => `${p.n} 个和弦谱`,
    'home.revision': '第 {rev} 版',
    'home.updated': (p, loc) => `修改于 ${formatDate(p.date, loc)}`,
    'new.heading': '新建和弦谱',
    'new.id': '和弦谱 ID',
    'new.idHint': '字母、数字、“-”和“_”，会成为链接的一部分。',
    'new.title': '标题',
    'new.create': '创建',
    'new.creating': '正在创建…',
    'new.badId': '请使用 1–64 个字母、数字、“-”或“_”，并以字母或数字开头。',
    'new.needTitle': '请给和弦谱起个标题。',
    'new.exists': '已有同 ID 的和弦谱。',
    'new.tooFast': '刚刚新建了太多和弦谱，请 {seconds} 秒后再试。',
    'new.failed': '无法创建和弦谱：{message}',

    'board.loading': '正在加载和弦谱…',
    'board.notFound': '这里没有名为“{id}”的和弦谱。',
    'board.loadFailed': '无法加载和弦谱。tele serve 还在运行吗？',
    'ro.before': '只读。要编辑，请向创建此和弦谱的人索取编辑链接，或在运行 Tele 的电脑上运行 ',
    'ro.after': '，然后打开它输出的链接。',
    'meta.key': '{key} 调',
    'meta.noKey': '未定调',
    'meta.tempo': '每分钟 {tempo} 拍',
    'meta.noTempo': '未设速度',
    'meta.view': (p) => [
      p.instrument ? `${p.instrument} 调乐器${p.sounds ? `（实际音高 ${p.sounds} 调）` : ''}` : '',
      p.capo ? `变调夹 ${p.capo}${p.sounds && !p.instrument ? `（实际为 ${p.sounds} 调）` : ''}` : '',
      p.from ? `由 ${p.from} 调移调` : p.n ? `移调 ${p.n}` : '',
      p.numbers ? '级数' : '',
    ].filter(Boolean).join(' · '),
    'meta.beats': '每小节 {beats} 拍',
    'field.title': '标题',
    'field.description': '说明',
    'field.key': '调',
    'field.noKey': '无',
    'field.tempo': '速度（BPM）',
    'field.beats': '每小节拍数',
    'field.sections': '段落',
    'field.sectionLabel': '第 {n} 段的标记',
    'field.bar': '第 {n} 小节',

    'grid.label': '和弦网格',
    'section.aria': '段落 {name}',
    'section.unnamed': '{n}',
    'section.moveUp': '上移段落 {name}',
    'section.moveDown': '下移段落 {name}',
    'section.remove': '删除段落 {name}',
    'section.add': '添加段落',
    'section.addBar': '在段落 {name} 末尾添加小节',
    'section.addBarShort': '添加小节',
    'bar.aria': '第 {n} 小节：{chords}',
    'bar.edit': '编辑第 {n} 小节：{chords}',

    'dialog.rhythm': '每个和弦的拍数',
    'dialog.rhythmHint': '也可以每多一拍打一个点，例如 C . . G7。',
    'dialog.rhythmEven': '平均分配',
    'dialog.rhythmOne': '整小节',
    'dialog.beatsSum': '这些和弦共 {sum} 拍，而这个小节有 {beats} 拍。请增减点。',
    'dialog.beatsLead': '点表示延续前一个和弦：请以和弦开头。',
    'edit.pasteBeats': '未粘贴：“{cell}”共 {sum} 拍，而每小节 {beats} 拍。',
    'dialog.heading': '第 {n} 小节',
    'dialog.chords': '和弦',
    'dialog.hint': '一到四个和弦，用空格分隔，例如 Am7 D7 或 F#m7b5/C#。N.C. 表示无和弦。也可以写 Cø、CΔ、C-7、B♭ 等。',
    'chord.unknown': (p) =>
      p.suggestion
        ? `Tele 不认识这个和弦：“${p.symbol}”。你是想写“${p.suggestion}”吗？`
        : `Tele 不认识这个和弦：“${p.symbol}”。请写根音（C … B）加和弦性质，例如 Am7 或 F#m7b5；加 /E 表示低音；N.C. 表示无和弦。`,
    'chord.useSuggestion': '改用 {suggestion}',
    'dialog.respelled': '将写作 {chords}',
    'dialog.simileTyped': '% 小节：演奏前一小节的和弦。',
    'dialog.empty': '每小节至少要有一个和弦（无和弦请写 N.C.）。',
    'dialog.tooMany': '每小节最多四个和弦。',
    'dialog.loading': '和弦库还在加载。',
    'picker.legend': '从和弦库中选择',
    'picker.root': '根音',
    'picker.quality': '性质',
    'picker.major': '大三',
    'picker.bass': '低音',
    'picker.noBass': '同根音',
    'picker.replace': '使用此和弦',
    'picker.add': '加入本小节',
    'dialog.movePrev': '前移',
    'dialog.moveNext': '后移',
    'dialog.insert': '在后面插入小节',
    'dialog.remove': '删除小节',
    'dialog.cancel': '取消',
    'dialog.apply': '应用',

    'edit.save': '保存',
    'edit.discard': '放弃修改',
    'edit.dirty': '有未保存的修改',
    'edit.saving': '正在保存…',
    'edit.saved': '已保存为第 {rev} 版',
    'edit.undo': '撤销我上次的保存',
    'edit.undone': '已撤销你上次的保存：第 {rev} 版的内容来自第 {from} 版。',
    'edit.undoStale': '未撤销：你保存之后和弦谱又有改动。没有丢失任何内容；请查看历史。',
    'edit.undoFailed': '未撤销：{message}',
    'edit.invalid': '未保存。{field}：{rule}',
    'edit.pasteBad': '未粘贴：每小节 1 到 4 个和弦。',
    'edit.sectionFull': '未粘贴：每个段落最多 64 个小节。',
    'edit.tooManyBars': '和弦谱最多 {max} 个小节，已经满了。请先删除一个小节。',
    'rule.title': '标题需要 1 到 120 个字。',
    'rule.description': '说明最多 2000 个字。',
    'rule.key': '请从列表中选择调，或不定调。',
    'rule.tempo': '请填写 30 到 300 之间的整数（每分钟拍数）。',
    'rule.beats': '请填写 1 到 12 之间的整数。',
    'rule.sections': '和弦谱需要 1 到 32 个段落。',
    'rule.label': '段落标记最多 40 个字。',
    'rule.bars': '每个段落需要 1 到 64 个小节。',
    'rule.totalBars': '和弦谱最多 512 个小节。',
    'rule.bar': '每小节 1 到 4 个和弦（无和弦写 N.C.）。',
    'edit.unauthorized': '未保存：此页面没有有效的编辑链接。请运行 tele board link {id} 获取新链接。',
    'claim.used': '这个编辑链接已经用过，或已超过一天：只能查看和弦谱，不能修改。要获取新链接，请在运行 Tele 的电脑上执行 tele board link {id}。',
    'claim.tooMany': '此和弦谱刚才被试用了太多无效的编辑链接。请等一分钟，再打开你的链接。',
    'claim.failed': '无法以编辑方式打开此页面（{message}）。请刷新页面重试。',
    'cap.new': '新的编辑链接',
    'cap.label': '新的编辑链接',
    'cap.made': '新的编辑链接已生成。之前的编辑链接都已失效：请把这个链接分享给需要编辑的人。',
    'cap.copy': '复制',
    'cap.copied': '已复制。',
    'cap.copyFailed': '无法复制；请选中链接后自行复制。',
    'cap.failed': '未能生成新的编辑链接：{message}',
    'cap.replaced': '现已只读：有人为此和弦谱生成了新的编辑链接，本页使用的链接已失效。请索取新链接，或运行 tele board link {id}。',
    'edit.rateLimited': '未保存：保存太频繁，请稍后再试。',
    'edit.diskFull': '未保存：运行 Tele 的电脑磁盘已满。请腾出一些空间后再保存。',
    'edit.network': '未保存：无法连接 Tele。你的修改仍在，请重试。',
    'edit.failed': '未保存：{message}',
    'edit.reapplied': '你的修改已重新应用到第 {rev} 版上。请检查后保存。',
    'edit.discarded': '已放弃你的修改；当前为第 {rev} 版。',

    'conflict.heading': '你编辑期间，和弦谱已被修改',
    'conflict.intro': '第 {rev} 版已在别处保存，所以你的保存没有生效。你输入的内容都还在：可以把修改重新应用到新版本上，也可以放弃。',
    'conflict.theirs': '别处的修改',
    'conflict.yours': '你未保存的修改',
    'conflict.reapply': '重新应用我的修改',
    'conflict.discard': '放弃我的修改',
    'barConflict.heading': '同一小节在两处被修改',
    'barConflict.intro': '请为每个小节选择要保留的和弦；选好之前不能保存。',
    'barConflict.item': '第 {n} 小节：别处改成了 {theirs}；你的是 {mine}。',
    'barConflict.keepMine': '保留我的（{mine}）',
    'barConflict.useTheirs': '采用别处的（{theirs}）',
    'conflict.dropped': '以下修改无法重新应用，因为它们的位置已不存在：',
    'rebased.note': '你编辑期间收到了第 {rev} 版。你未保存的修改仍叠加在它之上。',
    'rebased.details': '修改内容',
    'toast.dismiss': '关闭',

    'conn.connecting': '正在连接…',
    'conn.live': '实时同步中',
    'conn.offline': '连接已断开，{s} 秒后重连…',
    'conn.retry': '立即重连',

    'player.label': '播放器',
    'player.play': '播放',
    'player.stop': '停止',
    'player.countIn': '预备拍',
    'player.loop': '循环',
    'player.loopRange': '循环演奏的小节',
    'player.loopSection': '循环一个段落',
    'player.loopWhole': '整首',
    'player.loopSectionOf': '段落 {name}（第 {from}–{to} 小节）',
    'player.loopCustom': '选定的小节',
    'player.loopFrom': '小节',
    'player.loopTo': '到',
    'player.click': '节拍器',
    'player.tempoGroup': '练习速度（和弦谱的速度不变）；按键 [ 和 ]',
    'player.slower': '减慢 5 BPM',
    'player.faster': '加快 5 BPM',
    'player.tempoPractice': '{tempo} BPM（原谱 {board}）',
    'player.position': (p) => (p.times > 1 ? `第 ${p.n} 小节 · 第 ${p.pass} 遍` : `第 ${p.n} 小节`),
    'player.countingIn': '预备 {beat}',
    'player.unsupported': '此浏览器无法播放音频。',

    // 演出模式与打印（stage.js）。
    'stage.tools': '演出与打印',
    'stage.enter': '演出',
    'stage.enterTitle': '演出模式：全屏，只显示和弦谱',
    'stage.leaveTitle': '回到完整页面（Esc）',
    'stage.leave': '退出演出',
    'stage.smaller': '和弦字号缩小',
    'stage.larger': '和弦字号放大',
    'stage.size': '和弦字号 {n}%',
    'print.action': '打印',
    'print.aria': '打印和弦谱',

    'view.label': '显示：移调、变调夹、乐器、级数（仅此浏览器）',
    'view.summary': '移调 · 变调夹 · 乐器 · 级数',
    'view.badge': (p) => [p.shift, p.capo ? `变调夹 ${p.capo}` : '', p.instrument ? `${p.instrument} 调乐器` : '', p.numbers ? '1 4 5' : ''].filter(Boolean).join(' · '),
    'view.transpose': '移调',
    'view.down': '降半音',
    'view.up': '升半音',
    'view.shiftAria': (p) => (p.n === 0 ? '未移调' : `${p.n > 0 ? '升' : '降'} ${Math.abs(p.n)} 个半音`),
    'view.toKey': '调',
    'view.keyNeeded': '请先设定和弦谱的调',
    'view.capo': '变调夹',
    'view.noCapo': '不用',
    'view.capoN': '第 {n} 品',
    'view.numbersLabel': '级数',
    'view.instrument': '乐器',
    'view.short': '简写记号（∆7 ø7 °7）',
    'view.concert': '实际音高（C 调乐器）',
    'view.instrumentName': '{name} 调乐器',
    'view.instrumentKey': '为 {name} 调乐器记谱：{written} 调，实际发声为 {sounding} 调。此设备对所有和弦谱记住这个乐器。',
    'view.instrumentNoKey': '为 {name} 调乐器记谱。此设备对所有和弦谱记住这个乐器。',
    'view.reset': '恢复原样',
    'view.apply': '把和弦谱移调',
    'view.applyTo': '把和弦谱移到 {key} 调',
    'view.applyBy': '把和弦谱移调 {n}',
    'view.transposed': '显示移调 {n} 个半音：{key} 调（原谱为 {from} 调）。只有此浏览器这样显示。',
    'view.transposedNoKey': '显示移调 {n} 个半音。只有此浏览器这样显示。',
    'view.capoKey': '变调夹第 {capo} 品：按这些指法弹，实际发声为 {sounding} 调。指法按 {shapes} 调。',
    'view.capoShapes': '变调夹第 {capo} 品：按这些指法弹。',
    'view.numbers': '以 {key} 调显示级数（纳什维尔记谱）。',
    'view.numbersNeedKey': '显示级数需要先设定和弦谱的调。',

    'chg.title': '标题：“{from}” → “{to}”',
    'chg.description': '说明已修改',
    'chg.key': '调：{from} → {to}',
    'chg.tempo': '速度：{from} → {to} BPM',
    'chg.beats': '每小节拍数：{from} → {to}',
    'chg.sections': '段落数：{from} → {to}',
    'chg.label': '第 {n} 段的标记：“{from}” → “{to}”',
    'chg.barCount': '段落 {name}：{from} → {to} 小节',
    'chg.bar': '段落 {name} 第 {n} 小节：{from} → {to}',
    'chg.more': '……还有 {n} 处',
    'chg.none': '内容没有差别。',
    'op.label': '段落 {s} 的标记 → “{value}”',
    'op.bar': '段落 {s} 第 {b} 小节 → {chords}',
    'op.insertBar': '段落 {s} 的新小节',
    'op.removeBar': '删除段落 {s} 第 {b} 小节',
    'op.moveBar': '移动段落 {s} 第 {b} 小节',
    'op.removeSection': '删除段落 {s}',
    'op.moveSection': '移动段落 {s}',
    'op.other': '对段落 {s} 的修改',
  },
};

let current = 'en';
let translated = false; // init has translated the page
let titleKey = null;
let titleParams = undefined;
let titlePrefix = ''; // "(2) " while a hidden page has news (notify.js)
const listeners = new Set();
// Attribute bindings (bindAttr): element → attribute → [key, params].
const attrBindings = new WeakMap();

// extend adds strings, e.g. extend({en: {'chat.send': 'Send'}, 'zh-CN': {'chat.send': '发送'}}). A
// module's strings arrive with the module, which may load after the page was translated (init): the
// page's elements bound to the keys it adds, which showed the bare key until then, are translated now.
export function extend(dicts) {
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
  if (LOCALES.includes(stored)) return stored;
  const lang = (navigator.languages && navigator.languages[0]) || navigator.language || '';
  return lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

// ordinal writes 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st (English).
const ORDINAL = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
function ordinal(n) {
  return `${n}${ORDINAL[new Intl.PluralRules('en', { type: 'ordinal' }).select(n)]}`;
}

// t translates key with params. A param may itself be a translation, {$t: key, params}, so a message
// that names a field ("Not saved. Tempo (BPM): ...") is re-translated as a whole on a switch.
export function t(key, params) {
  const entry = dictionaries[current][key] ?? dictionaries.en[key];
  if (entry === undefined) return key;
  const p = resolve(params);
  if (typeof entry === 'function') return entry(p, current);
  return entry.replace(/\{(\w+)\}/g, (m, name) => (p[name] !== undefined ? String(p[name]) : m));
}

function resolve(params) {
  const out = {};
  for (const [name, v] of Object.entries(params || {})) {
    out[name] = v && typeof v === 'object' && typeof v.$t === 'string' ? t(v.$t, v.params) : v;
  }
  return out;
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
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// bindText makes el's text the translation of key and keeps it so across switches.
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
export function setTitle(key, params) {
  titleKey = key;
  titleParams = params;
  document.title = titlePrefix + t(key, params);
}

// setTitlePrefix puts prefix before the title, kept across title changes and switches ('' removes it).
export function setTitlePrefix(prefix) {
  titlePrefix = prefix;
  if (titleKey) document.title = prefix + t(titleKey, titleParams);
}

// translate re-renders the bound strings under root (and the title): every one, or those of the keys
// in only (a Set).
export function translate(root, only) {
  const wanted = (key) => !only || only.has(key);
  for (const el of root.querySelectorAll('[data-i18n]')) {
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

export function formatDate(iso, loc = current) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso ?? '');
  return new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

// bindLanguageSelect wires the header's <select>: it shows the current locale and switches on change.
export function bindLanguageSelect(select) {
  select.value = current;
  select.addEventListener('change', () => setLocale(select.value));
  onChange((loc) => {
    if (select.value !== loc) select.value = loc;
  });
}
