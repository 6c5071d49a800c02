package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"tele/board"
	"tele/board/store"
	"tele/chordpro"
	"tele/chordtext"
	"tele/ireal"
)

// maxImportBytes bounds a file `tele board import` reads.
const maxImportBytes = chordpro.MaxFileBytes

// runBoardExport is `tele board export <id> [--format chordpro|ireal|json]`: the board's content on
// stdout, as a ChordPro file of grid sections (the default), an iReal Pro irealb:// link (what the link
// cannot hold is said on stderr), or as the content JSON Tele reads back. It only reads the board's
// newest revision file: no lock, so it works while a server runs.
func runBoardExport(_ context.Context, args []string, env *Env) error {
	var formatFlag *string
	s, ids, err := parseCommand(args, env, false, func(fs *flag.FlagSet) { formatFlag = fs.String("format", "", "") })
	if err == nil {
		err = refuseOptions(ids)
	}
	if err != nil {
		return err
	}
	format := *formatFlag
	if format == "" {
		format = "chordpro"
	}
	if format != "chordpro" && format != "ireal" && format != "json" {
		return usagef("bad --format %q: use --format chordpro, --format ireal or --format json", format)
	}
	id, err := oneID("board export", ids)
	if err != nil {
		return err
	}
	b, err := store.ReadBoard(s.DataDir, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no board %q in %s: see the boards at http://127.0.0.1:%d/ or check --data/TELE_DATA", id, s.DataDir, s.Port)
	}
	if err != nil {
		return fmt.Errorf("cannot read board %q: %v", id, err)
	}
	if format == "json" {
		out, err := json.MarshalIndent(b.Content, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(env.Stdout, forTerminal(string(out), keepLines, jsonEscape))
		return err
	}
	if format == "ireal" {
		for _, l := range ireal.Lost(b.Content) {
			fmt.Fprintln(env.Stderr, "tele: note: an iReal Pro link cannot hold "+printable(l))
		}
		_, err = fmt.Fprintln(env.Stdout, forTerminal(string(ireal.Write(b.Content)), keepNothing, chordproEscape))
		return err
	}
	_, err = fmt.Fprint(env.Stdout, forTerminal(string(chordpro.Write(b.Content)), keepLines, chordproEscape))
	return err
}

// runBoardImport is `tele board import <file> [--id <id>] [--check]`: a ChordPro file (its grid
// sections), a content JSON file, or a file holding iReal Pro links (a playlist: one board per song)
// becomes new boards; what was not taken over as written is listed on stderr, with a summary for a
// playlist, and each new board's edit link is printed (after the song's title when there are several).
// When a server owns the data directory the boards are created through it (over loopback, as the page
// creates boards), so its lock is never gone around; otherwise the store is opened once, with its lock,
// for all of them. With --check nothing is written: each chart is printed as the board it would make,
// with every note.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: the command line's options, one
// branch each.
//
//gocognit:ignore
func runBoardImport(ctx context.Context, args []string, env *Env) error {
	var idFlag *string
	var checkFlag *bool
	s, files, err := parseCommand(args, env, false, func(fs *flag.FlagSet) {
		idFlag = fs.String("id", "", "")
		checkFlag = fs.Bool("check", false, "")
	})
	if err == nil {
		err = refuseOptions(files)
	}
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("board import takes one file: use tele board import <file> [--id <id>] [--check]")
	}
	id, check := *idFlag, *checkFlag
	if id != "" && !board.ValidID(id) {
		return fmt.Errorf("bad --id %q: an id is 1 to 64 letters, digits, _ or -, starting with a letter or digit", id)
	}
	data, err := readImportFile(files[0])
	if err != nil {
		return err
	}
	charts, err := readCharts(ctx, data)
	if err != nil {
		return fmt.Errorf("cannot import %s: %v", files[0], err)
	}
	if check {
		return checkCharts(env, files[0], charts)
	}
	var readable []chart
	for _, ch := range charts {
		prefix := "tele: note: "
		if len(charts) > 1 {
			prefix = "tele: " + printable(ch.title) + ": note: "
		}
		for _, n := range ch.notes {
			fmt.Fprintln(env.Stderr, prefix+printable(n))
		}
		if ch.err != nil {
			if len(charts) == 1 {
				return fmt.Errorf("cannot import %s: %v", files[0], ch.err)
			}
			fmt.Fprintln(env.Stderr, "tele: "+printable(ch.title)+": not imported: "+errorLine(ch.err.Error()))
			continue
		}
		readable = append(readable, ch)
	}
	if len(readable) == 0 {
		fmt.Fprintf(env.Stderr, "tele: imported 0 of %d songs\n", len(charts))
		return fmt.Errorf("no song of %s could be imported", files[0])
	}
	links, err := importAll(ctx, &s, data, id, readable)
	if err != nil {
		return err
	}
	for i, ch := range readable {
		if len(charts) > 1 {
			fmt.Fprintln(env.Stdout, printable(ch.title)+": "+links[i])
		} else {
			fmt.Fprintln(env.Stdout, links[i])
		}
	}
	if len(charts) > 1 {
		fmt.Fprintf(env.Stderr, "tele: imported %d of %d songs\n", len(readable), len(charts))
	}
	return nil
}

// checkCharts prints, on stdout, what importing the charts would make: each chart's title and the shape
// of its board (sections, bars, the bars a band plays), or why it cannot be imported, with every note.
// It writes nothing; its exit status is import's (an error when no chart could be imported).
func checkCharts(env *Env, file string, charts []chart) error {
	ok := 0
	for _, ch := range charts {
		if ch.err != nil {
			fmt.Fprintln(env.Stdout, printable(ch.title)+": cannot be imported: "+errorLine(ch.err.Error()))
		} else {
			bars := 0
			for _, sec := range ch.content.Sections {
				bars += len(sec.Bars)
			}
			line := fmt.Sprintf("%s: a board of %s, %s", printable(ch.title), count(len(ch.content.Sections), "section"), count(bars, "bar"))
			if order, err := ch.content.PlayOrder(); err == nil && len(order) != bars {
				line += fmt.Sprintf(", playing %s", count(len(order), "bar"))
			}
			fmt.Fprintln(env.Stdout, line)
			ok++
		}
		for _, n := range ch.notes {
			fmt.Fprintln(env.Stdout, "  note: "+printable(n))
		}
	}
	fmt.Fprintf(env.Stdout, "%d of %s would be imported; nothing was written\n", ok, count(len(charts), "chart"))
	if ok == 0 {
		return fmt.Errorf("no chart of %s could be imported", file)
	}
	return nil
}

// count is n and a noun, plural when n is not 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// chart is one song read for import.
type chart struct {
	title   string
	content board.Content
	notes   []string
	err     error
}

// importAll makes the boards of the readable charts of an import, all or none, and returns their edit
// links: through the server that owns the data directory (POST /api/import, over loopback, as the page
// imports), so its lock is never gone around, or else in the store, opened once with its lock; both
// make the boards with Store.CreateAll. The boards are named as the import route names them: id (or
// the first song's title as an id, the first such id free for every song) for the first song, then
// id-2, id-3, … for the others.
func importAll(ctx context.Context, s *Settings, data []byte, id string, charts []chart) ([]string, error) {
	if _, port := store.RunningOwner(s.DataDir); port != 0 {
		s.Port = port
		return importThroughServer(ctx, s, data, id, charts)
	}
	st, err := store.Open(s.DataDir, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := st.SetQuota(s.Quota); err != nil {
		return nil, err
	}
	free := func(id string) (bool, error) {
		_, err := st.Get(id)
		if errors.Is(err, store.ErrNotFound) {
			return true, nil
		}
		return false, err
	}
	ids, err := importIDs(id, charts, free)
	if err != nil {
		return nil, err
	}
	items := make([]store.NewBoard, len(charts))
	for i, ch := range charts {
		items[i] = store.NewBoard{ID: ids[i], Content: ch.content}
	}
	made, err := st.CreateAll(items, store.AuthorTele)
	if err != nil {
		return nil, importRefused(err, s, ids, free)
	}
	links := make([]string, len(made))
	for i, m := range made {
		links[i] = editLink(s.Port, m.Board.ID, m.Capability)
	}
	return links, nil
}

// importThroughServer sends the import to the server on s.Port, which reads it again and makes its
// boards all or none, and returns each board's edit link with a one-time code of that server.
func importThroughServer(ctx context.Context, s *Settings, data []byte, id string, charts []chart) ([]string, error) {
	free := func(id string) (bool, error) { return freeOnServer(ctx, s.Port, id) }
	ids, err := importIDs(id, charts, free)
	if err != nil {
		return nil, err
	}
	format := board.SniffFormat(data)
	if format == "json" {
		data = bytes.TrimSpace(data)
	}
	var answer struct {
		Boards []struct {
			Board      struct{ ID string } `json:"board"`
			Capability string              `json:"capability"`
		} `json:"boards"`
	}
	req := struct {
		Text   string `json:"text"`
		Format string `json:"format"`
		ID     string `json:"id"`
	}{string(data), format, ids[0]}
	if _, err := newLoopback(s.Port).call(ctx, http.MethodPost, "/api/import", "", nil, req, http.StatusCreated, &answer); err != nil {
		return nil, importRefused(err, s, ids, free)
	}
	if len(answer.Boards) != len(charts) {
		return nil, fmt.Errorf("the tele server on port %d made %d boards of %d songs: see them at http://127.0.0.1:%d/", s.Port, len(answer.Boards), len(charts), s.Port)
	}
	links := make([]string, len(answer.Boards))
	for i, b := range answer.Boards {
		// The link carries a one-time code of that server, not the key.
		code, err := claimThroughServer(ctx, s.Port, b.Board.ID, b.Capability)
		if err != nil {
			return nil, err
		}
		links[i] = claimLink(s.Port, b.Board.ID, code)
	}
	return links, nil
}

// freeOnServer says whether no board id is on the server on port.
func freeOnServer(ctx context.Context, port int, id string) (bool, error) {
	_, err := newLoopback(port).call(ctx, http.MethodGet, "/api/boards/"+url.PathEscape(id), "", nil, nil, http.StatusOK, nil)
	if r, ok := errors.AsType[*refusal](err); ok && r.status == http.StatusNotFound {
		return true, nil
	}
	return false, err
}

// importIDs are the ids of an import's boards: id, id-2, id-3, …, each at most 64 characters. Without
// id, the first song's title as an id, else with -2 … -9 (candidateIDs), the first for which every
// board's id is free.
func importIDs(id string, charts []chart, free func(string) (bool, error)) ([]string, error) {
	derive := func(base string) []string {
		ids := []string{base}
		for i := 2; i <= len(charts); i++ {
			ids = append(ids, base+"-"+strconv.Itoa(i))
		}
		return ids
	}
	if id != "" {
		ids := derive(id)
		if last := ids[len(ids)-1]; !board.ValidID(last) {
			return nil, fmt.Errorf("bad --id %q: the board of song %d would be %q, longer than 64 characters: use an --id of at most %d characters", id, len(ids), last, 64-len(last)+len(id))
		}
		return ids, nil
	}
	candidates := candidateIDs(charts[0].title)
	for _, base := range candidates {
		ids := derive(base)
		ok := true
		for _, try := range ids {
			f, err := free(try)
			if err != nil {
				return nil, err
			}
			ok = ok && f
			if !ok {
				break
			}
		}
		if ok {
			return ids, nil
		}
	}
	return nil, fmt.Errorf("boards %q to %q already exist: pick another id with --id <id>", candidates[0], candidates[len(candidates)-1])
}

// importRefused says in one line why an import of boards ids made no board, and the fix; free tells
// which id is taken.
func importRefused(err error, s *Settings, ids []string, free func(string) (bool, error)) error {
	if r, ok := errors.AsType[*refusal](err); ok && r.code == "board_exists" || errors.Is(err, store.ErrExists) {
		taken := "of this import"
		for _, id := range ids {
			if f, err := free(id); err == nil && !f {
				taken = strconv.Quote(id)
				break
			}
		}
		return fmt.Errorf("no board was imported: a board %s already exists in %s: pick another id with --id <id>", taken, s.DataDir)
	}
	if qe, ok := errors.AsType[*store.QuotaError](err); ok {
		return fmt.Errorf("no board was imported: %v: delete boards you no longer need (tele board delete), or raise --max-boards/--max-bytes", qe)
	}
	return fmt.Errorf("no board was imported: %v", err)
}

// readCharts reads an import: iReal Pro links (one chart per song), content JSON, chords over lyrics, or a ChordPro file,
// told apart as the import route tells them (board.SniffFormat).
func readCharts(ctx context.Context, data []byte) ([]chart, error) {
	var charts []board.Chart
	var err error
	switch board.SniffFormat(data) {
	case "ireal":
		charts, err = ireal.Read(ctx, data) // stops at an interrupt
	case "text":
		charts, err = chordtext.ReadCharts(ctx, data)
	case "json":
		var c board.Content
		c, err = board.ParseContent(bytes.TrimSpace(data))
		charts = []board.Chart{{Title: c.Title, Content: c}}
	default:
		charts, err = chordpro.ReadCharts(ctx, data)
	}
	if err != nil {
		return nil, err
	}
	out := make([]chart, len(charts))
	for i, s := range charts {
		out[i] = chart{s.Title, s.Content, s.Notes, s.Err}
	}
	return out, nil
}

func readImportFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	if len(data) > maxImportBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes: that is no chart", path, maxImportBytes)
	}
	return data, nil
}

// candidateIDs are the ids tried for an import without --id: the title as an id, then with -2 … -9.
func candidateIDs(title string) []string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 56 {
			break
		}
	}
	base := b.String()
	if base == "" {
		base = "imported"
	}
	ids := []string{base}
	for n := 2; n <= 9; n++ {
		ids = append(ids, base+"-"+strconv.Itoa(n))
	}
	return ids
}

func oneID(cmd string, ids []string) (string, error) { return oneIDOf("board", "<id>", cmd, ids) }

// oneIDOf is the one id a command about one board or set (kind) takes; placeholder names it in usage.
func oneIDOf(kind, placeholder, cmd string, ids []string) (string, error) {
	switch {
	case len(ids) == 0:
		return "", usagef("%s needs a %s id: use tele %s %s", cmd, kind, cmd, placeholder)
	case len(ids) > 1:
		return "", usagef("%s takes one %s id, got %q and %q", cmd, kind, ids[0], ids[1])
	case !board.ValidID(ids[0]):
		return "", fmt.Errorf("bad %s id %q: an id is 1 to 64 letters, digits, _ or -, starting with a letter or digit", kind, ids[0])
	}
	return ids[0], nil
}
