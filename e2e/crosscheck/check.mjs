// Reads charts Tele wrote with maintained readers from npm, for formats_crosscheck_test.go: ChordPro with
// ChordSheetJS (its parser for the file, its chord parser for each cell of a grid, which it keeps as text)
// and iReal Pro links with ireal-reader. Input on stdin: {"chordpro": {name: text}, "ireal": {name: link},
// "irealSongs": {name: file text}}; output on stdout: what each reader saw, as JSON. irealSongs reads a
// corpus file song by song (one song ireal-reader cannot read does not lose the playlist), gives each song's
// unscrambled music, and leaves alternate chords in parentheses out of what ireal-reader plays: it would take
// them for chords of the bar.
import ChordSheetJS from 'chordsheetjs';
import iRealReader from 'ireal-reader';
import parseMusic from 'ireal-reader/Parser.js';
import unscramble from 'ireal-reader/unscramble.js';
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const BARLINE = /^:?\|\|?[:.]?\d?>?$/;
// Words of the margins (road signs, repeat counts): not cells.
const MARGIN = /^(Segno|Coda|To|Fine|D\.C\.|D\.S\.|al|x[2-8])$/;

function readChordPro(text) {
  const song = new ChordSheetJS.ChordProParser().parse(text);
  const sections = [];
  for (const p of song.paragraphs) {
    if (p.type !== 'grid') continue;
    const section = { label: '', chords: [], unread: [] };
    for (const line of p.lines) {
      for (const item of line.items) {
        if (item.name === 'start_of_grid') section.label = item.attributes?.label ?? '';
        // A grid row as ChordSheetJS keeps it (a literal): bar lines, cells and margin words, as text.
        const row = item.string ?? item.lyrics;
        if (typeof row !== 'string') continue;
        for (const tok of row.trim().split(/\s+/)) {
          if (!tok || BARLINE.test(tok) || MARGIN.test(tok) || tok === '.' || tok === '%' || tok === '/') continue;
          for (const sym of tok.split('~')) {
            const chord = ChordSheetJS.Chord.parse(sym);
            if (chord) section.chords.push(chord.toString());
            else section.unread.push(sym);
          }
        }
      }
    }
    sections.push(section);
  }
  const meta = (name) => song.metadata.get(name) ?? '';
  return { title: meta('title'), key: meta('key'), tempo: meta('tempo'), time: meta('time'), sections };
}

function readIReal(link) {
  const list = iRealReader(link);
  return list.songs.map((s) => ({
    title: s.title, key: s.key, bpm: s.bpm, timeSignature: s.music.timeSignature,
    measures: s.music.measures.map((m) => m.map((c) => (c === null ? 'n' : c))),
  }));
}

const MUSIC_PREFIX = '1r34LbKcu7';

function readIRealSongs(text) {
  const songs = [];
  for (const m of text.matchAll(/irealb:\/\/([^"<>\s]+)/g)) {
    const parts = decodeURIComponent(m[1]).split('===');
    if (parts.length > 1) parts.pop();
    for (const song of parts) {
      const fields = song.split(/=+/).filter((x) => x !== '');
      const music = fields.find((f) => f.startsWith(MUSIC_PREFIX));
      const out = { title: fields[0] ?? '', raw: '', measures: null, error: '' };
      try {
        out.raw = unscramble.ireal(music.slice(MUSIC_PREFIX.length));
        const played = parseMusic(out.raw.replace(/\([^)]*\)/g, ' '));
        out.measures = played.measures.map((bar) => bar.map((c) => (c === null ? 'n' : c)));
      } catch (err) {
        out.error = String(err.message || err);
      }
      songs.push(out);
    }
  }
  return songs;
}

// readLyrics gives the lines of words of a ChordPro file as ChordSheetJS reads them: each line's text
// (its pairs' lyrics joined) and every chord at the place in that text where its pair starts, in UTF-16
// code units. Grid and tab sections, and lines of only comments or tags, are left out.
function readLyrics(text) {
  const song = new ChordSheetJS.ChordProParser().parse(text);
  const lines = [];
  for (const p of song.paragraphs) {
    if (p.type === 'grid' || p.type === 'tab') continue;
    for (const line of p.lines) {
      let t = '';
      const chords = [];
      let words = false;
      for (const item of line.items) {
        if (!(item instanceof ChordSheetJS.ChordLyricsPair)) continue;
        words = true;
        if (item.chords) chords.push({ at: t.length, chord: item.chords });
        t += item.lyrics ?? '';
      }
      if (words) lines.push({ text: t, chords });
    }
  }
  return lines;
}

const out = { chordpro: {}, ireal: {}, irealSongs: {}, lyrics: {} };
for (const [name, text] of Object.entries(input.lyrics || {})) {
  try {
    out.lyrics[name] = readLyrics(text);
  } catch (err) {
    out.lyrics[name] = [{ error: String(err.message || err) }];
  }
}
for (const [name, text] of Object.entries(input.irealSongs || {})) {
  out.irealSongs[name] = readIRealSongs(text);
}
for (const [name, text] of Object.entries(input.chordpro || {})) {
  try {
    out.chordpro[name] = readChordPro(text);
  } catch (err) {
    out.chordpro[name] = { error: String(err.message || err) };
  }
}
for (const [name, link] of Object.entries(input.ireal || {})) {
  try {
    out.ireal[name] = readIReal(link);
  } catch (err) {
    out.ireal[name] = { error: String(err.message || err) };
  }
}
process.stdout.write(JSON.stringify(out));
