// Reads charts Tele wrote with maintained readers from npm, for formats_crosscheck_test.go: ChordPro with
// ChordSheetJS (its parser for the file, its chord parser for each cell of a grid, which it keeps as text)
// and iReal Pro links with ireal-reader. Input on stdin: {"chordpro": {name: text}, "ireal": {name: link}};
// output on stdout: what each reader saw, as JSON.
import ChordSheetJS from 'chordsheetjs';
import iRealReader from 'ireal-reader';
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

const out = { chordpro: {}, ireal: {} };
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
