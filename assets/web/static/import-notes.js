// What an importer says about a chart, in the page's language: each note of POST /api/import comes
// again as a code and its arguments (noteCodes, docs/api.md), and a song that could not become a board
// comes with an error code. The page says both from the code; a code it does not know (and ChordPro's
// notes, code "text") keeps the reader's English words.

import { extend } from './i18n.js';
import { MARK_TEXT } from './form-view.js';
import './form-strings.js';

const sign = (id) => MARK_TEXT[id] || String(id ?? '');

// TEXT_NOTE_CODES are the chords-over-lyrics reader's codes that have words of their own.
export const TEXT_NOTE_CODES = ['tab_left_out', 'tab_stops', 'wide_columns', 'chord_markup', 'heading_chords'];

const NOTE_CODES = ['key_unknown', 'chord_nearest', 'chord_text_unknown', 'bar_chords_cut', 'text_left_out', 'two_bar_repeat',
  'alternates_left_out', 'rhythm_evened', 'simile_with_chords', 'count_in', 'sign_left_out', 'sign_left_out_place',
  'sign_repeated', 'al_ending_fine', 'al_ending_left_out', 'rhythm_nearest', 'jump_moved', 'jump_al_coda', 'repeat_from',
  'repeat_start_left_out', 'al_ending_jump', ...TEXT_NOTE_CODES];

// FAILURE_CODES are the errors a song of a playlist (or a whole import) is refused with that have
// words of their own (import.error.* in form-strings.js).
const FAILURE_CODES = ['not_a_grid', 'unreadable_chart', 'too_many_songs', 'rate_limited', 'invalid_content', 'too_large'];

// noteEntry is the i18n entry of the note text whose code is nc ({code, args}).
export function noteEntry(text, nc) {
  const code = nc?.code;
  const args = { ...(nc?.args || {}) };
  if (!NOTE_CODES.includes(code)) return ['import.note.text', { text: code === 'text' && typeof args.text === 'string' ? args.text : text }];
  if ('sign' in args) args.sign = sign(args.sign);
  if ('read' in args) args.read = sign(args.read);
  if (code === 'sign_left_out') {
    args.rule = typeof args.ruleId === 'string' && /^\w+$/.test(args.ruleId)
      ? { $t: `form.rule.${args.ruleId}`, params: args.ruleArgs || {} }
      : { $t: 'import.note.text', params: { text: String(args.rule ?? '') } };
    delete args.ruleArgs;
  }
  return [`import.note.${code}`, args];
}

// failureEntry says why a song (or the whole import) was refused: the code's words when the page has
// them, else the server's message.
export function failureEntry(code) {
  return FAILURE_CODES.includes(code) ? `import.reason.${code}` : null;
}

export const STRINGS = {
  en: {
    'import.note.text': '{text}',
    'import.note.key_unknown': 'the key “{key}” is not one Tele knows: the board has no key',
    'import.note.chord_nearest': '{from} became {to}, the nearest chord in Tele’s catalogue',
    'import.note.chord_text_unknown': 'the chord {from} (its quality written as text) is not one Tele knows: it was read as {to}',
    'import.note.bar_chords_cut': 'a bar with {chords} chords kept the first four',
    'import.note.text_left_out': 'the text “{text}” was left out',
    'import.note.two_bar_repeat': 'a two-bar repeat (r) was written out as the two bars before it',
    'import.note.alternates_left_out': 'alternate chords in parentheses were left out',
    'import.note.rhythm_evened': 'the chords of bar {bar} were written closer together than a beat ({written}): they share the bar evenly',
    'import.note.rhythm_nearest': 'the chords of bar {bar} were written between beats ({written}): each was put on the nearest beat',
    'import.note.jump_moved': 'the {sign} written over bar {from} was read at bar {to}, the end of the form, where iReal Pro plays it',
    'import.note.jump_al_coda': 'the {sign} at bar {bar} was read as {read}: the chart has To Coda and a coda after it',
    'import.note.repeat_from': 'the repeat sign at bar {bar} has no start repeat: the repeat was read from bar {from}, as musicians read it',
    'import.note.repeat_start_left_out': 'the start repeat at bar {bar} never ends: it was left out',
    'import.note.simile_with_chords': 'a % bar with chords in it was read as its chords (bar {bar})',
    'import.note.count_in': 'the first bar repeats a count-in with no chord: it is N.C.',
    'import.note.sign_left_out': 'the sign {sign} at bar {bar} was left out: {rule}',
    'import.note.sign_left_out_place': 'the sign {sign} at bar {bar} was left out: it has no bar of its own',
    'import.note.sign_repeated': 'the sign {sign} at bar {bar} was left out: a chart has one',
    'import.note.al_ending_fine': '{jump} al ending {ending} was read as {fine} al Fine, with Fine at the end of ending {ending2} (bar {bar})',
    'import.note.al_ending_left_out': '{jump} al ending {ending} was left out: the chart has no such ending, or a Fine or another sign where it ends',
    'import.note.al_ending_jump': '{jump} al ending {ending} was read at bar {bar}, right before ending {ending2}: after the jump the band plays the repeat again and takes that ending',
    'import.note.tab_left_out': 'the lines of a tablature staff were left out: a board keeps chords and words',
    'import.note.tab_stops': 'a tab was read as spaces to the next tab stop, every 8 columns, as a text editor shows it',
    'import.note.wide_columns': 'a wide character (such as 中 or 가) was counted as two columns, as a monospaced sheet shows it',
    'import.note.chord_markup': 'chords marked up as [ch]G[/ch], as chord sites export them, were read as chords',
    'import.note.heading_chords': 'the chords after the heading “{heading}” were kept as a line of chords over spaces',
    'import.reason.not_a_grid': 'the file has no grid and no lines of words',
    'import.reason.unreadable_chart': 'the chart could not be read',
    'import.reason.too_many_songs': 'too many songs at once',
    'import.reason.rate_limited': 'many boards were made just now',
    'import.reason.invalid_content': 'the Tele JSON breaks a rule',
    'import.reason.too_large': 'the text is larger than 1 MB',
    'import.songFailedCode': '{title}: not imported ({reason}: {message})',
    'import.detail': 'The reader’s words (English)',
  },
  'zh-CN': {
    'import.note.text': '{text}',
    'import.note.key_unknown': '调号“{key}”不是 Tele 认识的调：这个和弦谱没有调号',
    'import.note.chord_nearest': '{from} 改成了 {to}，这是 Tele 和弦目录里最接近的和弦',
    'import.note.chord_text_unknown': '和弦 {from}（和弦性质写成了文字）不是 Tele 认识的和弦：按 {to} 读入',
    'import.note.bar_chords_cut': '一个有 {chords} 个和弦的小节只保留了前四个',
    'import.note.text_left_out': '文字“{text}”没有导入',
    'import.note.two_bar_repeat': '两小节反复（r）写成了它前面的两个小节',
    'import.note.alternates_left_out': '括号里的替代和弦没有导入',
    'import.note.rhythm_evened': '第 {bar} 小节的和弦写得比一拍还密（{written}）：它们平分这个小节',
    'import.note.rhythm_nearest': '第 {bar} 小节的和弦写在拍子之间（{written}）：每个和弦都放到了最近的拍上',
    'import.note.jump_moved': '写在第 {from} 小节上方的 {sign} 按第 {to} 小节读入，即曲式的末尾，iReal Pro 也在那里演奏它',
    'import.note.jump_al_coda': '第 {bar} 小节的 {sign} 读作 {read}：和弦谱里有 To Coda，后面还有尾声',
    'import.note.repeat_from': '第 {bar} 小节的反复记号没有开始反复：按乐手的读法，从第 {from} 小节开始反复',
    'import.note.repeat_start_left_out': '第 {bar} 小节的开始反复记号没有结束：没有导入',
    'import.note.simile_with_chords': '带和弦的 % 小节按其中的和弦读入（第 {bar} 小节）',
    'import.note.count_in': '第一小节重复了没有和弦的预备拍：它是 N.C.',
    'import.note.sign_left_out': '第 {bar} 小节的记号 {sign} 没有导入：{rule}',
    'import.note.sign_left_out_place': '第 {bar} 小节的记号 {sign} 没有导入：它没有自己的小节',
    'import.note.sign_repeated': '第 {bar} 小节的记号 {sign} 没有导入：一首曲子只能有一个',
    'import.note.al_ending_fine': '{jump} al 第 {ending} 房子读作 {fine} al Fine，Fine 在第 {ending2} 房子的末尾（第 {bar} 小节）',
    'import.note.al_ending_left_out': '{jump} al 第 {ending} 房子没有导入：谱中没有这个房子，或者它结束的地方已有 Fine 或别的记号',
    'import.note.al_ending_jump': '{jump} al 第 {ending} 房子读在第 {bar} 小节，紧挨第 {ending2} 房子之前：跳回之后乐队再奏一遍反复段，进入这个房子',
    'import.note.tab_left_out': '六线谱（TAB）的各行没有导入：和弦谱只保存和弦和歌词',
    'import.note.tab_stops': '制表符按空格读到下一个制表位，每 8 列一个，和文本编辑器里显示的一样',
    'import.note.wide_columns': '全角字符（如“中”或“가”）按两列计算，和等宽字体的谱子上显示的一样',
    'import.note.chord_markup': '和弦网站导出的 [ch]G[/ch] 标记按和弦读入',
    'import.note.heading_chords': '段落标题“{heading}”后面的和弦单独成为一行和弦，下面没有歌词',
    'import.reason.not_a_grid': '文件里既没有网格也没有歌词行',
    'import.reason.unreadable_chart': '无法读取这份和弦谱',
    'import.reason.too_many_songs': '一次导入的歌曲太多',
    'import.reason.rate_limited': '刚才创建了很多和弦谱',
    'import.reason.invalid_content': 'Tele JSON 不符合规则',
    'import.reason.too_large': '文本超过 1 MB',
    'import.songFailedCode': '{title}：未导入（{reason}）',
    'import.detail': '导入程序的原文（英文）',
  },
};

extend(STRINGS);
