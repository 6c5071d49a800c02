package server

import (
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"tele/assets"
	"tele/firstview"
)

// firstView fills the board page with the board's chart as the server draws it (package firstview),
// so that a browser with nothing cached shows it before the page's modules arrive. It leaves the page
// as it is where the page would draw something else: under `tele host`, whose chat panel narrows the
// grid; for a page opened in a set (?set=…), whose navigation stands above the grid; for a song with
// words; and for a board it cannot read (the page then says why).
func firstView(cfg Config) assets.Fill {
	return func(r *http.Request) (map[string]string, string, bool) {
		if cfg.Chat != nil || cfg.Store == nil || r.URL.RawQuery != "" {
			return nil, "", false
		}
		b, err := cfg.Store.Get(httprouter.ParamsFromContext(r.Context()).ByName("board"))
		if err != nil || !firstview.Eligible(b.Content) {
			return nil, "", false
		}
		return firstview.Slots(b.Content), "r" + strconv.FormatInt(b.Revision, 10), true
	}
}
