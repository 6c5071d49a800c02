package boardhttp_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"tele/board/boardhttp"
	"tele/board/store"
	"tele/server/servertest"
)

// claimHeader is what the page sends: JSON from its own origin, no key.
func claimHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}, "Origin": {"http://" + servertest.Host}, "Sec-Fetch-Site": {"same-origin"}}
}

func newClaim(t *testing.T, e *servertest.Env, id, capability string) string {
	t.Helper()
	w := e.Do(st{Method: "POST", Path: "/api/boards/" + id + "/claims", Body: "{}", Header: servertest.PutHeader(capability, "")})
	var answer map[string]string
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &answer) != nil || len(answer["claim"]) != 43 || answer["expiresAt"] == "" || len(answer) != 2 {
		t.Fatalf("new claim: %d %s", w.Code, w.Body)
	}
	if w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("the claim answer is cacheable: %q", w.Header().Get("Cache-Control"))
	}
	return answer["claim"]
}

func redeem(e *servertest.Env, id, code string) (int, string, string) {
	w := e.Do(st{Method: "POST", Path: "/api/boards/" + id + "/claim", Body: `{"claim":"` + code + `"}`, Header: claimHeader()})
	var answer struct{ Capability string }
	json.Unmarshal(w.Body.Bytes(), &answer)
	return w.Code, servertest.Code(w.Body.Bytes()), answer.Capability
}

// TestClaim (issue 26, finding 6): a holder of the key gets a one-time code; the code, posted once,
// answers the key (no-store); used again, for another board, after the key was replaced or after the
// board was deleted and made again it is 403 claim_invalid; minting needs the key.
func TestClaim(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")

	code := newClaim(t, e, "song", song.Capability)
	if status, c, _ := redeem(e, "other", code); status != 403 || c != "claim_invalid" {
		t.Fatalf("the code on another board: %d %s", status, c)
	}
	if status, _, key := redeem(e, "song", code); status != 200 || key != song.Capability {
		t.Fatalf("redeem: %d, key matches: %v", status, key == song.Capability)
	}
	if status, c, key := redeem(e, "song", code); status != 403 || c != "claim_invalid" || key != "" {
		t.Fatalf("the code used twice: %d %s", status, c)
	}

	// Minting needs the board's own key.
	for name, h := range map[string]http.Header{
		"no key":            {"Content-Type": {"application/json"}},
		"another board's":   servertest.PutHeader(other.Capability, ""),
		"from another site": headerWith(func() http.Header { return servertest.PutHeader(song.Capability, "") }, "Origin", "http://evil.example")(),
	} {
		if w := e.Do(st{Method: "POST", Path: "/api/boards/song/claims", Body: "{}", Header: h}); w.Code != 401 && w.Code != 403 {
			t.Fatalf("%s: a claim minted: %d %s", name, w.Code, w.Body)
		}
	}

	// A rotation voids the codes printed before it.
	code = newClaim(t, e, "song", song.Capability)
	w := e.Do(st{Method: "POST", Path: "/api/boards/song/capability", Body: "{}", Header: servertest.PutHeader(song.Capability, "")})
	if w.Code != 200 {
		t.Fatalf("rotation: %d", w.Code)
	}
	if status, c, _ := redeem(e, "song", code); status != 403 || c != "claim_invalid" {
		t.Fatalf("a code from before the rotation: %d %s", status, c)
	}

	// A deletion too, even when a board of the same id is made again.
	code = newClaim(t, e, "other", other.Capability)
	w = e.Do(st{Method: "DELETE", Path: "/api/boards/other", Header: servertest.PutHeader(other.Capability, `"1"`)})
	if w.Code != 204 {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	e.Create("other", "")
	if status, c, _ := redeem(e, "other", code); status != 403 || c != "claim_invalid" {
		t.Fatalf("a code of a deleted board: %d %s", status, c)
	}
	if status, c, _ := redeem(e, "nope", code); status != 404 || c != "not_found" {
		t.Fatalf("an unknown board: %d %s", status, c)
	}
}

// TestClaimExpires: a code works for a day, not a moment longer.
func TestClaimExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := servertest.New(t)
		song := e.Create("song", servertest.ValidContent)
		early, late := newClaim(t, e, "song", song.Capability), newClaim(t, e, "song", song.Capability)
		time.Sleep(store.ClaimLife - time.Second)
		if status, _, _ := redeem(e, "song", early); status != 200 {
			t.Fatalf("a code a second before its day ends: %d", status)
		}
		time.Sleep(time.Second)
		if status, c, _ := redeem(e, "song", late); status != 403 || c != "claim_invalid" {
			t.Fatalf("a code a day old: %d %s", status, c)
		}
	})
}

// TestClaimFailuresAreThrottled: wrong codes are refused 403 five times, then 429; the right code
// still redeems at once.
func TestClaimFailuresAreThrottled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := servertest.New(t)
		song := e.Create("song", servertest.ValidContent)
		code := newClaim(t, e, "song", song.Capability)
		for i := range boardhttp.ClaimFailBurst {
			if status, c, _ := redeem(e, "song", "wrong"); status != 403 || c != "claim_invalid" {
				t.Fatalf("wrong code %d: %d %s", i+1, status, c)
			}
		}
		if status, c, _ := redeem(e, "song", "wrong"); status != 429 || c != "rate_limited" {
			t.Fatalf("a wrong code past the burst: %d %s", status, c)
		}
		if status, _, key := redeem(e, "song", code); status != 200 || key != song.Capability {
			t.Fatalf("the right code during the flood: %d", status)
		}
	})
}
