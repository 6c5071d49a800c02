package board

import (
	"encoding/json"
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
}

// Catalogue returns the chord library. The result is the caller's to keep or change.
func Catalogue() CatalogueDoc {
	return CatalogueDoc{Doc: chord.Catalogue(), SchemaVersions: append([]int(nil), contentSchemaVersions[:]...)}
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
