package web

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// ErrorRoute is a route that answers its own success and returns its failure. A route that returns an
// error has written nothing.
type ErrorRoute func(http.ResponseWriter, *http.Request, httprouter.Params) error

// Handle adapts an ErrorRoute: every error it returns goes through mapErr, the caller's one mapping from
// its typed errors to *Error, and then WriteError. Each package with routes keeps its own mapping and
// shares this adapter, so all routes answer failures in one shape.
func Handle(mapErr func(error) error, route ErrorRoute) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		if err := route(w, r, ps); err != nil {
			WriteError(w, r, mapErr(err))
		}
	}
}
