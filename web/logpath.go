package web

import "strings"

// chatPrefix starts the chat routes, whose next segment is a binding id (docs/api.md).
const chatPrefix = "/api/chat/"

// LogPath is a request path as Tele logs it: the binding id of a chat route is written ":binding". The
// pairing cookie is scoped to /api/chat/<binding>, and browsers do not keep cookies apart by port, so
// the id is what keeps other local servers from receiving the cookie (docs/security.md): it never goes
// to a log. Every other path is logged as it is (board ids are no secret; capabilities and invitations
// never travel in a path, queries are never logged).
func LogPath(path string) string {
	rest, ok := strings.CutPrefix(path, chatPrefix)
	if !ok {
		return path
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return chatPrefix + ":binding" + rest[i:]
	}
	return chatPrefix + ":binding"
}
