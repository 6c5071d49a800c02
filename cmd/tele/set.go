package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"text/tabwriter"

	"tele/board"
	"tele/board/store"
	"tele/chordpro"
	"tele/ireal"
	"tele/setlist"
)

// runSet is `tele set list|show|export`: the sets of the data directory, read from their files without
// the lock, so every one works while a server runs.
func runSet(_ context.Context, args []string, env *Env) error {
	if len(args) == 0 {
		return usagef("set needs a command: use tele set list, show <set> or export <set>")
	}
	var formatFlag *string
	own := func(fs *flag.FlagSet) {
		if args[0] == "export" { // the only set command with an option of its own
			formatFlag = fs.String("format", "", "")
		}
	}
	s, rest, err := parseCommand(args[1:], env, false, own)
	if err != nil {
		return err
	}
	switch args[0] {
	case "list":
		if err := checkNoArgs("set list", rest); err != nil {
			return err
		}
		return setList(s, env)
	case "show":
		id, err := oneSetID("set show", rest)
		if err != nil {
			return err
		}
		return setShow(s, id, env)
	case "export":
		if err := refuseOptions(rest); err != nil {
			return err
		}
		ids, format := rest, *formatFlag
		if format == "" {
			format = "chordpro"
		}
		if format != "chordpro" && format != "ireal" {
			return usagef("bad --format %q: use --format chordpro or --format ireal", format)
		}
		id, err := oneSetID("set export", ids)
		if err != nil {
			return err
		}
		return setExport(s, id, format, env)
	}
	return usagef("unknown set command %q: use tele set list, show <set> or export <set>", args[0])
}

func oneSetID(cmd string, ids []string) (string, error) { return oneIDOf("set", "<set>", cmd, ids) }

// setList prints one set a line: id, songs, title.
func setList(s Settings, env *Env) error {
	sets, err := setlist.ReadAll(s.DataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no data directory %s: start tele serve once, or check --data/TELE_DATA", s.DataDir)
	}
	if err != nil {
		return fmt.Errorf("cannot read the sets: %v", err)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SET\tSONGS\tTITLE")
	for _, set := range sets {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", set.ID, len(set.Boards), printable(set.Title))
	}
	return tw.Flush()
}

// readSet reads set id, with one line saying what to do when it is not there.
func readSet(s Settings, id string) (setlist.Set, error) {
	set, err := setlist.ReadSet(s.DataDir, id)
	if errors.Is(err, setlist.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return set, fmt.Errorf("no set %q in %s: see the sets with tele set list, or check --data/TELE_DATA", id, s.DataDir)
	}
	if err != nil {
		return set, fmt.Errorf("cannot read set %q: %v", id, err)
	}
	return set, nil
}

// setShow prints the set's title, then its songs in order: position, board id, the board's title (or
// that the board is gone: a set may outlive a board it names).
func setShow(s Settings, id string, env *Env) error {
	set, err := readSet(s, id)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, printable(set.Title))
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for i, bid := range set.Boards {
		title := "(no such board: deleted since)"
		if b, err := store.ReadBoard(s.DataDir, bid); err == nil {
			title = printable(b.Content.Title)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\n", i+1, bid, title)
	}
	return tw.Flush()
}

// setExport prints the set as one ChordPro songbook or one iReal Pro playlist link, its songs in
// order. A board the set names that is gone stops the export with one line naming it.
func setExport(s Settings, id, format string, env *Env) error {
	set, err := readSet(s, id)
	if err != nil {
		return err
	}
	songs := make([]board.Content, len(set.Boards))
	for i, bid := range set.Boards {
		b, err := store.ReadBoard(s.DataDir, bid)
		if err != nil {
			return fmt.Errorf("set %q names board %q, which cannot be read (%v): remove it from the set or bring the board back", id, bid, err)
		}
		songs[i] = b.Content
	}
	if format == "ireal" {
		for i, c := range songs {
			for _, l := range ireal.Lost(c) {
				fmt.Fprintf(env.Stderr, "tele: note: %s: an iReal Pro link cannot hold %s\n", set.Boards[i], printable(l))
			}
		}
		_, err = fmt.Fprintln(env.Stdout, forTerminal(string(ireal.WritePlaylist(set.Title, songs)), keepNothing, chordproEscape))
		return err
	}
	_, err = fmt.Fprint(env.Stdout, forTerminal(string(chordpro.WriteSongbook(songs)), keepLines, chordproEscape))
	return err
}
