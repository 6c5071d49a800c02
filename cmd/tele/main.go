// Command tele serves chord boards and hosts the Pi extension's link (README.md).
//
//	tele serve                       serve boards on http://127.0.0.1:4317
//	tele host                        the link end started by the Pi bridge
//	tele board link <id> [--new] [--show-key]  print a board's edit link (--new: replace it first)
//	tele board history <id>          print a board's newest revisions
//	tele board export <id>           print a board as ChordPro (or --format json)
//	tele board import <file>         new boards from a ChordPro, JSON or iReal Pro file
//	tele board delete <id> --yes     delete a board and its history
//	tele set list|show|export <set>  print the sets, a set's songs, a set as a songbook or playlist
//	tele pi install [--project]      install the Pi bridge
//	tele pi print [--package]        print the Pi bridge (--package: the Pi package's)
//	tele version                     print the version and the revision it was built from
//	tele help                        list commands and settings
//
// This file dispatches; each command lives in its own file and gets the process through Env.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Env is everything a command may take from the process besides its arguments. Tests fill it in.
type Env struct {
	Stdin      io.Reader
	Stdout     io.Writer // results only: links, the serving line, link frames (tele host)
	Stderr     io.Writer // logs and the one-line errors
	Getenv     func(string) string
	Getwd      func() (string, error)
	Executable func() (string, error) // the tele binary (for the install check and the Pi bridge)
}

func osEnv() *Env {
	return &Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Getwd:      os.Getwd,
		Executable: os.Executable,
	}
}

// Every command is func(ctx context.Context, args []string, env *Env) error. It runs with a context that
// main never cancels (commands set up their own signal handling: serve stops on SIGINT/SIGTERM, host ends
// when its stdin closes) and returns nil, a *usageError (exit 2), or any other error (exit 1). Errors print
// as one line `tele: <message>` on stderr.

func main() {
	os.Exit(run(context.Background(), os.Args[1:], osEnv()))
}

// run dispatches args and returns the exit status.
func run(ctx context.Context, args []string, env *Env) int {
	err := dispatch(ctx, args, env)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		fmt.Fprint(env.Stdout, helpText)
		return 0
	}
	fmt.Fprintln(env.Stderr, "tele: "+errorLine(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func dispatch(ctx context.Context, args []string, env *Env) error {
	if len(args) == 0 {
		return usagef("no command given: run tele help")
	}
	cmd, rest := args[0], args[1:]
	for _, a := range rest {
		if a == "-h" || a == "--help" || a == "-help" {
			return errHelp
		}
		if a == "--" {
			break
		}
	}
	switch cmd {
	case "help", "-h", "--help", "-help":
		return errHelp
	case "serve":
		return runServe(ctx, rest, env)
	case "host":
		return runHost(ctx, rest, env)
	case "board":
		switch {
		case len(rest) > 0 && rest[0] == "link":
			return runBoardLink(ctx, rest[1:], env)
		case len(rest) > 0 && rest[0] == "history":
			return runBoardHistory(ctx, rest[1:], env)
		case len(rest) > 0 && rest[0] == "export":
			return runBoardExport(ctx, rest[1:], env)
		case len(rest) > 0 && rest[0] == "import":
			return runBoardImport(ctx, rest[1:], env)
		case len(rest) > 0 && rest[0] == "delete":
			return runBoardDelete(ctx, rest[1:], env)
		case len(rest) > 0 && rest[0] == "check":
			return runBoardCheck(ctx, rest[1:], env)
		}
		return usagef("unknown board command: use tele board link, history, export, import, delete or check")
	case "set":
		return runSet(ctx, rest, env)
	case "pi":
		return runPi(ctx, rest, env)
	case "version", "--version":
		return runVersion(ctx, rest, env)
	}
	return usagef("unknown command %q: run tele help", cmd)
}

const helpText = `tele — chord boards in the browser, and a Pi extension that can edit them.

Commands:
  tele serve [--share]          serve boards at http://127.0.0.1:<port>/
                                (prints the example board's edit link on first start);
                                --share: also a read-only band view on the local network
  tele board link <id>          print the edit link of a board (works while a server runs)
  tele board link <id> --new    make a new edit link; every earlier one stops working
  tele board link <id> --show-key  the link with the key itself (for scripts), not a one-time code
  tele board history <id> [--limit <n>]
                                print the newest revisions of a board: who wrote each, when
                                (20 unless --limit says; works while a server runs)
  tele board export <id> [--format chordpro|ireal|json]
                                print a board as a ChordPro file of grid sections, an iReal Pro
                                irealb:// link, or its JSON
  tele board import <file> [--id <id>] [--check]
                                a new board from a ChordPro file's grid sections, a board's JSON,
                                or iReal Pro links (a playlist: one board per song); prints each
                                edit link (through the server when one runs); --check prints what
                                it would make, with every note, and writes nothing
  tele board delete <id> --yes  delete a board and its whole history, for good
                                (through the server when one runs: its open pages say so)
  tele board check              list what the server set aside because it could not read it
                                (a board, a revision, an edit key), why, and where it is now
  tele set list                 print the sets: id, number of songs, title
  tele set show <set>           print a set's songs in order
  tele set export <set> [--format chordpro|ireal]
                                print a set as one ChordPro songbook, or one iReal Pro
                                playlist link, its songs in order
  tele pi install [--project]   install the Pi extension into ~/.pi/agent/extensions/tele.js
                                (--project: into .pi/extensions/tele.js of this directory)
  tele pi print                 print the Pi extension, for pi -e
                                (--package: the one of the Pi package, see make pi-package)
  tele host [--open-browser]    the link end started by the Pi extension (not for people)
  tele version                  print the version and the revision it was built from
  tele help                     this text

Settings (every command takes them; flags beat environment):
  --port <1..65535>   TELE_PORT   default 4317   (tele host also takes 0: any free port)
  --data <path>       TELE_DATA   default ~/.tele (relative paths start at the working directory)
  --share-addr <ip:port>  TELE_SHARE_ADDR  default the first private IPv4 address, port 4318
                      (where --share listens; see docs/band.md)
  --max-boards <n>    TELE_MAX_BOARDS  default 10000: the most boards tele serve keeps
  --max-bytes <n>     TELE_MAX_BYTES   default 4G: the most bytes of boards (K, M, G, T suffixes)

In Pi: /tele <board> binds a board and gives a one-time link to pair a browser; /tele off ends it.
`

// errHelp asks run to print the help text and exit 0.
var errHelp = errors.New("help requested")

// usageError is a bad command line or setting: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// checkNoArgs refuses anything parseSettings left over, for commands that take no other arguments.
func checkNoArgs(cmd string, rest []string) error {
	if len(rest) > 0 {
		return usagef("%s: unexpected argument %q: run tele help", cmd, rest[0])
	}
	return nil
}
