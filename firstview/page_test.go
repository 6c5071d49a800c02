package firstview

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"tele/board"
	"tele/board/formtable"

	"tele/tooltest"
)

// tagRE matches an element's tag as the first view writes them: a name, then attributes whose values
// are quoted and escaped.
var tagRE = regexp.MustCompile(`</?[a-z0-9]+(?: [a-z0-9-]+(?:="[^"<>]*")?)*>`)

// formCase is a chart of the form table as content.
type formCase struct {
	name    string
	content board.Content
}

func playable(t *testing.T) []formCase {
	t.Helper()
	var out []formCase
	for _, c := range formtable.Playable(t) {
		var secs []board.Section
		if err := json.Unmarshal(c.Sections, &secs); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out = append(out, formCase{c.Name, board.Content{Title: "T", Tempo: 120, BeatsPerBar: 4, Sections: secs}})
	}
	return out
}

// pageEndings runs the page's form.js with node on the charts' content: for each chart by name, its
// endingSpans and jumpEndings. Without node it skips loudly, and fails when TELE_E2E_REQUIRED=1.
func pageEndings(t *testing.T, cases []formCase) map[string][2][][]int {
	t.Helper()
	node := tooltest.Path(t, "node", "comparing the endings with the page's needs it")
	formJS, err := filepath.Abs("../assets/web/static/form.js")
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]board.Content{}
	for _, c := range cases {
		in[c.name] = c.content
	}
	input, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	script := `import { endingSpans, jumpEndings } from ` + string(mustJSON(t, "file://"+filepath.ToSlash(formJS))) + `;
let text = '';
for await (const chunk of process.stdin) text += chunk;
const out = {};
for (const [name, content] of Object.entries(JSON.parse(text))) out[name] = [endingSpans(content), jumpEndings(content)];
process.stdout.write(JSON.stringify(out));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got map[string][2][][]int
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node said %q: %v", out, err)
	}
	return got
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
