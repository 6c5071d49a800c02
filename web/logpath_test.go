package web

import "testing"

func TestLogPath(t *testing.T) {
	for in, want := range map[string]string{
		"/api/chat/0b1e6d3c":             "/api/chat/:binding",
		"/api/chat/0b1e6d3c/events":      "/api/chat/:binding/events",
		"/api/chat/0b1e6d3c/command/x/y": "/api/chat/:binding/command/x/y",
		"/api/chat/":                     "/api/chat/:binding",
		"/api/chat":                      "/api/chat",
		"/api/boards/welcome":            "/api/boards/welcome",
		"/b/welcome":                     "/b/welcome",
		"/api/chatter/x":                 "/api/chatter/x",
	} {
		if got := LogPath(in); got != want {
			t.Errorf("LogPath(%q) = %q, want %q", in, got, want)
		}
	}
}
