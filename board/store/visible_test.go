package store

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"tele/board"
)

// TestNewID: the ids the store makes for boards are valid ids of 10 characters.
func TestNewID(t *testing.T) {
	for range 100 {
		if id := newID(); !board.ValidID(id) || len(id) != 10 {
			t.Fatalf("newID() = %q", id)
		}
	}
}

// TestInvisibleTitleStoredEarlierStillOpens: the rule applies to what is written; a board an earlier
// Tele stored with such a title opens and serves as it was, not set aside.
func TestInvisibleTitleStoredEarlierStillOpens(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	s.Create("zw", content("x"), AuthorPi)
	s.Close()
	c := content("\u200b")
	b := Board{ID: "zw", Revision: 2, Content: c, UpdatedAt: time.Now(), Author: AuthorPi}
	if err := os.WriteFile(revFile(dir, "zw", 2), boardFileBytes(b.JSON()), 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := openT(t, dir, Options{})
	if got, err := s2.Get("zw"); err != nil || got.Revision != 2 || got.Content.Title != "\u200b" || len(s2.SetAsideList()) != 0 {
		t.Fatalf("Get = %+v, %v; set aside %v", got.Revision, err, s2.SetAsideList())
	}
	if _, err := s2.Put("zw", 2, c, AuthorPi); !isInvisibleTitle(err) {
		t.Fatalf("a new write of it: %v", err)
	}
}

// isInvisibleTitle says err is the model's refusal of a title that shows nothing.
func isInvisibleTitle(err error) bool {
	ve, ok := errors.AsType[*board.ValidationError](err)
	return ok && ve.Path == "title" && strings.Contains(ve.Rule, "invisible")
}
