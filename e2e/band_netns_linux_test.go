package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestBandFollowerInNetns (issue 22): a follower in a network namespace of its own, joined to this
// machine by a veth pair the test makes, with a private /30 on it: the share listener is on the
// pair's address on this side, as on a laptop's Wi-Fi address, and the follower reaches it only over
// the pair. It joins, follows the leader's board and transport, and cannot reach the loopback listener
// (its 127.0.0.1 is its own). It needs root; without root it skips loudly, and with root a setup that
// fails is a failure under TELE_E2E_REQUIRED=1.
func TestBandFollowerInNetns(t *testing.T) {
	if os.Geteuid() != 0 {
		msg := "E2E SKIPPED: a network namespace and a veth pair need root"
		fmt.Fprintln(os.Stderr, "!!! "+msg)
		t.Skip(msg)
	}
	here, there, ns := vethPair(t)
	s := startServe(t, "--share", "--share-addr", here+":4318")
	share := "http://" + here + ":4318"

	// The leader, on loopback: share, show the welcome board.
	var start struct{ JoinURL, Leader string }
	if code := apiJSON(t, "POST", s.URL+"/api/share", nil, map[string]any{}, &start); code != 201 {
		t.Fatalf("POST /api/share: %d", code)
	}
	if !strings.HasPrefix(start.JoinURL, share+"/join#key=") {
		t.Fatalf("join link %q, want one on %s", start.JoinURL, share)
	}
	key := start.JoinURL[strings.Index(start.JoinURL, "#key=")+len("#key="):]
	lead := map[string]string{"Authorization": "Bearer " + start.Leader}
	if code := apiJSON(t, "POST", s.URL+"/api/share/state", lead, map[string]any{"board": "welcome"}, nil); code != 200 {
		t.Fatalf("POST /api/share/state: %d", code)
	}

	// The follower, in its namespace.
	jar, _ := cookiejar.New(nil)
	phone := &http.Client{Jar: jar, Timeout: 20 * time.Second, Transport: &http.Transport{DialContext: dialIn(ns)}}
	if _, err := dialIn(ns)(context.Background(), "tcp", fmt.Sprintf("127.0.0.1:%d", s.Port)); err == nil {
		t.Error("the follower's namespace reaches the loopback listener")
	}
	res, err := phone.Post(share+"/api/join", "application/json", strings.NewReader(`{"key":"`+key+`"}`))
	if err != nil {
		t.Fatalf("join from %s: %v", there, err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("join: %d", res.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", share+"/api/band/events", nil)
	stream, err := (&http.Client{Jar: jar, Transport: &http.Transport{DialContext: dialIn(ns)}}).Do(req)
	if err != nil {
		t.Fatalf("the follower's stream: %v", err)
	}
	defer stream.Body.Close()
	events := bufio.NewScanner(stream.Body)
	next := func(want string) {
		t.Helper()
		for events.Scan() {
			if line := events.Text(); strings.HasPrefix(line, "data:") && strings.Contains(line, want) {
				return
			}
		}
		t.Fatalf("the follower's stream ended without %s: %v", want, events.Err())
	}
	next(`"board":"welcome"`)
	board, err := phone.Get(share + "/api/band/boards/welcome")
	if err != nil || board.StatusCode != 200 {
		t.Fatalf("the shared board from the namespace: %v %v", board, err)
	}
	board.Body.Close()
	startedAt := time.Now().UnixMilli()
	tr := map[string]any{"board": "welcome", "transport": map[string]any{"playing": true, "tempo": 150, "startedAt": startedAt, "countIn": false, "loop": false, "from": 2}}
	if code := apiJSON(t, "POST", s.URL+"/api/share/state", lead, tr, nil); code != 200 {
		t.Fatalf("POST /api/share/state with a transport: %d", code)
	}
	next(fmt.Sprintf(`"startedAt":%d`, startedAt))
}

// vethPair makes a network namespace and a veth pair into it, with a private /30 (10.254.x.y/30, x and
// y from the process id, so parallel runs differ), and removes both at cleanup. It returns this
// side's address, the namespace's, and the namespace's path.
func vethPair(t *testing.T) (here, there, nsPath string) {
	t.Helper()
	pid := os.Getpid()
	name := fmt.Sprintf("tele-e2e-%d", pid)
	a, b := fmt.Sprintf("tlv%da", pid%100000), fmt.Sprintf("tlv%db", pid%100000)
	x, y := (pid>>6)%250, (pid%64)*4
	here, there = fmt.Sprintf("10.254.%d.%d", x, y+1), fmt.Sprintf("10.254.%d.%d", x, y+2)
	run := func(args ...string) error {
		out, err := exec.Command("ip", args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	t.Cleanup(func() {
		_ = run("link", "del", a) // takes its peer with it
		_ = run("netns", "del", name)
	})
	for _, cmd := range [][]string{
		{"netns", "add", name},
		{"link", "add", a, "type", "veth", "peer", "name", b},
		{"link", "set", b, "netns", name},
		{"addr", "add", here + "/30", "dev", a},
		{"link", "set", a, "up"},
		{"netns", "exec", name, "ip", "addr", "add", there + "/30", "dev", b},
		{"netns", "exec", name, "ip", "link", "set", b, "up"},
		{"netns", "exec", name, "ip", "link", "set", "lo", "up"},
	} {
		if err := run(cmd...); err != nil {
			msg := "E2E SKIPPED: cannot make the follower's network namespace: " + err.Error()
			if os.Getenv("TELE_E2E_REQUIRED") == "1" {
				t.Fatalf("%s; TELE_E2E_REQUIRED=1 makes this a failure", msg)
			}
			fmt.Fprintln(os.Stderr, "!!! "+msg)
			t.Skip(msg)
		}
	}
	return here, there, "/var/run/netns/" + name
}

// dialIn dials from inside the network namespace at nsPath: a socket belongs to the namespace of the
// thread that made it, so each dial runs on a thread of its own moved into the namespace. The thread
// stays locked and in the namespace, so Go ends it with the goroutine.
func dialIn(nsPath string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		type dialed struct {
			c   net.Conn
			err error
		}
		done := make(chan dialed, 1)
		go func() {
			runtime.LockOSThread()
			f, err := os.Open(nsPath)
			if err != nil {
				done <- dialed{nil, err}
				return
			}
			defer f.Close()
			if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
				done <- dialed{nil, fmt.Errorf("setns %s: %w", nsPath, err)}
				return
			}
			c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, addr)
			done <- dialed{c, err}
		}()
		d := <-done
		return d.c, d.err
	}
}
