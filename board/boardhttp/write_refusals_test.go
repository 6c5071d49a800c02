package boardhttp_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"tele/server/servertest"
)

// wantWriteRefused: the refusal of wantRefused, on a board still at revision current, saying what a
// refused write also says: the board's revision (412) and how to authenticate (401).
func wantWriteRefused(t *testing.T, e *servertest.Env, tc servertest.WriteCase, before map[string]string, w *httptest.ResponseRecorder, current int64) {
	t.Helper()
	wantRefused(t, e, tc.Name, before, w, tc.WantCode, tc.WantPath)
	if after, _ := e.Store.Get("song"); after.Revision != current {
		t.Errorf("revision moved %d → %d", current, after.Revision)
	}
	var eb servertest.ErrorBody
	json.Unmarshal(w.Body.Bytes(), &eb)
	if tc.WantPath != "" && eb.Error.Rule == "" {
		t.Errorf("no rule with path %q", tc.WantPath)
	}
	if tc.WantStatus == 412 && eb.Error.CurrentRevision != current {
		t.Errorf("currentRevision = %d, want %d", eb.Error.CurrentRevision, current)
	}
	if tc.WantStatus == 401 && w.Header().Get("WWW-Authenticate") == "" {
		t.Errorf("401 without WWW-Authenticate")
	}
}
