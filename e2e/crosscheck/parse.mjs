// Reads one iReal Pro playlist file with ireal-reader, for import_bench_test.go: the baseline of
// `tele board import --check`. Prints the milliseconds of the parse alone (the file read and Node's start
// excluded) and the songs read, as JSON.
import iRealReader from 'ireal-reader';
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2], 'utf8');
const start = performance.now();
const playlist = new iRealReader(text);
const ms = performance.now() - start;
process.stdout.write(JSON.stringify({ ms, songs: playlist.songs.length }));
