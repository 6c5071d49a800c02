package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

// The lyric line the lyric step writes, and the chord the model then adds to it (content schema
// version 3): the emoji is two UTF-16 code units, so the chord after it stands at 17, not 16.
const (
	lyricText     = "Amazing grace 😀 how sweet"
	lyricAddedAt  = 17
	lyricAddedSym = "Am7"
)

// lyricReply: the model reads the board, puts a lyric line with one chord in the first section, reads
// it again and adds a chord to that line.
func (p *probe) lyricReply(tools []ModelMessage) Reply {
	put := func(got gjson.Result, edit func(s map[string]any)) Reply {
		var content map[string]any
		_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
		if sections, _ := content["sections"].([]any); len(sections) > 0 {
			if s, ok := sections[0].(map[string]any); ok {
				edit(s)
			}
		}
		args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
	}
	switch len(tools) {
	case 0, 2:
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
	case 1:
		return put(gjson.Parse(tools[0].Text()), func(s map[string]any) {
			s["lines"] = []any{map[string]any{"text": lyricText, "chords": []any{map[string]any{"at": 0, "chord": "C"}}}}
		})
	case 3:
		return put(gjson.Parse(tools[2].Text()), func(s map[string]any) {
			lines, _ := s["lines"].([]any)
			if len(lines) == 0 {
				return
			}
			line, _ := lines[0].(map[string]any)
			chords, _ := line["chords"].([]any)
			line["chords"] = append(chords, map[string]any{"at": lyricAddedAt, "chord": lyricAddedSym})
		})
	}
	return Reply{Text: "chord added to the line"}
}

// lyricLineChord: issue 25's probe: the model writes a lyric line and adds a chord to it, placed in
// UTF-16 code units past an emoji; the board keeps both chords, on disk and over HTTP.
func (p *probe) lyricLineChord(t *testing.T) string {
	n := p.fm.Count()
	p.pi.PromptAndWait("PROBE_LYRIC add a chord to the line")
	reqs := p.fm.Requests()[n:]
	if len(reqs) != 5 {
		t.Fatalf("want 5 model requests (get, put, get, put, text), got %d", len(reqs))
	}
	put := gjson.Parse(reqs[4].Last().Text())
	want := func(line gjson.Result) bool {
		return line.Get("text").String() == lyricText && line.Get("chords.#").Int() == 2 &&
			line.Get("chords.1.at").Int() == lyricAddedAt && line.Get("chords.1.chord").String() == lyricAddedSym
	}
	if line := put.Get("content.sections.0.lines.0"); !want(line) || put.Get("schemaVersion").Int() != 3 {
		t.Fatalf("put result line = %s (schema version %d): %.300s", line.Raw, put.Get("schemaVersion").Int(), reqs[4].Last().Text())
	}
	rev := put.Get("revision").Int()
	disk, err := os.ReadFile(filepath.Join(p.pi.DataDir, "boards", board, itoa(rev)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if line := gjson.GetBytes(disk, "content.sections.0.lines.0"); !want(line) {
		t.Fatalf("line on disk = %s", line.Raw)
	}
	code, v := p.c.request(t, "GET", "/api/boards/"+board, nil)
	if line := v.Get("content.sections.0.lines.0"); code != 200 || v.Get("revision").Int() != rev || !want(line) {
		t.Fatalf("board over HTTP: %d revision %d line %s", code, v.Get("revision").Int(), line.Raw)
	}
	return "the model put a lyric line with C at 0, read it back and added Am7 at 17 (past an emoji, in UTF-16 units); both chords on disk and over HTTP, schema version 3"
}
