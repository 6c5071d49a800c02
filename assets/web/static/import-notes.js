// @ts-check
// What an importer says about a chart, in the page's language: each note of POST /api/import comes
// again as a code and its arguments (noteCodes, docs/api.md), and a song that could not become a board
// comes with an error code. The page says both from the code; a code it does not know (and a note its
// reader gave no code, code "text") keeps the reader's English words.

import { extend } from './i18n.js';
import { MARK_TEXT } from './form-view.js';
import './form-strings.js';

const sign = (id) => MARK_TEXT[id] || String(id ?? '');

// TEXT_NOTE_CODES are the chords-over-lyrics reader's codes that have words of their own.
export const TEXT_NOTE_CODES = ['tab_left_out', 'tab_stops', 'wide_columns', 'chord_markup', 'heading_chords'];

const NOTE_CODES = ['key_unknown', 'chord_nearest', 'chord_text_unknown', 'bar_chords_cut', 'text_left_out', 'two_bar_repeat',
  'alternates_left_out', 'rhythm_evened', 'simile_with_chords', 'count_in', 'sign_left_out', 'sign_left_out_place',
  'sign_repeated', 'sign_third', 'jump_on_cue_left_out', 'jump_moved_section', 'al_ending_fine', 'al_ending_left_out', 'rhythm_nearest', 'jump_moved', 'jump_al_coda', 'repeat_from',
  'repeat_start_left_out', 'al_ending_jump', 'jump_on_cue', 'fine_at_end_mark', 'al_fine_no_fine', 'al_fine_coda',
  'al_ending_later_fine', 'al_ending_coda', 'ending_closed', 'ending_left_out', 'comment_as_line', 'markup_left_out',
  'repeat_times_cut', 'repeat_times_unused', 'meter_read', 'meter_left_out', 'chord_german_h', 'sign_unknown_nc', 'sign_unknown_left_out',
  // the ChordPro and chords-over-lyrics readers' own
  'capo_left_out', 'chord_left_out', 'chords_alone', 'chords_over_words', 'chords_spaced', 'comment_left_out',
  'credit_cut', 'directive_left_out', 'first_bar_nc', 'grid_empty', 'heading', 'heading_role', 'label_cut',
  'line_cut', 'line_left_out', 'lines_cut', 'margin_left_out', 'recall_left_out', 'recall_no_chorus',
  'section_end_alone', 'section_left_out', 'section_unended', 'sections_cut', 'strum_left_out',
  'subtitle_in_description', 'tempo_unknown', 'time_read', 'title_first_line', 'title_missing', 'transpose_unknown',
  'transposed', 'volta_repeat', ...TEXT_NOTE_CODES];

// FAILURE_CODES are the errors a song of a playlist (or a whole import) is refused with that have
// words of their own (import.error.* in form-strings.js).
const FAILURE_CODES = ['not_a_grid', 'unreadable_chart', 'too_many_songs', 'rate_limited', 'invalid_content', 'too_large'];

// variant names the words of a code that two readers send with other arguments: the ChordPro grid
// reader names a grid line where iReal Pro's names a bar, and a grid line is left out for a word that is
// not a chord or for having no bar line.
function variant(code, args) {
  if (code === 'line_left_out' && 'word' in args) return '.word';
  if (['simile_with_chords', 'rhythm_evened', 'rhythm_nearest'].includes(code) && 'line' in args && !('bar' in args)) return '.line';
  return '';
}

// noteEntry is the i18n entry of the note text whose code is nc ({code, args}).
export function noteEntry(text, nc) {
  const code = nc?.code;
  const args = { ...(nc?.args || {}) };
  if (!NOTE_CODES.includes(code)) return ['import.note.text', { text: code === 'text' && typeof args.text === 'string' ? args.text : text }];
  if ('sign' in args) args.sign = sign(args.sign);
  if ('read' in args) args.read = sign(args.read);
  if (typeof args.role === 'string' && /^[a-z]+$/.test(args.role)) args.role = { $t: `role.${args.role}` };
  if (code === 'sign_left_out') {
    args.rule = typeof args.ruleId === 'string' && /^\w+$/.test(args.ruleId)
      ? { $t: `form.rule.${args.ruleId}`, params: args.ruleArgs || {} }
      : { $t: 'import.note.text', params: { text: String(args.rule ?? '') } };
    delete args.ruleArgs;
  }
  return [`import.note.${code}${variant(code, args)}`, args];
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
    'import.note.sign_third': 'the sign {sign} at bar {bar} was left out: a chart has at most two jumps and two Fines',
    'import.note.jump_on_cue_left_out': 'the {sign} on cue at bar {bar} was left out: the chart has another jump, and a jump on cue is kept only alone',
    'import.note.jump_moved_section': 'the {sign} written over bar {from} was read at bar {to}, the last bar of its section, where the head ends before the chart’s other jump',
    'import.note.al_ending_fine': '{jump} al ending {ending} was read as {fine} al Fine, with Fine at the end of ending {ending2} (bar {bar})',
    'import.note.al_ending_left_out': '{jump} al ending {ending} was left out: the chart has no such ending, or a Fine or another sign where it ends',
    'import.note.al_ending_jump': '{jump} al ending {ending} was read at bar {bar}, right before ending {ending2}: after the jump the band plays the repeat again and takes that ending',
    'import.note.jump_on_cue': 'the {sign} on cue at bar {bar} was read as a jump: Tele plays the vamp as written, then takes it',
    'import.note.fine_at_end_mark': 'the {sign} at bar {bar} ends at bar {fine}, where the chart marks the end for iReal Pro’s player (U): Fine was put there',
    'import.note.al_fine_no_fine': 'the {sign} at bar {bar} was read as {read}: the chart has no Fine, so the band plays on to the end',
    'import.note.al_fine_coda': 'the {sign} at bar {bar} was read as {read}: the band leaves at the Fine (bar {fine}) for the coda written after the jump',
    'import.note.al_ending_later_fine': '{jump} al ending {ending} was read as al Fine: the chart’s Fine stands in ending {later} (bar {bar}), which follows it',
    'import.note.al_ending_coda': '{jump} al ending {ending} was read as {read}: that ending holds To Coda, and the coda follows the jump',
    'import.note.ending_closed': 'ending 1 (bar {bar}) closes at bar {end}, right before ending 2: the band goes back there',
    'import.note.ending_left_out': 'ending 1 at bar {bar} has no end repeat and no ending after it: its bars were read as plain bars',
    'import.note.comment_as_line': 'the comment “{text}” was kept as a line of words where it stands: a board has no comments',
    'import.note.markup_left_out': 'the text markup {tag} was left out of the words: a board keeps plain words',
    'import.note.simile_with_chords.line': 'a % bar with chords in it was read as its chords (grid line {line})',
    'import.note.rhythm_evened.line': 'a bar’s chords fall closer together than a beat and were spread evenly over the bar (line {line})',
    'import.note.rhythm_nearest.line': 'chords between beats were put on the nearest beat (line {line})',
    'import.note.capo_left_out': 'the capo {capo} was left out: a board keeps the chords as they sound; set a capo in the view',
    'import.note.chord_left_out': '[{text}] is not a chord and was left out',
    'import.note.chords_alone': 'a line of chords with no words under it was kept as chords over spaces',
    'import.note.chords_over_words': 'each chord was put over the character of the words in its column',
    'import.note.chords_spaced': 'chords written with nothing between them ([Am][G]) were given a space between them',
    'import.note.comment_left_out': 'the comment “{text}” was left out',
    'import.note.credit_cut': '“{text}” was longer than a board keeps and was cut',
    'import.note.directive_left_out': '{{directive}} was left out: Tele does not read it',
    'import.note.first_bar_nc': 'the first bar has no chord: it is N.C.',
    'import.note.grid_empty': 'the grid “{label}” has no bars and was left out',
    'import.note.heading': 'the heading “{heading}” starts a section',
    'import.note.heading_role': 'the heading “{heading}” starts a section with the role {role}',
    'import.note.label_cut': 'the label “{label}” was longer than a label holds and was cut',
    'import.note.line_cut': 'a line longer than {max} characters was cut there',
    'import.note.line_left_out': 'the grid line “{line}” has no bar line and was left out',
    'import.note.line_left_out.word': 'the grid line “{line}” was left out: “{word}” is not a chord (a root A–G and a quality, like Am7)',
    'import.note.lines_cut': 'lines past {max} in a section or {total} in all were left out',
    'import.note.margin_left_out': 'the margin text “{text}” was left out',
    'import.note.recall_left_out': '{chorus} inside a section was left out',
    'import.note.recall_no_chorus': '{chorus} before any chorus was left out: it repeats the chorus before it',
    'import.note.section_end_alone': '{{directive}} ends no section and was left out',
    'import.note.section_left_out': 'the {section} section was left out: it is not words with chords',
    'import.note.section_unended': 'the {section} section had no end: it ends where the next section starts',
    'import.note.sections_cut': 'the sections past the {max}th were left out: a board holds {max}',
    'import.note.strum_left_out': 'the strum line “{line}” was left out: a board has no strumming',
    'import.note.subtitle_in_description': 'the subtitle “{text}” was kept in the description',
    'import.note.tempo_unknown': 'the tempo “{tempo}” is not a number of beats per minute: the board plays at 120',
    'import.note.time_read': 'the time {time} was read as {beats} beats per bar: a board counts beats and keeps no note value',
    'import.note.title_first_line': 'the first line “{title}” was read as the title',
    'import.note.title_missing': 'the song names no title: the board is called Untitled',
    'import.note.transpose_unknown': '{transpose: {transpose}} is not a number of semitones from -12 to 12: the chords after it were read as written',
    'import.note.transposed': 'the chords after {transpose: {semitones}} were moved {semitones} semitones, as the file asks',
    'import.note.volta_repeat': 'the endings of line {line} have no repeat signs: they were read as a repeat from the bar after the last end repeat',
    'import.note.repeat_times_cut': 'the repeat that ends at bar {bar} says {times}x: a board plays a repeat {min} to {max} times, so it is played {read} times',
    'import.note.repeat_times_unused': 'the text “{text}” in bar {bar} has no end repeat after it to count: it was left out',
    'import.note.meter_read': 'the time signature {written} at bar {bar} was read as {beats} beats a bar',
    'import.note.meter_left_out': 'the time signature {written} at bar {bar} is not one iReal Pro writes: it was left out, and the bars go on in {beats} beats',
    'import.note.chord_german_h': '{from} was read as {to}: H is the German name of B',
    'import.note.sign_unknown_nc': 'bar {bar} holds “{signs}”, which Tele cannot read: the bar is N.C.',
    'import.note.sign_unknown_left_out': '“{signs}” in bar {bar} is not something Tele can read: it was left out',
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
    'import.note.sign_third': '第 {bar} 小节的记号 {sign} 没有导入：一首曲子最多只能有两个跳回记号和两个 Fine',
    'import.note.jump_on_cue_left_out': '第 {bar} 小节听指示的 {sign} 没有导入：本曲另有跳回记号，听指示的跳回只在它是唯一跳回时保留',
    'import.note.jump_moved_section': '写在第 {from} 小节上方的 {sign} 按第 {to} 小节读入：那是它所在段落的最后一小节，主题在那里结束，之后才是本曲的另一个跳回记号',
    'import.note.al_ending_fine': '{jump} al 第 {ending} 房子读作 {fine} al Fine，Fine 在第 {ending2} 房子的末尾（第 {bar} 小节）',
    'import.note.al_ending_left_out': '{jump} al 第 {ending} 房子没有导入：谱中没有这个房子，或者它结束的地方已有 Fine 或别的记号',
    'import.note.al_ending_jump': '{jump} al 第 {ending} 房子读在第 {bar} 小节，紧挨第 {ending2} 房子之前：跳回之后乐队再奏一遍反复段，进入这个房子',
    'import.note.jump_on_cue': '第 {bar} 小节的 {sign} on cue（听提示）读作跳转：Tele 按谱奏完这段循环，然后跳转',
    'import.note.fine_at_end_mark': '第 {bar} 小节的 {sign} 在第 {fine} 小节结束，谱中在那里标了 iReal Pro 播放器的结束记号（U）：在那里加了 Fine',
    'import.note.al_fine_no_fine': '第 {bar} 小节的 {sign} 读作 {read}：谱中没有 Fine，乐队一直奏到结尾',
    'import.note.al_fine_coda': '第 {bar} 小节的 {sign} 读作 {read}：乐队在 Fine 处（第 {fine} 小节）转到跳转之后写的尾声',
    'import.note.al_ending_later_fine': '{jump} al 第 {ending} 房子读作 al Fine：谱中的 Fine 在它后面的第 {later} 房子里（第 {bar} 小节）',
    'import.note.al_ending_coda': '{jump} al 第 {ending} 房子读作 {read}：这个房子里有 To Coda，尾声在跳转之后',
    'import.note.ending_closed': '第 1 房子（第 {bar} 小节）在第 {end} 小节结束，紧挨第 2 房子之前：乐队从那里反复',
    'import.note.ending_left_out': '第 {bar} 小节的第 1 房子既没有反复结束记号，后面也没有别的房子：按普通小节读入',
    'import.note.comment_as_line': '注释“{text}”作为一行歌词保留在原处：和弦谱里没有注释',
    'import.note.markup_left_out': '歌词里的格式标记 {tag} 没有导入：和弦谱只保留纯文字',
    'import.note.simile_with_chords.line': '网格第 {line} 行里带和弦的 % 小节按其中的和弦读入',
    'import.note.rhythm_evened.line': '第 {line} 行有一个小节的和弦写得比一拍还密：它们平分这个小节',
    'import.note.rhythm_nearest.line': '第 {line} 行写在拍子之间的和弦放到了最近的拍上',
    'import.note.capo_left_out': '变调夹 {capo} 没有导入：和弦谱按实际发音记和弦；可以在视图里设置变调夹',
    'import.note.chord_left_out': '[{text}] 不是和弦，没有导入',
    'import.note.chords_alone': '下面没有歌词的一行和弦保留为空白上方的和弦',
    'import.note.chords_over_words': '每个和弦都放在同一列的歌词字符上方',
    'import.note.chords_spaced': '紧挨着写的和弦（[Am][G]）之间加了一个空格',
    'import.note.comment_left_out': '注释“{text}”没有导入',
    'import.note.credit_cut': '“{text}”超出和弦谱能保存的长度，已截短',
    'import.note.directive_left_out': '指令 {directive} 没有导入：Tele 不读取它',
    'import.note.first_bar_nc': '第一小节没有和弦：记为 N.C.',
    'import.note.grid_empty': '网格“{label}”没有小节，没有导入',
    'import.note.heading': '标题“{heading}”开始一个新段落',
    'import.note.heading_role': '标题“{heading}”开始一个新段落，段落类型为{role}',
    'import.note.label_cut': '标签“{label}”太长，已截短',
    'import.note.line_cut': '超过 {max} 个字符的一行在那里截断',
    'import.note.line_left_out': '网格行“{line}”没有小节线，没有导入',
    'import.note.line_left_out.word': '网格行“{line}”没有导入：“{word}”不是和弦（和弦是根音 A–G 加上性质，例如 Am7）',
    'import.note.lines_cut': '一个段落超过 {max} 行、全曲超过 {total} 行的部分没有导入',
    'import.note.margin_left_out': '页边文字“{text}”没有导入',
    'import.note.recall_left_out': '段落内重复副歌的 chorus 指令没有导入',
    'import.note.recall_no_chorus': '出现在所有副歌之前的 chorus 指令没有导入：它重复的是前面的副歌',
    'import.note.section_end_alone': '指令 {directive} 没有结束任何段落，没有导入',
    'import.note.section_left_out': '{section} 段没有导入：它不是带和弦的歌词',
    'import.note.section_unended': '{section} 段没有结束指令：在下一段开始的地方结束',
    'import.note.sections_cut': '第 {max} 段之后的段落没有导入：一个和弦谱最多 {max} 段',
    'import.note.strum_left_out': '扫弦行“{line}”没有导入：和弦谱不记扫弦',
    'import.note.subtitle_in_description': '副标题“{text}”保存在说明里',
    'import.note.tempo_unknown': '速度“{tempo}”不是每分钟的拍数：按每分钟 120 拍演奏',
    'import.note.time_read': '拍号 {time} 读作每小节 {beats} 拍：和弦谱只记拍数，不记音符时值',
    'import.note.title_first_line': '第一行“{title}”读作歌名',
    'import.note.title_missing': '歌曲没有歌名：和弦谱命名为 Untitled',
    'import.note.transpose_unknown': '移调指令的值“{transpose}”不是 -12 到 12 之间的半音数：其后的和弦按原样读入',
    'import.note.transposed': '按文件的要求，移调指令之后的和弦移动了 {semitones} 个半音',
    'import.note.volta_repeat': '第 {line} 行的房子没有反复记号：按从上一个反复结束记号之后的小节开始的反复读入',
    'import.note.repeat_times_cut': '在第 {bar} 小节结束的反复写着 {times}x：和弦谱里的反复只能演奏 {min} 到 {max} 遍，所以演奏 {read} 遍',
    'import.note.repeat_times_unused': '第 {bar} 小节的“{text}”后面没有可计数的反复结束记号：已略去',
    'import.note.meter_read': '第 {bar} 小节的拍号 {written} 读作每小节 {beats} 拍',
    'import.note.meter_left_out': '第 {bar} 小节的拍号 {written} 不是 iReal Pro 写的拍号：没有导入，后面的小节仍是每小节 {beats} 拍',
    'import.note.chord_german_h': '{from} 读作 {to}：H 是 B 的德语名称',
    'import.note.sign_unknown_nc': '第 {bar} 小节里的“{signs}”Tele 读不懂：这个小节是 N.C.',
    'import.note.sign_unknown_left_out': '第 {bar} 小节里的“{signs}”Tele 读不懂：没有导入',
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
