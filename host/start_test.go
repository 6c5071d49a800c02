package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"tele/board/store"
	"tele/link"
	"tele/pairing"
	"tele/server"
	"tele/server/servertest"
)

// bareHost is a host in the middle of its start, with no link being read: what it sends the bridge is
// in out. Cleanup shuts it down as Run would and checks that nothing it started still runs.
func bareHost(t *testing.T, cfg Config) (h *host, out *servertest.LogBuffer) {
	t.Helper()
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })
	if cfg.DataDir == "" {
		cfg.DataDir = filepath.Join(t.TempDir(), "data")
	}
	logs := &servertest.LogBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	out = &servertest.LogBuffer{}
	h = &host{cfg: cfg, log: cfg.Logger, opened: newOpened(), phase: starting, stop: func() {}}
	h.conn = link.NewConn(strings.NewReader(""), out, h, cfg.Logger)
	t.Cleanup(func() {
		h.shutdown("test")
		if t.Failed() {
			t.Logf("host logs:\n%s", logs.String())
		}
	})
	return h, out
}

// sentNotes are the notes the host sent, decoded.
func sentNotes(t *testing.T, out *servertest.LogBuffer) []map[string]any {
	t.Helper()
	var notes []map[string]any
	for line := range strings.Lines(out.String()) {
		var n map[string]any
		if err := json.Unmarshal([]byte(line), &n); err != nil {
			t.Fatalf("a line that is not JSON: %q", line)
		}
		notes = append(notes, n)
	}
	return notes
}

func helloNote(protocol int, pi, board string) []byte {
	b, _ := json.Marshal(map[string]any{"note": "hello", "protocol": protocol, "bridge": "0.1.0", "pi": pi,
		"board": board, "session": map[string]any{"id": "sess-1"}})
	return b
}

// busyPort is a port this test listens on until it ends, or until it calls free.
func busyPort(t *testing.T) (port int, free func()) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port, func() { ln.Close() }
}

// freePort is a port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	port, free := busyPort(t)
	free()
	return port
}

// unlocked fails the test unless the data directory's lock is free.
func unlocked(t *testing.T, dir string) {
	t.Helper()
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
	s.Close()
}

func TestGreet(t *testing.T) {
	for _, tc := range []struct {
		name   string
		note   string
		code   string // the fatal; empty: none
		native []string
	}{
		{"current Pi", string(helloNote(1, "0.87.0", "songs")), "", []string{"agent_settled", "ui_prompt"}},
		{"oldest Pi", string(helloNote(1, "0.73.0", "songs")), "", []string{}},
		{"another protocol", string(helloNote(2, "0.87.0", "songs")), FatalProtocol, nil},
		{"no session", `{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x"}`, FatalProtocol, nil},
		{"a member too many", `{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x","session":{"id":"s"},"extra":1}`, FatalProtocol, nil},
		{"bad board", string(helloNote(1, "0.87.0", "../etc")), FatalBadBoard, nil},
		{"Pi too old", string(helloNote(1, "0.72.1", "songs")), FatalUnsupportedPi, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, out := bareHost(t, Config{})
			hl, native, fatal := h.greet([]byte(tc.note))
			switch {
			case tc.code == "" && fatal != nil:
				t.Fatalf("refused: %v", fatal)
			case tc.code == "" && (hl.board != "songs" || !slices.Equal(native, tc.native)):
				t.Fatalf("board %q native %q, want songs %q", hl.board, native, tc.native)
			case tc.code != "" && (fatal == nil || fatal.Code != tc.code):
				t.Fatalf("fatal %v, want code %s", fatal, tc.code)
			}
			if out.String() != "" {
				t.Fatalf("greet sent %s", out.String())
			}
			if _, err := os.Stat(h.cfg.DataDir); !os.IsNotExist(err) {
				t.Fatalf("greeting made the data directory: %v", err)
			}
		})
	}
}

func TestStartFatal(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		code string
		want []string // in the message
	}{
		{"port in use", fmt.Errorf("cannot listen: %w", server.ErrPortInUse), FatalPortInUse, []string{"port 8123 is in use", "--tele-port", "TELE_PORT"}},
		{"data locked", fmt.Errorf("cannot open: %w", &store.LockedError{Dir: "/d", PID: 42}), FatalDataLocked, []string{"/d", "pid 42", "--tele-data", "TELE_DATA"}},
		{"share address", fmt.Errorf("%w 10.0.0.1:1: no such address", server.ErrShareAddr), FatalInternal, []string{"cannot share with the band", "TELE_SHARE_ADDR"}},
		{"anything else", errors.New("cannot load the web pages"), FatalInternal, []string{"cannot load the web pages"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := startFatal(tc.err, 8123)
			if f.Code != tc.code {
				t.Fatalf("code %s, want %s", f.Code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(f.Message, w) {
					t.Errorf("message %q lacks %q", f.Message, w)
				}
			}
		})
	}
}

func TestInternalFatal(t *testing.T) {
	for _, tc := range []struct{ what, want string }{
		{"", "disk full"},
		{"cannot read the board", "cannot read the board: disk full"},
	} {
		if f := internalFatal(tc.what, errors.New("disk full")); f.Code != FatalInternal || f.Message != tc.want {
			t.Errorf("internalFatal(%q) = %+v, want %q", tc.what, f, tc.want)
		}
	}
}

// TestStart: each way a start ends, as the bridge hears it, and what the host still holds once start
// returns: a fatal before listening leaves the data directory alone, a fatal after listening has let
// go of the port and the lock already.
func TestStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func(t *testing.T, c *Config)
		note []byte
		code string // the fatal; empty: ready
	}{
		{"a bad greeting", nil, helloNote(2, "0.87.0", "songs"), FatalProtocol},
		{"a Pi too old", nil, helloNote(1, "0.70.0", "songs"), FatalUnsupportedPi},
		{"a fatal before listening", func(t *testing.T, c *Config) { c.Port, _ = busyPort(t) }, helloNote(1, "0.87.0", "songs"), FatalPortInUse},
		{"a fatal after listening", func(t *testing.T, c *Config) {
			c.Port = freePort(t)
			c.Quota = store.Quota{MaxBoards: -1, MaxBytes: 1}
		}, helloNote(1, "0.87.0", "songs"), FatalInternal},
		{"ready", func(t *testing.T, c *Config) { c.Port = freePort(t) }, helloNote(1, "0.87.0", "songs"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cfg Config
			if tc.cfg != nil {
				tc.cfg(t, &cfg)
			}
			h, out := bareHost(t, cfg)
			h.start(tc.note)
			notes := sentNotes(t, out)
			if len(notes) != 1 {
				t.Fatalf("sent %d notes, want 1: %s", len(notes), out.String())
			}
			n := notes[0]
			if tc.code == "" {
				if n["note"] != "ready" || h.phase != running || portClosed(cfg.Port) {
					t.Fatalf("sent %v; phase %v; port open %v", n, h.phase, !portClosed(cfg.Port))
				}
				return
			}
			refused(t, h, n, cfg.Port, tc.code)
		})
	}
}

// refused fails the test unless the start sent fatal code and let go of what it made: a start refused
// before listening leaves the data directory alone, one refused after it has freed the port and the lock.
func refused(t *testing.T, h *host, n map[string]any, port int, code string) {
	t.Helper()
	if n["note"] != "fatal" || n["code"] != code || h.fatal == nil || h.fatal.Code != code || h.phase != ended {
		t.Fatalf("sent %v, fatal %v, phase %v; want fatal %s", n, h.fatal, h.phase, code)
	}
	if h.started != nil || h.chatHub != nil || h.gateway != nil {
		t.Fatal("a failed start holds what it made")
	}
	if code == FatalInternal {
		if port != 0 && !portClosed(port) {
			t.Fatal("the port is still open")
		}
		unlocked(t, h.cfg.DataDir)
		return
	}
	if _, err := os.Stat(filepath.Join(h.cfg.DataDir, "boards")); !os.IsNotExist(err) {
		t.Fatalf("a start refused before listening changed the data directory: %v", err)
	}
}

func TestNewGateway(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	boards, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer boards.Close()
	if _, _, err := boards.EnsureExample("songs"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		board string
		fatal string // in the message; empty: none
	}{
		{"songs", ""},
		{"gone", "cannot read the board"},
	} {
		t.Run(tc.board, func(t *testing.T) {
			h, _ := bareHost(t, Config{DataDir: dir})
			b, fatal := h.newGateway(hello{board: tc.board, edits: "apply"}, boards)
			if tc.fatal != "" {
				if fatal == nil || fatal.Code != FatalInternal || !strings.Contains(fatal.Message, tc.fatal) || h.chatHub != nil {
					t.Fatalf("fatal %v, hub %v; want internal %q and no hub", fatal, h.chatHub, tc.fatal)
				}
				return
			}
			if fatal != nil || b.gateway == nil || b.binding == nil || h.chatHub == nil {
				t.Fatalf("fatal %v, bound %+v, hub %v", fatal, b, h.chatHub)
			}
			h.gateway = b.gateway // shut down with the host
			if want, err := boards.Instance("songs"); err != nil || want != b.instance {
				t.Fatal("the binding is not to the board's instance")
			}
		})
	}
}

// TestCommit: a host that ended while it started does not run, but holds what runs so that its
// shutdown stops it.
func TestCommit(t *testing.T) {
	for _, tc := range []struct {
		phase phase
		runs  bool
	}{
		{starting, true},
		{ended, false},
	} {
		t.Run(fmt.Sprint(tc.phase), func(t *testing.T) {
			h, _ := bareHost(t, Config{})
			h.phase = tc.phase
			binding, err := pairing.NewBinding()
			if err != nil {
				t.Fatal(err)
			}
			stopped := false
			done := make(chan error, 1)
			b := bound{port: 8123, binding: binding, serveDone: done, serveStop: func() { stopped = true; done <- nil }}
			if got := h.commit(hello{board: "songs"}, b); got != tc.runs {
				t.Fatalf("commit = %v, want %v", got, tc.runs)
			}
			if h.binding != binding || h.serveDone == nil {
				t.Fatal("the host does not hold what runs")
			}
			if runs := h.phase == running && h.boardID == "songs" && h.port == 8123; runs != tc.runs {
				t.Fatalf("phase %v board %q port %d", h.phase, h.boardID, h.port)
			}
			h.shutdown("test")
			if !stopped {
				t.Fatal("shutdown did not stop serving")
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestSendReady(t *testing.T) {
	for _, tc := range []struct {
		name   string
		broken bool
	}{
		{"heard", false},
		{"a broken link", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, out := bareHost(t, Config{})
			if tc.broken {
				h.conn = link.NewConn(strings.NewReader(""), failingWriter{}, h, h.log)
			}
			binding, err := pairing.NewBinding()
			if err != nil {
				t.Fatal(err)
			}
			h.binding, h.boardID, h.port, h.phase = binding, "songs", 8123, running
			h.sendReady([]string{"ui_prompt"})
			if tc.broken {
				if h.phase != ended || h.reason != "write_error" {
					t.Fatalf("phase %v reason %q, want ended by write_error", h.phase, h.reason)
				}
				return
			}
			notes := sentNotes(t, out)
			if len(notes) != 1 {
				t.Fatalf("sent %s", out.String())
			}
			n := notes[0]
			invite, _ := n["invite"].(string)
			if n["note"] != "ready" || n["protocol"] != float64(Protocol) || n["url"] != "http://127.0.0.1:8123/b/songs" ||
				n["binding"] != binding.ID() || n["epoch"] != binding.Epoch() || fmt.Sprint(n["native"]) != "[ui_prompt]" ||
				!strings.HasPrefix(invite, "http://127.0.0.1:8123/b/songs#binding=") {
				t.Fatalf("ready %v", n)
			}
			if h.phase != running {
				t.Fatalf("phase %v after ready", h.phase)
			}
		})
	}
}

// TestFatalAfterListening: through the link, a start that fails once it listens sends fatal, Run returns
// it, and the port and the data directory are free again.
func TestFatalAfterListening(t *testing.T) {
	port := freePort(t)
	fb := startHost(t, hostOpts{port: port, cfg: func(c *Config) { c.Quota = store.Quota{MaxBoards: -1, MaxBytes: 1} }})
	fb.hello("songs")
	if n := fb.note(); n.str("note") != "fatal" || n.str("code") != FatalInternal || !strings.Contains(n.str("message"), "invalid quota") {
		t.Fatalf("got %s", n.line)
	}
	var fe *FatalError
	if err := fb.runResult(); !errors.As(err, &fe) || fe.Code != FatalInternal {
		t.Fatalf("Run: %v", err)
	}
	released(t, fb, readyNote{port: port})
}
