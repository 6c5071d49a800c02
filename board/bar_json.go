package board

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"tele/strict"
)

// barDoc is a bar object as it arrives.
type barDoc struct {
	Chords      *barChords `json:"chords"`
	Durations   []int      `json:"durations"`
	Beats       int        `json:"beats"`
	RepeatStart bool       `json:"repeatStart"`
	RepeatEnd   int        `json:"repeatEnd"`
	Ending      int        `json:"ending"`
	Mark        Mark       `json:"mark"`
	ToCoda      bool       `json:"toCoda"`
}

// barChords is a bar object's chords: an array of symbols, or "%" (Simile).
type barChords struct {
	symbols []string
	simile  bool
}

// UnmarshalJSONFrom reads a bar as the schema writes it: the version-1 array of chord symbols, or an
// object (see Bar). It decodes with the decoder's options (strict.Decode's: unknown members, duplicate
// names and wrong types are refused with their paths) and checks shapes only; the rules are Validate's.
// Zero values of the optional members mean "none", as when they are left out.
func (b *Bar) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	*b = Bar{}
	switch dec.PeekKind() {
	case 'n':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		return &strict.Error{Rule: "must be an array, not null"}
	case '[':
		return json.UnmarshalDecode(dec, &b.Chords)
	case '{':
		var d barDoc
		if err := json.UnmarshalDecode(dec, &d); err != nil {
			return err
		}
		if d.Chords == nil {
			return &strict.Error{Path: "chords", Rule: ruleRequired + "; it " + ruleBarChords}
		}
		*b = Bar{Chords: d.Chords.symbols, Simile: d.Chords.simile, Durations: d.Durations, Beats: d.Beats, RepeatStart: d.RepeatStart,
			RepeatEnd: d.RepeatEnd, Ending: d.Ending, Mark: d.Mark, ToCoda: d.ToCoda}
		return nil
	}
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	return &strict.Error{Rule: "must be an array of 1–4 chord symbols, or a bar object {chords, durations, beats, repeatStart, repeatEnd, ending, mark, toCoda}"}
}

func (c *barChords) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '[':
		return json.UnmarshalDecode(dec, &c.symbols)
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if tok.String() != Simile {
			return &strict.Error{Rule: ruleBarChords}
		}
		c.simile = true
		return nil
	}
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	return &strict.Error{Rule: `must be an array of chord symbols, or "%"`}
}

// UnmarshalJSON lets encoding/json read a bar too, by the same rules (strict.Decode reads it with
// UnmarshalJSONFrom, which JSON v2 prefers).
func (b *Bar) UnmarshalJSON(data []byte) error {
	return strict.Decode(data, b)
}
