package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tele/board"
)

// proposalStore opens a store with board "song" (the example) and counts proposal-list events.
func proposalStore(t *testing.T, dir string) (*Store, *int) {
	t.Helper()
	n := new(int)
	s := openT(t, dir, Options{OnProposals: func(string, []Proposal) { *n++ }})
	if _, err := s.Get("song"); errors.Is(err, ErrNotFound) {
		if _, _, err := s.Create("song", board.Example(), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
	}
	return s, n
}

// withBar returns c with bar (s, b) replaced by chords.
func withBar(c board.Content, s, b int, chords ...string) board.Content {
	c = c.Clone()
	c.Sections[s].Bars[b] = board.PlainBar(chords...)
	return c
}

func revisionFiles(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "boards", "song"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if _, ok := parseRevisionName(e.Name()); ok {
			n++
		}
	}
	return n
}

func TestProposeCommitsNothingAndSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s, events := proposalStore(t, dir)
	p, err := s.Propose("song", 1, withBar(board.Example(), 0, 1, "A7"), AuthorPi, "a secondary dominant")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Get("song"); b.Revision != 1 || revisionFiles(t, dir) != 1 {
		t.Fatalf("a proposal committed: revision %d, %d files", b.Revision, revisionFiles(t, dir))
	}
	if *events != 1 {
		t.Errorf("OnProposals ran %d times, want 1", *events)
	}
	s.Close()
	s2, _ := proposalStore(t, dir)
	got, err := s2.GetProposal("song", p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.BaseRevision != 1 || got.Note != p.Note || got.Author != AuthorPi || !got.CreatedAt.Equal(p.CreatedAt) ||
		!sameJSON(got.Content, p.Content) {
		t.Errorf("after a restart the proposal is %+v, want %+v", got, p)
	}
}

func TestProposalsNewestFirstAndLimit(t *testing.T) {
	dir := t.TempDir()
	s, _ := proposalStore(t, dir)
	var ids []string
	for i := range MaxOpenProposals {
		p, err := s.Propose("song", 1, withBar(board.Example(), 0, i%8, "E7"), AuthorPi, "")
		if err != nil {
			t.Fatalf("proposal %d: %v", i, err)
		}
		ids = append(ids, p.ID)
	}
	if _, err := s.Propose("song", 1, board.Example(), AuthorPi, ""); !errors.Is(err, ErrTooManyProposals) {
		t.Fatalf("proposal 21: %v, want ErrTooManyProposals", err)
	}
	list, _ := s.Proposals("song")
	got := make([]string, len(list))
	for i, p := range list {
		got[i] = p.ID
	}
	slices.Reverse(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("Proposals = %v, want newest first %v", got, ids)
	}
}

func TestProposeRefusals(t *testing.T) {
	s, _ := proposalStore(t, t.TempDir())
	bad := board.Example()
	bad.Sections[0].Bars[0] = board.PlainBar("H7")
	for _, tc := range []struct {
		name string
		base int64
		c    board.Content
		note string
		want func(error) bool
	}{
		{"invalid content", 1, bad, "", func(err error) bool { _, ok := errors.AsType[*board.ValidationError](err); return ok }},
		{"two-line note", 1, board.Example(), "a\nb", func(err error) bool { return errors.Is(err, ErrBadNote) }},
		{"future base", 2, board.Example(), "", func(err error) bool { return errors.Is(err, ErrBadBaseRevision) }},
		{"no base", 0, board.Example(), "", func(err error) bool { return errors.Is(err, ErrBadBaseRevision) }},
	} {
		if _, err := s.Propose("song", tc.base, tc.c, AuthorPi, tc.note); !tc.want(err) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := s.Propose("nope", 1, board.Example(), AuthorPi, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown board: %v", err)
	}
	if list, _ := s.Proposals("song"); len(list) != 0 {
		t.Errorf("refused proposals were stored: %d", len(list))
	}
}

func TestRejectWritesNoRevision(t *testing.T) {
	dir := t.TempDir()
	s, events := proposalStore(t, dir)
	p, _ := s.Propose("song", 1, withBar(board.Example(), 0, 0, "D"), AuthorPi, "")
	if err := s.Reject("song", p.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Reject("song", p.ID); !errors.Is(err, ErrProposalNotFound) {
		t.Errorf("second reject: %v", err)
	}
	if b, _ := s.Get("song"); b.Revision != 1 || revisionFiles(t, dir) != 1 {
		t.Errorf("reject wrote a revision")
	}
	if *events != 2 {
		t.Errorf("OnProposals ran %d times, want 2", *events)
	}
	s.Close()
	s2, _ := proposalStore(t, dir)
	if list, _ := s2.Proposals("song"); len(list) != 0 {
		t.Errorf("a rejected proposal came back after a restart")
	}
}

func TestAcceptIsOneDurableCommit(t *testing.T) {
	dir := t.TempDir()
	s, _ := proposalStore(t, dir)
	p, _ := s.Propose("song", 1, withBar(withBar(board.Example(), 0, 1, "A7"), 1, 0, "Dm9"), AuthorPi, "")
	if _, err := s.Accept("song", p.ID, 2, board.Selection{}); !isConflict(err) {
		t.Fatalf("accept at a wrong revision: %v", err)
	}
	b, err := s.Accept("song", p.ID, 1, board.Selection{Bars: [][2]int{{0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	want := withBar(board.Example(), 0, 1, "A7")
	if b.Revision != 2 || b.Author != AuthorPi || b.Proposal != p.ID || !sameJSON(b.Content, want) || revisionFiles(t, dir) != 2 {
		t.Fatalf("accepted: revision %d by %s naming %q, content right %v, %d files", b.Revision, b.Author, b.Proposal, sameJSON(b.Content, want), revisionFiles(t, dir))
	}
	if _, err := s.GetProposal("song", p.ID); !errors.Is(err, ErrProposalNotFound) {
		t.Errorf("the accepted proposal is still open: %v", err)
	}
	s.Close()
	s2, _ := proposalStore(t, dir)
	rows, _, err := s2.Revisions("song", 0, 10)
	if err != nil || len(rows) != 2 || rows[1].Proposal != p.ID || string(rows[1].JSON()) == "" {
		t.Fatalf("history after a restart: %v %+v", err, rows)
	}
	if got, _ := s2.Get("song"); got.Proposal != p.ID {
		t.Errorf("the current revision names proposal %q, want %q", got.Proposal, p.ID)
	}
}

// An accept whose proposal file survived (Accept does not sync its removal) is closed at the next
// read, because a revision names it, even when later revisions followed.
func TestAcceptedProposalLeftOnDiskIsClosed(t *testing.T) {
	dir := t.TempDir()
	s, _ := proposalStore(t, dir)
	p, _ := s.Propose("song", 1, withBar(board.Example(), 0, 1, "A7"), AuthorPi, "")
	path := filepath.Join(dir, "boards", "song", "proposals", p.ID+".json")
	saved := readFile(t, path)
	if _, err := s.Accept("song", p.ID, 1, board.Selection{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("song", 2, content("later"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.WriteFile(path, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	s2, _ := proposalStore(t, dir)
	if list, _ := s2.Proposals("song"); len(list) != 0 {
		t.Errorf("an accepted proposal reopened: %d open", len(list))
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("its file stays: %v", err)
	}
}

func isConflict(err error) bool { _, ok := errors.AsType[*ConflictError](err); return ok }

func TestAcceptMerge(t *testing.T) {
	ex := board.Example()
	for _, tc := range []struct {
		name     string
		moved    board.Content // the board's content at revision 2
		proposed board.Content // against revision 1
		sel      board.Selection
		want     board.Content
		conflict [][2]int
		badSel   bool
	}{
		{name: "all, board moved elsewhere", moved: withBar(ex, 1, 0, "Em7"), proposed: withBar(ex, 0, 1, "A7"),
			want: withBar(withBar(ex, 1, 0, "Em7"), 0, 1, "A7")},
		{name: "all, same bar both sides", moved: withBar(ex, 0, 1, "Am9"), proposed: withBar(ex, 0, 1, "A7"),
			conflict: [][2]int{{0, 1}}},
		{name: "all, a section renamed while the board moved elsewhere", moved: withBar(ex, 1, 0, "Em7"), proposed: func() board.Content {
			c := withBar(ex, 0, 1, "A7")
			c.Sections[0].Label = "Intro"
			return c
		}(), want: func() board.Content {
			c := withBar(withBar(ex, 1, 0, "Em7"), 0, 1, "A7")
			c.Sections[0].Label = "Intro"
			return c
		}()},
		{name: "all, same change both sides", moved: withBar(ex, 0, 1, "A7"), proposed: withBar(ex, 0, 1, "A7"),
			want: withBar(ex, 0, 1, "A7")},
		{name: "one bar of two", moved: withBar(ex, 1, 7, "C"), proposed: withBar(withBar(ex, 0, 1, "A7"), 0, 2, "Dm"),
			sel: board.Selection{Bars: [][2]int{{0, 2}}}, want: withBar(withBar(ex, 1, 7, "C"), 0, 2, "Dm")},
		{name: "bar conflict", moved: withBar(ex, 0, 2, "Fmaj7"), proposed: withBar(ex, 0, 2, "Dm"),
			sel: board.Selection{Bars: [][2]int{{0, 2}}}, conflict: [][2]int{{0, 2}}},
		{name: "bar out of range", moved: ex, proposed: ex, sel: board.Selection{Bars: [][2]int{{0, 8}}}, badSel: true},
		{name: "section out of range", moved: ex, proposed: ex, sel: board.Selection{Sections: []int{2}}, badSel: true},
		{name: "bar named twice", moved: ex, proposed: ex, sel: board.Selection{Bars: [][2]int{{0, 1}, {0, 1}}}, badSel: true},
		{name: "bars and sections", moved: ex, proposed: ex, sel: board.Selection{Bars: [][2]int{{0, 1}}, Sections: []int{0}}, badSel: true},
		{name: "a section whole", moved: withBar(ex, 0, 0, "C6"), proposed: withBar(withBar(ex, 1, 3, "A7"), 0, 5, "E7"),
			sel: board.Selection{Sections: []int{1}}, want: withBar(withBar(ex, 0, 0, "C6"), 1, 3, "A7")},
		{name: "an added section", moved: ex, proposed: func() board.Content {
			c := ex.Clone()
			c.Sections = append(c.Sections, board.Section{Label: "Bridge", Bars: []board.Bar{board.PlainBar("E7")}})
			return c
		}(), sel: board.Selection{Sections: []int{2}}, want: func() board.Content {
			c := ex.Clone()
			c.Sections = append(c.Sections, board.Section{Label: "Bridge", Bars: []board.Bar{board.PlainBar("E7")}})
			return c
		}()},
		{name: "a bar of a section that changed form", moved: ex, proposed: func() board.Content {
			c := ex.Clone()
			c.Sections[0].Bars = append(c.Sections[0].Bars, board.PlainBar("E7"))
			return c
		}(), sel: board.Selection{Bars: [][2]int{{0, 8}}}, badSel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, _ := proposalStore(t, dir)
			p, err := s.Propose("song", 1, tc.proposed, AuthorPi, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Put("song", 1, tc.moved, AuthorBrowser); err != nil {
				t.Fatal(err)
			}
			b, err := s.Accept("song", p.ID, 2, tc.sel)
			switch {
			case tc.badSel:
				if _, ok := errors.AsType[*board.SelectionError](err); !ok {
					t.Fatalf("err = %v, want *SelectionError", err)
				}
			case tc.conflict != nil:
				ce, ok := errors.AsType[*board.ProposalConflictError](err)
				if !ok || !slices.Equal(ce.Bars, tc.conflict) {
					t.Fatalf("err = %v, want a conflict on %v", err, tc.conflict)
				}
			case err != nil:
				t.Fatal(err)
			case !sameJSON(b.Content, tc.want):
				t.Fatalf("content = %s, want %s", b.JSON(), Board{ID: "song", Content: tc.want}.JSON())
			}
			if err != nil {
				if cur, _ := s.Get("song"); cur.Revision != 2 || revisionFiles(t, dir) != 2 {
					t.Errorf("a refused accept wrote a revision")
				}
				if _, gerr := s.GetProposal("song", p.ID); gerr != nil {
					t.Errorf("a refused accept closed the proposal: %v", gerr)
				}
			}
		})
	}
}

func TestProposalDroppedWhenTooOld(t *testing.T) {
	dir := t.TempDir()
	s, events := proposalStore(t, dir)
	p, _ := s.Propose("song", 1, withBar(board.Example(), 0, 1, "A7"), AuthorPi, "")
	for rev := int64(1); rev < ProposalMaxAge; rev++ {
		if _, err := s.Put("song", rev, content("take "+string(rune('a'+rev%26))), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
	}
	// At revision 50 the proposal is 49 revisions past its base: still open.
	if _, err := s.GetProposal("song", p.ID); err != nil {
		t.Fatalf("at revision %d: %v", ProposalMaxAge, err)
	}
	if _, err := s.Put("song", ProposalMaxAge, content("one more"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetProposal("song", p.ID); !errors.Is(err, ErrProposalNotFound) {
		t.Fatalf("50 revisions past its base: %v, want dropped", err)
	}
	if *events != 2 {
		t.Errorf("OnProposals ran %d times, want 2 (proposed, dropped)", *events)
	}
	if _, err := os.Stat(filepath.Join(dir, "boards", "song", "proposals", p.ID+".json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dropped proposal's file stays: %v", err)
	}
	if _, err := s.Propose("song", 1, board.Example(), AuthorPi, ""); !errors.Is(err, ErrBadBaseRevision) {
		t.Errorf("a proposal against a base 50 revisions old: %v", err)
	}
}

func TestDeleteTakesProposals(t *testing.T) {
	dir := t.TempDir()
	s, _ := proposalStore(t, dir)
	if _, err := s.Propose("song", 1, board.Example(), AuthorPi, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("song", 1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, _ := proposalStore(t, dir) // makes "song" again
	if list, _ := s2.Proposals("song"); len(list) != 0 {
		t.Errorf("a new board of the same id has %d proposals", len(list))
	}
}

// sameJSON reports whether two values encode alike.
func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// A proposal that changes only where a bar's chords fall is a change: merged against a board that moved
// elsewhere, its beat positions are taken (they were dropped, the bar counted as unchanged).
func TestAcceptTakesBeatPositions(t *testing.T) {
	dir := t.TempDir()
	s, _ := proposalStore(t, dir)
	even := withBar(board.Example(), 0, 1, "A7", "D7")
	if _, err := s.Put("song", 1, even, AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	uneven := even.Clone()
	uneven.Sections[0].Bars[1].Durations = []int{3, 1}
	p, err := s.Propose("song", 2, uneven, AuthorPi, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("song", 2, withBar(even, 1, 0, "Em7"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	b, err := s.Accept("song", p.ID, 3, board.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Content.Sections[0].Bars[1].Durations; !slices.Equal(got, []int{3, 1}) {
		t.Fatalf("durations of the accepted bar = %v, want [3 1]", got)
	}
	if got := b.Content.Sections[1].Bars[0].Chords; !slices.Equal(got, []string{"Em7"}) {
		t.Fatalf("the board's own change was lost: %v", got)
	}
}
