package board

import (
	"reflect"
	"testing"
)

// TestNotes: a note is said once however often a reader meets it, with its first code, in the order
// first said; the zero value is ready.
func TestNotes(t *testing.T) {
	var n Notes
	if n.Texts() != nil || n.Codes() != nil {
		t.Fatalf("an empty Notes says %q %v", n.Texts(), n.Codes())
	}
	n.Add(NoteCode{Code: "a", Args: map[string]any{"bar": 1}}, "first")
	n.Add(NoteCode{Code: "b"}, "second")
	n.Add(NoteCode{Code: "a", Args: map[string]any{"bar": 2}}, "first")
	if want := []string{"first", "second"}; !reflect.DeepEqual(n.Texts(), want) {
		t.Errorf("texts %q, want %q", n.Texts(), want)
	}
	if want := []NoteCode{{Code: "a", Args: map[string]any{"bar": 1}}, {Code: "b"}}; !reflect.DeepEqual(n.Codes(), want) {
		t.Errorf("codes %v, want %v", n.Codes(), want)
	}
}
