package host

import (
	"context"
	"path/filepath"
	"sync"

	"tele/webbrowser"
)

// BrowserDir is the directory, inside the data directory, of the files the browser is opened on. The
// data directory is the right home for them: it is 0700 and already holds the board capabilities, so
// it needs the protection these files need, and its lock makes this host the only writer, so files a
// crashed host left behind can be removed at start.
const BrowserDir = "browser"

// opened tracks the redirect files this host made; each is removed when its invitation ends, and every
// one when the host stops.
type opened struct {
	ctx  context.Context
	stop context.CancelFunc

	mu    sync.Mutex
	files []<-chan struct{} // closed once the file is gone
}

func newOpened() *opened {
	ctx, stop := context.WithCancel(context.Background())
	return &opened{ctx: ctx, stop: stop}
}

// browserOpener is the opener of Config.Browser; ok is false when the host opens no browser.
func (h *host) browserOpener() (o webbrowser.Opener, ok bool) {
	if len(h.cfg.Browser) == 0 {
		return webbrowser.Opener{}, false
	}
	return webbrowser.Opener{Dir: filepath.Join(h.cfg.DataDir, BrowserDir), Command: h.cfg.Browser}, true
}

// removeLeftovers removes redirect files a crashed host left behind; call it with the lock held.
func (h *host) removeLeftovers() {
	if o, ok := h.browserOpener(); ok {
		if err := o.RemoveLeftovers(); err != nil {
			h.log.Warn("host: cannot remove old browser redirect files", "err", err.Error())
		}
	}
}

// openBrowser opens the user's browser on an invitation link through a redirect file (package
// webbrowser), when the host was asked to (Config.Browser). ended is the invitation's end.
func (h *host) openBrowser(link string, ended <-chan struct{}) {
	o, ok := h.browserOpener()
	if !ok {
		return
	}
	done, err := o.Open(h.opened.ctx, link, ended)
	if err != nil { // the message names the command and the directory, never the link
		h.log.Warn("host: cannot open the browser", "err", err.Error())
		return
	}
	h.opened.mu.Lock()
	h.opened.files = append(h.opened.files, done)
	h.opened.mu.Unlock()
}

// removeOpened removes every redirect file still there and waits until they are gone.
func (h *host) removeOpened() {
	h.opened.stop()
	h.opened.mu.Lock()
	files := h.opened.files
	h.opened.mu.Unlock()
	for _, done := range files {
		<-done
	}
}
