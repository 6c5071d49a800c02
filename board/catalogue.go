package board

import (
	"encoding/json"
	"maps"
	"sync"

	"tele/chord"
)

// NoChord is the symbol of a bar (or part of one) where nothing sounds.
const NoChord = chord.NoChord

// CatalogueDoc is the chord library (docs/content.md) as GET /api/catalogue and the tool's catalogue
// action serve it: the chord package's catalogue, and the content schema versions this server reads.
type CatalogueDoc struct {
	chord.Doc      `json:",inline"`
	SchemaVersions []int `json:"schemaVersions"`
	// SchemaChanges says in a sentence what each version after the first adds, keyed by version, so
	// that the model's tool reads the rules of the form and of beat positions where it reads the chords.
	SchemaChanges map[string]string `json:"schemaChanges"`
}

// schemaChanges is CatalogueDoc.SchemaChanges. Read only.
var schemaChanges = map[string]string{
	"2": `form: a bar may be an object {"chords": [...] or "%" (the chords of the bar before), "beats"?: 1-12 (this bar's meter), ` +
		`"repeatStart"?: true, "repeatEnd"?: 2-8 (times played), "ending"?: 1-4, "mark"?: segno|coda|fine|to-coda|dc|ds|dc-al-fine|dc-al-coda|ds-al-fine|ds-al-coda}; ` +
		`a section may have a "role" (intro, verse, prechorus, chorus, bridge, solo, interlude, outro, tag)`,
	"3": `beat positions: a bar object may say how many beats each chord takes, "durations": [3, 1] (C for three beats, G7 on beat 4), ` +
		`one whole number >= 1 a chord, adding up to the bar's beats (its "beats", else beatsPerBar); without durations the chords share the bar evenly; ` +
		`a "%" bar has none (it plays the rhythm of the bar it repeats). ` +
		`Lines of words: a section holds "bars", "lines", or both (a grid, then its words); a line is {"text": "...", "chords": [{"at": 0, "chord": "G"}, ...]} ` +
		`where "at" is the chord's place in the text in UTF-16 code units (0 = before the first character, the text's length = after the last), ` +
		`places strictly increasing and never inside a surrogate pair, chords as in bars; "chords" may be left out; a line's text is at most 500 units, ` +
		`a section 1-200 lines, a song 1000. A section {"label": "...", "recall": "chorus"} holds nothing else: it is the nearest chorus before it sung again ` +
		`(a section with "role": "chorus" must come before it). Lines are shown, not played. ` +
		`The content may have "artist", "composer" and "style" (each at most 120 units). ` +
		`The form as real books write it (no new member): an ending numbered after the repeat's last, reached only by a plain "dc"/"ds" on the bar right before it ` +
		`(D.C. al 3rd ending: after the jump the band plays the repeat again and takes that ending); an end repeat closing an ending with no next ending ` +
		`(the last pass goes on after it); ending 1 running across a section start to its end repeat; a plain repeat (a vamp) inside a repeat's bars or ending 1; ` +
		`Fine or To Coda in an ending that goes back (after the jump the band takes that ending); the coda inside a last ending. ` +
		`A bar object may have "toCoda": true, To Coda on a bar whose "mark" is another sign (a jump, Fine, segno): the jump is taken first, To Coda after it`,
	"4": `two jumps (no new member): a chart may have two D.C./D.S. marks, the first al Fine or al Coda (a D.C. al Fine after the head, a D.S. after the solos), ` +
		`and two "fine" marks when both jumps are al Fine. Each jump is taken the first time it is reached; after an al Fine jump the first Fine reached ends the song ` +
		`only once both jumps are taken, else the band goes on after that jump; an al Coda jump leaves at To Coda for the coda; on the last journey an al Fine jump ` +
		`already taken is taken once more when its Fine lies between its target and it. Every bar must be played`,
}

// Catalogue returns the chord library. The result is the caller's to keep or change.
func Catalogue() CatalogueDoc {
	return CatalogueDoc{Doc: chord.Catalogue(), SchemaVersions: append([]int(nil), contentSchemaVersions[:]...), SchemaChanges: maps.Clone(schemaChanges)}
}

// catalogueJSON is the catalogue encoded once, on first use.
var catalogueJSON = sync.OnceValue(func() []byte {
	b, err := json.Marshal(Catalogue())
	if err != nil {
		panic("board: cannot encode the catalogue: " + err.Error())
	}
	return b
})

// CatalogueJSON returns the catalogue's JSON encoding (made once; each call returns its own copy).
func CatalogueJSON() []byte {
	return append([]byte(nil), catalogueJSON()...)
}
