package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"tele/assets"
	"tele/band"
	"tele/board/store"
	"tele/setlist"
	"tele/web"
)

// ErrShareAddr is returned (wrapped) by Start when the share address is not one Tele can listen on.
var ErrShareAddr = errors.New("bad share address")

// ListenShare binds the share listener on addr (<IPv4>:<port>, band.ParseAddr), and only there.
func ListenShare(addr string) (net.Listener, error) {
	ap, err := band.ParseAddr(addr)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrShareAddr, addr, err)
	}
	ln, err := net.Listen("tcp4", ap.String())
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrShareAddr, addr, unwrapOp(err))
	}
	return ln, nil
}

// unwrapOp drops the *net.OpError wrapper, whose address the caller's message already names.
func unwrapOp(err error) error {
	if oe, ok := errors.AsType[*net.OpError](err); ok {
		return oe.Err
	}
	return err
}

// ShareHandler is the whole HTTP stack of the share listener at addr: the same body deadline, access
// log and guard as loopback's, the guard admitting only Host addr, over the band's follower routes and
// pages (docs/band.md). Nothing else is routed there.
func ShareHandler(b *band.Band, boards *store.Store, sets *setlist.Store, a *assets.Assets, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	guarded := web.Guard(web.GuardConfig{Host: b.Addr()}, ShareRoutes(b, boards, sets, a, log))
	return bodyDeadline(BodyTimeout, accessLog(log, guarded))
}

// ShareRoutes returns the route table of the share listener, each route with its class: the band's
// follower routes and pages (band.FollowRoutes).
func ShareRoutes(b *band.Band, boards *store.Store, sets *setlist.Store, a *assets.Assets, log *slog.Logger) *web.Router {
	var pages band.Pages
	if a != nil {
		pages = band.Pages{Join: a.Page("join"), Follow: a.Page("follow"), Static: a.Static()}
	}
	return band.FollowRoutes(b, boards, sets, pages, log)
}
