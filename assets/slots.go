package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"regexp"
	"strconv"
)

// A page template may hold slots, {{SLOT name}}, which the server fills for each request with HTML of
// its own: the board page's title, description and grid, drawn by the server so that a browser with
// nothing cached shows the chart before the page's modules have loaded (the firstview package). Page
// serves a page with its slots empty, as the same bytes for every request; PageWith fills them.

// slotRE matches a slot and its name.
var slotRE = regexp.MustCompile(`\{\{SLOT ([a-z-]+)\}\}`)

// deferredRE matches what a page sends inert when its slots are filled, {{DEFERRED}}…{{/DEFERRED}}: the
// board page's preloads of its modules. Named at once, their fetching and compiling slows the parsing
// of the chart the page carries; a filled page holds them in <template id="deferred">, whose content
// fetches nothing until the page's script takes it (first-view.js, once the chart is painted). A page
// sent unfilled holds them as they are.
var deferredRE = regexp.MustCompile(`(?s)\{\{DEFERRED\}\}(.*?)\{\{/DEFERRED\}\}`)

// page is a rendered page: its body with every slot empty, and the pieces around its slots when filled.
type page struct {
	body   []byte
	etag   string
	pieces [][]byte // the text before each slot, then the text after the last
	slots  []string // the slots' names, in the order they appear
}

func newPage(template string) page {
	p := page{}
	text := deferredRE.ReplaceAllString(template, `<template id="deferred">$1</template>`)
	at := 0
	for _, m := range slotRE.FindAllStringSubmatchIndex(text, -1) {
		p.pieces = append(p.pieces, []byte(text[at:m[0]]))
		p.slots = append(p.slots, text[m[2]:m[3]])
		at = m[1]
	}
	p.pieces = append(p.pieces, []byte(text[at:]))
	p.body = []byte(slotRE.ReplaceAllString(deferredRE.ReplaceAllString(template, "$1"), ""))
	p.etag = etagOf(p.body)
	return p
}

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

// Fill says what a page's slots hold for one request: each slot's HTML by name (escaped by the filler; a
// slot it leaves out stays empty) and a tag that differs whenever the HTML does (a board's revision).
// Ok false serves the page with its slots empty.
type Fill func(r *http.Request) (slots map[string]string, tag string, ok bool)

// PageWith returns the handler of page name with its slots filled by fill for each request. The ETag
// is the empty page's and the tag together, so a browser revalidates a filled page as it does the page.
// An unknown name, or a slot name fill may use that the page does not hold, is a wiring mistake: the
// first panics, the second is the filler's tests' to find (the slot is left out).
func (a *Assets) PageWith(name string, fill Fill) http.Handler {
	p, ok := a.pages[name]
	if !ok {
		panic("assets: unknown page " + strconv.Quote(name))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		slots, tag, ok := fill(r)
		if !ok {
			servePage(w, r, p.body, p.etag)
			return
		}
		size := len(p.body)
		for _, s := range slots {
			size += len(s)
		}
		body := make([]byte, 0, size)
		for i, piece := range p.pieces {
			body = append(body, piece...)
			if i < len(p.slots) {
				body = append(body, slots[p.slots[i]]...)
			}
		}
		servePage(w, r, body, p.etag[:len(p.etag)-1]+"-"+tag+`"`)
	})
}
