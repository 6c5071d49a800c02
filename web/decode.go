package web

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"strings"

	"tele/strict"
)

// MaxJSONDepth is how deeply a request body may nest arrays and objects. Board content nests 7 levels
// in a create or import request; a deeper body is refused before it is decoded (docs/security.md).
const MaxJSONDepth = 32

// DecodeJSON reads r's body as exactly one JSON object into v, strictly (docs/security.md):
//
//   - Content-Type must be application/json, optionally with charset=utf-8; else 415 unsupported_media_type;
//   - a body longer than limit is 413 too_large (refused from Content-Length before reading when it
//     says so, else while reading, through http.MaxBytesReader);
//   - the body must nest at most MaxJSONDepth levels, checked before decoding; else 400 bad_json;
//   - the body must be one JSON object: no other value, no second object, no trailing data, no
//     duplicate key, no unknown field, no invalid UTF-8; else 400 bad_json with the JSON path and rule.
//
// Errors are *Error, ready for WriteError.
func DecodeJSON(r *http.Request, limit int64, v any) error {
	if err := CheckJSONRequest(r, limit); err != nil {
		return err
	}
	data, err := readBody(r, limit)
	if err != nil {
		return err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return badJSON("", "the body must be one JSON object")
	}
	err = strict.CheckDepth(data, MaxJSONDepth)
	if err == nil {
		err = strict.Decode(data, v)
	}
	if err != nil {
		if se, ok := errors.AsType[*strict.Error](err); ok {
			return badJSON(se.Path, se.Rule)
		}
		return badJSON("", err.Error())
	}
	return nil
}

// CheckJSONRequest makes DecodeJSON's checks that need only the headers: 415 unless the Content-Type is
// JSON, 413 when Content-Length is over limit. A route that authenticates after these cheap checks but
// before reading the body calls it first; DecodeJSON repeats it.
func CheckJSONRequest(r *http.Request, limit int64) error {
	if !isJSONContentType(r.Header) {
		return NewError(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Content-Type must be application/json")
	}
	if r.ContentLength > limit {
		return tooLarge(limit)
	}
	return nil
}

// readBody reads at most limit bytes of r's body; more is a 413.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body := http.MaxBytesReader(nil, r.Body, limit)
	var data []byte
	if n := r.ContentLength; n > 0 && n <= limit {
		// One allocation of the announced size; +1 so that reading the EOF needs no growth.
		data = make([]byte, 0, n+1)
	}
	buf := bytes.NewBuffer(data)
	if _, err := buf.ReadFrom(body); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, tooLarge(limit)
		}
		return nil, NewError(http.StatusBadRequest, "bad_json", "the body could not be read")
	}
	return buf.Bytes(), nil
}

func tooLarge(limit int64) *Error {
	return (&Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
		Message: "the body is too large"}).With("limit", limit)
}

func badJSON(path, rule string) *Error {
	msg := "the body is not valid: " + rule
	if path != "" {
		msg = "the body is not valid at " + path + ": " + rule
	}
	return &Error{Status: http.StatusBadRequest, Code: "bad_json", Message: msg,
		Fields: map[string]any{"path": path, "rule": rule}}
}

// isJSONContentType reports whether the request has exactly one Content-Type, application/json, with
// no parameter other than charset=utf-8. Form and text types are refused: a cross-site form or a
// "simple" fetch can send them without a preflight.
func isJSONContentType(h http.Header) bool {
	vals := h["Content-Type"]
	if len(vals) != 1 {
		return false
	}
	if vals[0] == "application/json" {
		return true
	}
	mt, params, err := mime.ParseMediaType(vals[0])
	if err != nil || mt != "application/json" {
		return false
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return false
		}
	}
	return true
}
