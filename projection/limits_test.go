package projection

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"tele/utf16count"
)

func TestProjectionCut100Items(t *testing.T) {
	var es []string
	for k := 0; k < 150; k++ {
		es = append(es, pjUser(fmt.Sprintf("u%d", k), fmt.Sprintf("message %d", k)))
	}
	p, items, trunc := pjProject(t, pjBranch(es[:99]...))
	if trunc || len(items) != 99 {
		t.Fatalf("99 items: got %d, truncated %v", len(items), trunc)
	}
	if err := p.ApplyBranch(false, pjBranch(es[99])); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	if trunc || len(items) != 100 {
		t.Fatalf("100 items: got %d, truncated %v", len(items), trunc)
	}
	if err := p.ApplyBranch(false, pjBranch(es[100:]...)); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	pjCheckView(t, p, items)
	if !trunc || len(items) != 100 || items[0].ID != "u50" || items[99].ID != "u149" {
		t.Fatalf("150 items: got %d (%s..%s), truncated %v", len(items), items[0].ID, items[len(items)-1].ID, trunc)
	}
	// The streamed items count too: one more pushes the oldest out.
	if err := p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"live"}]}`)); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	if !trunc || len(items) != 100 || items[0].ID != "u51" || items[99].ID != "stream.live" {
		t.Fatalf("with streaming: %d items (%s..%s), truncated %v", len(items), items[0].ID, items[len(items)-1].ID, trunc)
	}
	// A short branch with a streamed message: not truncated.
	p, _, _ = pjProject(t, pjBranch(es[:3]...))
	p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"live"}]}`))
	if items, trunc = p.Items(); trunc || len(items) != 4 {
		t.Fatalf("3+1 items: %d, truncated %v", len(items), trunc)
	}
}

func TestProjectionCut256KiB(t *testing.T) {
	big := strings.Repeat("x", MaxItemTextUnits) // 32 KiB of JSON per item
	var es []string
	for k := 0; k < 20; k++ {
		es = append(es, pjAsst(fmt.Sprintf("a%d", k), "stop", pjText(big)))
	}
	p, items, trunc := pjProject(t, pjBranch(es...))
	js, _ := itemsJSON(p)
	if !trunc || len(items) != 7 || items[6].ID != "a19" || len(js) > MaxViewBytes {
		t.Fatalf("got %d items, %d bytes, truncated %v", len(items), len(js), trunc)
	}
	// Escaped text costs its escaped size: control characters are 6 bytes each on the wire.
	ctl := strings.Repeat("\x01", MaxItemTextUnits)
	p, items, trunc = pjProject(t, pjBranch(pjAsst("a1", "stop", pjText(ctl)), pjAsst("a2", "stop", pjText(ctl))))
	js, _ = itemsJSON(p)
	if !trunc || len(items) != 1 || items[0].ID != "a2" || len(js) < 6*MaxItemTextUnits {
		t.Fatalf("escaped: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
	}
	// Exactly at the limit: 8 items whose array is MaxViewBytes long all fit; one byte more cuts the oldest.
	for _, extra := range []int{0, 1} {
		var es []string
		size := 2 + 7*(35+MaxItemTextUnits+1) // brackets, 7 newest items and their commas
		first := MaxViewBytes - size - 35 + extra
		es = append(es, pjUser("b7", strings.Repeat("y", first)))
		for k := 6; k >= 0; k-- {
			es = append(es, pjUser(fmt.Sprint("b", k), strings.Repeat("x", MaxItemTextUnits)))
		}
		p, items, trunc = pjProject(t, pjBranch(es...))
		js, _ = itemsJSON(p)
		if extra == 0 && (trunc || len(items) != 8 || len(js) != MaxViewBytes) {
			t.Fatalf("at the limit: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
		}
		if extra == 1 && (!trunc || len(items) != 7) {
			t.Fatalf("one byte over: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
		}
	}
}

func TestProjectionIDsAtMost160Units(t *testing.T) {
	long := strings.Repeat("f", 128)
	blocks := []string{pjText("a")}
	for k := 0; k < 1500; k++ {
		blocks = append(blocks, pjToolCall(fmt.Sprint("c", k), "t", `{}`), pjText("b"))
	}
	p, items, _ := pjProject(t, pjBranch(pjAsst(long, "aborted", blocks...), pjCompaction(strings.Repeat("g", 128), "s")))
	if len(items) != 100 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		if n := utf16count.Of(it.ID); n > MaxItemIDUnits || !strings.HasPrefix(it.ID, long[:100]) && !strings.HasPrefix(it.ID, "ggg") {
			t.Fatalf("id %q: %d units", it.ID, n)
		}
	}
	if p.skipped != 0 {
		t.Fatalf("skipped %d", p.skipped)
	}
	if got := items[len(items)-2].ID; got != long+".n" {
		t.Fatalf("notice id %q", got)
	}
	if got := items[len(items)-3].ID; got != long+".x3000" {
		t.Fatalf("last run id %q", got)
	}
}

func TestProjectionTextUTF16Limit(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want string
	}{
		{"ascii over", strings.Repeat("a", MaxItemTextUnits+10), strings.Repeat("a", MaxItemTextUnits)},
		{"ascii exact", strings.Repeat("a", MaxItemTextUnits), strings.Repeat("a", MaxItemTextUnits)},
		{"CJK over", strings.Repeat("中", MaxItemTextUnits+1), strings.Repeat("中", MaxItemTextUnits)},
		{"emoji over", strings.Repeat("😀", MaxItemTextUnits), strings.Repeat("😀", MaxItemTextUnits/2)},
		{"pair on the boundary", strings.Repeat("a", MaxItemTextUnits-1) + "😀", strings.Repeat("a", MaxItemTextUnits-1)},
		{"emoji exact", "a" + strings.Repeat("😀", MaxItemTextUnits/2-1) + "b", "a" + strings.Repeat("😀", MaxItemTextUnits/2-1) + "b"},
		// 32,768 CJK characters are 98,304 bytes: the limit counts units, not bytes.
		{"CJK exact", strings.Repeat("字", MaxItemTextUnits), strings.Repeat("字", MaxItemTextUnits)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Both as a single block and as two joined blocks (the join is cut too).
			_, items, _ := pjProject(t, pjBranch(pjUser("u1", tc.text)))
			if len(items) != 1 || items[0].Text != tc.want {
				t.Fatalf("got %d units (%d bytes), want %d units", utf16count.Of(items[0].Text), len(items[0].Text), utf16count.Of(tc.want))
			}
			_, items, _ = pjProject(t, pjBranch(pjAsst("a1", "stop", pjText(tc.text), pjText("tail"))))
			if !utf8.ValidString(items[0].Text) || utf16count.Of(items[0].Text) > MaxItemTextUnits ||
				!strings.HasPrefix(tc.text+"\n\ntail", items[0].Text) {
				t.Fatalf("joined: %d units", utf16count.Of(items[0].Text))
			}
		})
	}
	// Tool names: at most 100 units.
	_, items, _ := pjProject(t, pjBranch(pjAsst("a1", "toolUse", pjToolCall("c", strings.Repeat("名", 150), `{}`))))
	if items[0].Name != strings.Repeat("名", 100) {
		t.Fatalf("name cut to %d units", utf16count.Of(items[0].Name))
	}
}
