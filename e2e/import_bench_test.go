package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tele/board/store/storetest"
	"tele/ireal"
)

// importBook is the corpus's largest playlist: 1,300 charts of jazz standards (ironss/accompaniser, MIT;
// corpus/SOURCES).
var importBook = filepath.Join(corpusDir, "accompaniser-jazz.url")

// BenchmarkImportCheckVsIRealReader is issue 24's target for previewing a book: `tele board import
// --check` of the playlist, the whole command as a musician runs it (start, read, every chart made and
// validated, printed with its notes), against ireal-reader reading the same file in Node, timed
// alternately in one loop. check/reader compares the two commands (each with its runtime's start);
// parse/reader compares ireal.Parse in this process with ireal-reader's parse alone as Node times it.
// Target: ≤ 2.
func BenchmarkImportCheckVsIRealReader(b *testing.B) {
	node := crosscheckNode(b)
	tele := teleBinary(b)
	book, err := filepath.Abs(importBook)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(book)
	if err != nil {
		b.Fatal(err)
	}
	var check, reader, parse, readerParse time.Duration
	for b.Loop() {
		t0 := time.Now()
		out, err := exec.Command(tele, "board", "import", "--check", importBook).CombinedOutput()
		if err != nil {
			b.Fatalf("tele board import --check: %v\n%s", err, out)
		}
		t1 := time.Now()
		var got struct {
			MS    float64 `json:"ms"`
			Songs int     `json:"songs"`
		}
		cmd := exec.Command(node, "parse.mjs", book)
		cmd.Dir = crosscheckDir
		js, err := cmd.Output()
		if err != nil {
			b.Fatalf("node parse.mjs: %v", err)
		}
		t2 := time.Now()
		if err := json.Unmarshal(js, &got); err != nil || got.Songs < 1000 {
			b.Fatalf("parse.mjs answered %s (%v): want the songs of the book", js, err)
		}
		songs, err := ireal.Parse(data)
		t3 := time.Now()
		if err != nil || len(songs) != got.Songs {
			b.Fatalf("ireal.Parse: %d songs, %v; ireal-reader read %d", len(songs), err, got.Songs)
		}
		if !bytes.Contains(out, []byte("imported")) && !bytes.Contains(out, []byte("board of")) {
			b.Fatalf("--check printed no chart:\n%.400s", out)
		}
		check, reader = check+t1.Sub(t0), reader+t2.Sub(t1)
		parse, readerParse = parse+t3.Sub(t2), readerParse+time.Duration(got.MS*float64(time.Millisecond))
	}
	b.ReportMetric(float64(check.Milliseconds())/float64(b.N), "check-ms")
	b.ReportMetric(float64(reader.Milliseconds())/float64(b.N), "reader-ms")
	b.ReportMetric(float64(check)/float64(reader), "check/reader")
	b.ReportMetric(float64(parse)/float64(readerParse), "parse/reader")
}

// BenchmarkImportVsFloor is issue 24's target for importing a book for real: `tele board import` of the
// playlist into an empty data directory, no server running (the command opens the store once and creates
// every board in one batch), against the floor of one durable write (storetest.RawCommitFloor) of each
// board's first revision, the same bytes, one after the other, timed alternately in one loop. Target:
// ≤ 1.3 per board.
func BenchmarkImportVsFloor(b *testing.B) {
	tele := teleBinary(b)
	var imported, floor time.Duration
	boards := 0
	for b.Loop() {
		dataDir := filepath.Join(b.TempDir(), "data")
		cmd := exec.Command(tele, "board", "import", importBook)
		cmd.Env = append(os.Environ(), "TELE_DATA="+dataDir)
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("tele board import: %v\n%.400s", err, out)
		}
		t1 := time.Now()
		revs, err := filepath.Glob(filepath.Join(dataDir, "boards", "*", "1.json"))
		if err != nil || len(revs) < 1000 || !strings.Contains(string(out), "imported") {
			b.Fatalf("the import made %d boards (%v):\n%.400s", len(revs), err, out)
		}
		floorDir := b.TempDir()
		var floorTime time.Duration
		for _, rev := range revs {
			data, err := os.ReadFile(rev)
			if err != nil {
				b.Fatal(err)
			}
			t := time.Now()
			if err := storetest.RawCommitFloor(filepath.Join(floorDir, filepath.Base(filepath.Dir(rev))), data); err != nil {
				b.Fatal(err)
			}
			floorTime += time.Since(t)
		}
		imported, floor, boards = imported+t1.Sub(t0), floor+floorTime, boards+len(revs)
	}
	b.ReportMetric(float64(imported.Nanoseconds())/float64(boards), "import-ns/board")
	b.ReportMetric(float64(floor.Nanoseconds())/float64(boards), "floor-ns/board")
	b.ReportMetric(float64(imported)/float64(floor), "import/floor")
}
