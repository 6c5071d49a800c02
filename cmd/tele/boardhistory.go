package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"text/tabwriter"

	"tele/board"
	"tele/board/store"
)

// defaultHistoryLimit is how many revisions `tele board history` prints without --limit.
const defaultHistoryLimit = 20

// runBoardHistory is `tele board history <id> [--limit n]` (n from 1 to 1,000, default 20): the board's newest revisions, newest first,
// one a line: revision, author, time (UTC) and title, and "restored from N" for a restore. It only
// reads the revision files: no lock, so it works while a server owns the directory.
func runBoardHistory(_ context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	limit := defaultHistoryLimit
	var ids []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		name, val, hasVal := strings.Cut(a, "=")
		if name != "--limit" && name != "-limit" {
			ids = append(ids, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(rest) {
				return usagef("--limit needs a value: use --limit <1..%d>", store.KeepRevisions)
			}
			i++
			val = rest[i]
		}
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > store.KeepRevisions {
			return usagef("bad --limit %q: use a whole number from 1 to %d", val, store.KeepRevisions)
		}
		limit = n
	}
	if len(ids) == 0 {
		return usagef("board history needs a board id: use tele board history <id>")
	}
	if len(ids) > 1 {
		return usagef("board history takes one board id, got %q and %q", ids[0], ids[1])
	}
	id := ids[0]
	if !board.ValidID(id) {
		return fmt.Errorf("bad board id %q: an id is 1 to 64 letters, digits, _ or -, starting with a letter or digit", id)
	}
	rows, err := store.ReadHistory(s.DataDir, id, limit)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no board %q in %s: see the boards at http://127.0.0.1:%d/ or check --data/TELE_DATA",
			id, s.DataDir, s.Port)
	}
	if err != nil {
		return fmt.Errorf("cannot read the history of board %q in %s: %v", id, s.DataDir, err)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tAUTHOR\tTIME (UTC)\tTITLE")
	for _, r := range rows {
		title := printable(r.Title) // one line per revision, whatever the title holds
		if r.RestoredFrom != 0 {
			title += " (restored from " + strconv.FormatInt(r.RestoredFrom, 10) + ")"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", r.Revision, r.Author, r.UpdatedAt.UTC().Format("2006-01-02 15:04:05"), title)
	}
	return tw.Flush()
}
