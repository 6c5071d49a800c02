package web

import (
	"net/http"
	"strings"
)

// NotModified reports whether the request's If-None-Match names etag, so that a GET is answered 304
// Not Modified: "*", or a comma-separated list of entity tags one of which equals etag when compared
// weakly (W/"3" matches "3", RFC 9110 13.1.2). etag is a quoted strong tag such as "3". http.ServeContent
// does the same for the pages and static files, but it also serves Range and If-Match with plain-text
// errors, which the API's JSON routes must not.
func NotModified(r *http.Request, etag string) bool {
	for _, v := range r.Header["If-None-Match"] {
		for tag := range strings.SplitSeq(v, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}
