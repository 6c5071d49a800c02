package chord

import "testing"

// Content validation calls Canonical for every symbol of a board; an importer calls Map for every chord
// of a chart.
func BenchmarkCanonical(b *testing.B) {
	for b.Loop() {
		Canonical("F#m7b5/C#")
	}
}

func BenchmarkCanonicalAlias(b *testing.B) {
	for b.Loop() {
		Canonical("Bb^7")
	}
}

func BenchmarkCanonicalBuilt(b *testing.B) {
	for b.Loop() {
		Canonical("C7(b9,#11)")
	}
}

func BenchmarkSuggest(b *testing.B) {
	for b.Loop() {
		Suggest("Cdim7b")
	}
}

func BenchmarkMap(b *testing.B) {
	for b.Loop() {
		Map("Eb-^9/Bb")
	}
}
