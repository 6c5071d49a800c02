package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"tele/board"
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
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	opts, ids, err := boardFlags(rest, "format")
	if err != nil {
		return err
	}
	format := opts["format"]
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
	b, err := board.ReadBoard(s.DataDir, id)
	if errors.Is(err, board.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
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
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	check := false
	rest = slices.DeleteFunc(rest, func(a string) bool {
		check = check || a == "--check"
		return a == "--check"
	})
	opts, files, err := boardFlags(rest, "id")
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("board import takes one file: use tele board import <file> [--id <id>] [--check]")
	}
	id := opts["id"]
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
	cr := &creator{s: &s}
	defer cr.close()
	imported := 0
	for i, ch := range charts {
		songID := id
		if id != "" && i > 0 {
			songID = id + "-" + strconv.Itoa(i+1) // --id names a playlist's first song; the others follow it
		}
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
		link, err := cr.create(ctx, songID, ch.content)
		if err != nil {
			if len(charts) == 1 {
				return err
			}
			fmt.Fprintln(env.Stderr, "tele: "+printable(ch.title)+": not imported: "+errorLine(err.Error()))
			continue
		}
		if len(charts) > 1 {
			fmt.Fprintln(env.Stdout, printable(ch.title)+": "+link)
		} else {
			fmt.Fprintln(env.Stdout, link)
		}
		imported++
	}
	if len(charts) > 1 {
		fmt.Fprintf(env.Stderr, "tele: imported %d of %d songs\n", imported, len(charts))
		if imported == 0 {
			return fmt.Errorf("no song of %s could be imported", files[0])
		}
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

// creator creates the boards of one import: through the server that owns the data directory, or in
// the store, opened once (with its lock) for every board of a playlist rather than once for each.
type creator struct {
	s     *Settings
	st    *board.Store
	ready bool
}

func (cr *creator) close() {
	if cr.st != nil {
		cr.st.Close()
	}
}

// create creates a board of c with id (or, when id is "", the title's id or the next free variant)
// and returns its edit link.
func (cr *creator) create(ctx context.Context, id string, c board.Content) (string, error) {
	if !cr.ready {
		if _, port := board.RunningOwner(cr.s.DataDir); port != 0 {
			cr.s.Port = port
		} else {
			st, err := board.Open(cr.s.DataDir, board.Options{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				return "", err
			}
			if err := st.SetQuota(cr.s.Quota); err != nil {
				st.Close()
				return "", err
			}
			cr.st = st
		}
		cr.ready = true
	}
	ids := []string{id}
	if id == "" {
		ids = candidateIDs(c.Title)
	}
	var capability string
	var err error
	for _, try := range ids {
		id = try
		if cr.st != nil {
			_, capability, err = cr.st.Create(id, c, board.AuthorTele)
		} else {
			capability, err = createThroughServer(ctx, cr.s.Port, id, c)
		}
		if !errors.Is(err, board.ErrExists) {
			break
		}
	}
	if errors.Is(err, board.ErrExists) {
		return "", fmt.Errorf("a board %q already exists in %s: pick another id with --id <id>", id, cr.s.DataDir)
	}
	if qe, ok := errors.AsType[*board.QuotaError](err); ok {
		return "", fmt.Errorf("%v: delete boards you no longer need (tele board delete), or raise --max-boards/--max-bytes", qe)
	}
	if err != nil {
		return "", err
	}
	if cr.st == nil {
		// A running server: the link carries a one-time code of that server, not the key.
		code, err := claimThroughServer(ctx, cr.s.Port, id, capability)
		if err != nil {
			return "", err
		}
		return claimLink(cr.s.Port, id, code), nil
	}
	return editLink(cr.s.Port, id, capability), nil
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

// createThroughServer creates the board with POST /api/boards on the server that owns the directory.
func createThroughServer(ctx context.Context, port int, id string, c board.Content) (string, error) {
	body, err := json.Marshal(struct {
		ID      string        `json:"id"`
		Content board.Content `json:"content"`
	}{id, c})
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/api/boards"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("the server on port %d owns the data directory but did not answer: %v", port, err)
	}
	defer resp.Body.Close()
	var out struct {
		Capability string `json:"capability"`
		Error      struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out); err != nil {
		return "", fmt.Errorf("the server on port %d answered %s without a board: %v", port, resp.Status, err)
	}
	switch {
	case resp.StatusCode == http.StatusCreated && out.Capability != "":
		return out.Capability, nil
	case out.Error.Code == "board_exists":
		return "", board.ErrExists
	}
	return "", fmt.Errorf("the server on port %d refused the board (%s): %s", port, out.Error.Code, out.Error.Message)
}

// boardFlags splits --name value / --name=value options (only the names given) from the other
// arguments.
func boardFlags(args []string, names ...string) (map[string]string, []string, error) {
	opts := map[string]string{}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		known := strings.HasPrefix(a, "-") && len(a) > 1
		if known {
			known = false
			for _, n := range names {
				known = known || name == n
			}
		}
		if !known {
			if strings.HasPrefix(a, "--") && len(a) > 2 {
				return nil, nil, usagef("unknown option %q: run tele help", a)
			}
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, nil, usagef("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		opts[name] = val
	}
	return opts, rest, nil
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
