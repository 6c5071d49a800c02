package assets

// piTool is the tele_board tool exactly as the bridge registers it with Pi (pi.registerTool): the words
// the model reads and the schema of its arguments live here, beside the Go that answers the calls
// (host/tool.go), and Bridge bakes them into the bridge as a JavaScript object literal.
var piTool = struct {
	Name             string   `json:"name"`
	Label            string   `json:"label"`
	Description      string   `json:"description"`
	PromptSnippet    string   `json:"promptSnippet"`
	PromptGuidelines []string `json:"promptGuidelines"`
	Parameters       any      `json:"parameters"`
}{
	Name:  "tele_board",
	Label: "Tele board",
	Description: `Read and edit the chord board the user bound to this session with /tele (only that board). ` +
		`action "catalogue": the chord catalogue and content rules (schemaChanges: what each content schema version adds). ` +
		`action "get": the board as {"id","revision","content","updatedAt","author","restoredFrom","schemaVersion"} (author: browser, pi or tele, who wrote this revision). ` +
		`action "put": replace the whole content; pass expectedRevision = the revision you last read and content = the complete new content object ` +
		`{"title","description","key"?,"tempo","beatsPerBar","sections":[{"label","role"?,"bars":[["Am7"],["D7","G7"]]}]}. ` +
		`Form (schema version 2): a bar may instead be an object {"chords":["Am7"] or "%" (same as the bar before),"beats"?:3 (this bar's meter),` +
		`"repeatStart"?:true,"repeatEnd"?:2 (times played),"ending"?:1 (a volta starts here),"mark"?:"segno"|"coda"|"fine"|"to-coda"|"dc"|"ds"|"dc-al-fine"|"dc-al-coda"|"ds-al-fine"|"ds-al-coda"}. ` +
		`Beat positions (schema version 3): a bar object may give each chord its beats, {"chords":["C","G7"],"durations":[3,1]} (C three beats, G7 on beat 4), ` +
		`whole numbers >= 1 adding up to the bar's beats; without durations the chords share the bar evenly. ` +
		`Two jumps (schema version 4): a chart may have two jump marks, the first al Fine or al Coda (a dc-al-fine after the head, a ds after the solos), ` +
		`and two "fine" marks when both jumps are al Fine; each jump is taken the first time, and catalogue's schemaChanges says how they are played. ` +
		`Lines of words (schema version 3): a section holds "bars", "lines" or both (a grid, then its words); a line is ` +
		`{"text":"Amazing grace","chords":[{"at":0,"chord":"G"},{"at":8,"chord":"C"}]} where "at" is the chord's place in the text in UTF-16 code units ` +
		`(0 before the first character, the text's length after the last; an emoji counts 2, never between its halves), places strictly increasing; ` +
		`"chords" may be left out. {"label":"Chorus","recall":"chorus"} (nothing else) sings the chorus before it again. ` +
		`Optional "artist", "composer", "style" beside "title". Keep every line you do not change exactly as you read it. ` +
		`Repeats do not nest; ending 1 lies inside the repeat and ends with repeatEnd 2, ending 2 starts on the next bar. ` +
		`role is one of intro, verse, prechorus, chorus, bridge, solo, interlude, outro, tag. ` +
		`A put with a stale revision fails with revision_conflict and the current revision: get again, reapply the change, put again. ` +
		`Invalid content fails with the JSON path and rule of the first problem.`,
	PromptSnippet: "Read and edit the Tele chord board bound to this session (catalogue, get, put)",
	PromptGuidelines: []string{
		`Call tele_board with action "get" before changing the board; never guess its content or revision.`,
		`To change the board call tele_board with action "put", the complete new content as a JSON object (not a patch, not a string) and expectedRevision set to the revision of your last get or put.`,
		`If a tele_board put fails with revision_conflict, call get again, apply the change to the fresh content and put with the new revision; if it fails with invalid_content, fix the value at the reported path.`,
		`Use chord symbols from tele_board action "catalogue" (root + quality, optional /bass, or N.C.); common spellings such as Cmaj7, C-7 or Cø are accepted and stored in the catalogue's spelling, and a refused symbol comes back with a suggestion.`,
	},
	Parameters: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"action":           map[string]any{"type": "string", "enum": []string{"catalogue", "get", "put"}, "description": "catalogue, get or put"},
			"expectedRevision": map[string]any{"type": "integer", "minimum": 1, "description": "put only: the revision you last read"},
			"content":          map[string]any{"type": "object", "description": "put only: the complete board content object"},
			"note":             map[string]any{"type": "string", "maxLength": 200, "description": "put in review mode only: one line telling the musician what the change is for"},
		},
		"required":             []string{"action"},
		"additionalProperties": false,
	},
}

// reviewDescription is added to the tool's description while the binding is in review mode (docs/api.md):
// the host sends the whole description before each of the model's turns, so the bridge knows no modes.
const reviewDescription = ` REVIEW MODE IS ON: your edits are proposals the musician reviews. ` +
	`A put with valid content changes nothing on the board: it stores a proposal against expectedRevision and answers {"status":"proposed","proposal":"<id>","baseRevision":n}; ` +
	`give it a "note", one line (at most 200 characters) telling the musician what the change is for. ` +
	`The musician accepts all of it, some bars or sections, or rejects it; you are told the outcome before your next turn. ` +
	`"get" lists the open proposals as "proposals": [{"id","baseRevision","note"}]. ` +
	`A board keeps at most 20 open proposals: past that a put fails with too_many_proposals; tell the musician.`

// PiToolDescription is the tele_board tool's description, in review mode (propose) or not.
func PiToolDescription(propose bool) string {
	if propose {
		return piTool.Description + reviewDescription
	}
	return piTool.Description
}
