package main

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCLIServeShare: `tele serve --share` with --share-addr (or TELE_SHARE_ADDR) prints the band line
// after the serving line and answers there; a bad address stops it with one line naming the setting.
func TestCLIServeShare(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	cmd := exec.Command(teleBin(t), "serve", "--share", "--port", fmt.Sprint(port), "--data", data)
	cmd.Env = cleanEnv(t, "TELE_SHARE_ADDR="+addr)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	for len(got) < 3 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("tele serve --share ended after %q", got)
			}
			got = append(got, l)
		case <-time.After(30 * time.Second):
			t.Fatalf("tele serve --share printed %q in 30 s", got)
		}
	}
	if want := "tele: band view on http://" + addr + "/ (open a board here and choose Share with the band)"; got[2] != want {
		t.Fatalf("third line %q, want %q", got[2], want)
	}
	conn, err := net.Dial("tcp4", addr)
	if err != nil {
		t.Fatalf("nothing listens on %s: %v", addr, err)
	}
	conn.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("tele serve --share: %v", err)
	}

	env := cleanEnv(t)
	for _, tt := range []struct {
		args []string
		env  string
		code int
		want []string
	}{
		{[]string{"--share-addr", "nonsense"}, "", 2, []string{`bad share address "nonsense" (from --share-addr)`, "<IPv4 address>:<port>"}},
		{nil, "TELE_SHARE_ADDR=0.0.0.0:4318", 2, []string{`bad share address "0.0.0.0:4318" (from TELE_SHARE_ADDR)`}},
		{[]string{"--share-addr", "127.0.0.2:99999"}, "", 2, []string{"not a number from 1 to 65535"}},
		{[]string{"--share-addr", "192.0.2.1:4318"}, "", 1, []string{"cannot share with the band (address from --share-addr)", "192.0.2.1:4318", "--share-addr <ip:port>"}},
	} {
		e := env
		if tt.env != "" {
			e = append(append([]string{}, env...), tt.env)
		}
		args := append([]string{"serve", "--share", "--port", fmt.Sprint(freePort(t)), "--data", data}, tt.args...)
		r := runTele(t, e, args...)
		assertOneLine(t, r, tt.code, tt.want...)
	}
	if strings.Contains(fmt.Sprint(got), "#key=") {
		t.Fatal("the start printed a join key")
	}
}
