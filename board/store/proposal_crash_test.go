//go:build unix

package store

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tele/board"
)

// TestProposalCrash runs proposals, rejections and accepts in a child process (this test, re-executed
// with proposalCrashEnv set), kills it with SIGKILL after a random number of acknowledged steps, and
// reopens the directory: every acknowledged proposal is open unless its rejection or accept was
// acknowledged, nothing unacknowledged but the one step in flight differs, and every proposal file
// left reads back whole. As in TestCrashSafety, this proves atomicity against a process crash.
const proposalCrashEnv = "TELE_PROPOSAL_CRASH_CHILD"

func TestProposalCrash(t *testing.T) {
	if dir := os.Getenv(proposalCrashEnv); dir != "" {
		proposalCrashChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("kills child processes")
	}
	dir := t.TempDir()
	open := map[string]int64{} // acknowledged open proposals, by id, with their base revision
	for run := range 8 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProposalCrash$")
		cmd.Env = append(os.Environ(), proposalCrashEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		ack := func() bool {
			f := strings.Fields(lines.Text())
			if len(f) < 2 {
				return false
			}
			switch f[0] {
			case "P":
				open[f[1]], _ = strconv.ParseInt(f[2], 10, 64)
			case "R", "A":
				delete(open, f[1])
			}
			return true
		}
		stopAfter := 5 + rand.IntN(60)
		for acks := 0; acks < stopAfter && lines.Scan(); {
			if ack() {
				acks++
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		// The child may have acknowledged more steps between our last read and its death (on a loaded
		// machine, several): every line it wrote is an acknowledgement, so read the pipe to its end.
		for lines.Scan() {
			ack()
		}
		cmd.Wait()

		s := openT(t, dir, Options{Logger: quiet})
		list, err := s.Proposals("song")
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := s.Get("song")
		got := map[string]int64{}
		for _, p := range list {
			got[p.ID] = p.BaseRevision
		}
		extra, missing := 0, 0
		for id, base := range open {
			if cur.Revision-base >= ProposalMaxAge {
				delete(open, id) // dropped by the age rule
			}
		}
		for id := range got {
			if _, ok := open[id]; !ok {
				extra++ // proposed but not yet acknowledged, or closed but not yet acknowledged
			}
		}
		for id := range open {
			if _, ok := got[id]; !ok {
				missing++ // closed but not yet acknowledged
			}
		}
		if extra+missing > 1 {
			t.Fatalf("run %d: %d open proposals not acknowledged and %d acknowledged ones missing; at most the step in flight may differ", run, extra, missing)
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "boards", "song", "proposals"))
		if len(ents) != len(list) {
			t.Fatalf("run %d: %d entries in the proposals folder, %d proposals read", run, len(ents), len(list))
		}
		open = got
		s.Close()
	}
}

func proposalCrashChild(dir string) {
	s, err := Open(dir, Options{Logger: quiet})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	if _, err := s.Get("song"); err != nil {
		if _, _, err := s.Create("song", board.Example(), AuthorBrowser); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(3)
		}
	}
	for i := 0; ; i++ {
		cur, _ := s.Get("song")
		list, _ := s.Proposals("song")
		var err error
		switch {
		case len(list) >= MaxOpenProposals-2 || i%4 == 3:
			if len(list) > 0 {
				if err = s.Reject("song", list[len(list)-1].ID); err == nil {
					fmt.Fprintf(os.Stdout, "R %s\n", list[len(list)-1].ID)
				}
			}
		case i%4 == 2 && len(list) > 0:
			_, err = s.Accept("song", list[0].ID, cur.Revision, board.Selection{})
			if err == nil {
				fmt.Fprintf(os.Stdout, "A %s\n", list[0].ID)
			}
		default:
			var p Proposal
			p, err = s.Propose("song", cur.Revision, withBar(board.Example(), i%2, i%8, []string{"A7", "Dm", "E7", "Bb"}[i%4]), AuthorPi, "step")
			if err == nil {
				fmt.Fprintf(os.Stdout, "P %s %d\n", p.ID, p.BaseRevision)
			}
		}
		if _, ok := errors.AsType[*board.ProposalConflictError](err); err != nil && !ok {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(3)
		}
	}
}
