package chat

import (
	"errors"
	"testing"
	"testing/synctest"
)

// Stopping a run: abort, its failure, two aborts at once, and a new run that voids a stop.

func TestAbort(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	ep := e.binding.Epoch()
	e.gw.AgentStart()
	old := e.runID()
	e.gw.AgentStart() // an automatic retry or continuation: a new run
	run := e.runID()
	if run == "" || run == old {
		t.Fatalf("runIds %q %q", old, run)
	}
	if r := e.command(c, abortBody(newID(), ep, old)); r.status != 409 || r.code() != "stale_run" {
		t.Fatalf("abort of an older run: %d %s", r.status, r.body)
	}
	if r := e.command(c, abortBody(newID(), "stale", run)); r.code() != "stale_epoch" {
		t.Fatalf("stale epoch: %d %s", r.status, r.body)
	}
	noCalls(t, e)

	id := newID()
	r := e.command(c, abortBody(id, ep, run))
	if r.status != 202 || string(r.body) != `{"id":"`+id+`","type":"abort","status":"stop-requested"}` {
		t.Fatalf("abort: %d %s", r.status, r.body)
	}
	if calls := e.bridge.Calls(); len(calls) != 1 || calls[0] != (bridgeCall{"abort", id, run}) {
		t.Fatalf("bridge %v", calls)
	}
	st := e.status(c)
	if st["status"] != "stopping" || st["notice"] != "stop-requested" || st["runId"] != run {
		t.Fatalf("stopping: %v", st)
	}
	// A second stop for the same run is acknowledged without asking Pi again.
	if r := e.command(c, abortBody(newID(), ep, run)); r.status != 202 {
		t.Fatalf("second abort: %d %s", r.status, r.body)
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls", n)
	}
	// agent_end alone does not clear the run; only settled does.
	if st := e.status(c); st["status"] != "stopping" {
		t.Fatalf("after agent_end: %v", st)
	}
	e.gw.Settled()
	st = e.status(c)
	if st["status"] != "idle" || st["runId"] != nil || st["notice"] != "run-ended" || st["idleVersion"] != float64(2) {
		t.Fatalf("settled: %v", st)
	}
	if r := e.command(c, abortBody(newID(), ep, run)); r.code() != "stale_run" {
		t.Fatalf("abort after settle: %d %s", r.status, r.body)
	}
	// A send with the old idleVersion is stale now; with the new one it goes.
	if r := e.command(c, sendBody(newID(), ep, 1, "hi")); r.code() != "stale_idle_version" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := e.command(c, sendBody(newID(), ep, 2, "hi")); r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

func TestAbortFailure(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	e.gw.AgentStart()
	run := e.runID()
	e.bridge.abortErr = errors.New("link closed")
	if r := e.command(c, abortBody(newID(), e.binding.Epoch(), run)); r.status != 502 || r.code() != "abort_failed" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if st := e.status(c); st["status"] != "running" || st["notice"] != nil {
		t.Fatalf("%v", st)
	}
}

func TestSecondAbortSharesTheFirstsOutcome(t *testing.T) {
	synctest.Test(t, testSecondAbortSharesTheFirstsOutcome)
}

func testSecondAbortSharesTheFirstsOutcome(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	e.gw.AgentStart()
	run := e.runID()
	gate := make(chan struct{})
	e.bridge.abortGate, e.bridge.abortErr = gate, errors.New("link closed")
	first := make(chan resp, 1)
	go func() { first <- e.command(c, abortBody(newID(), e.binding.Epoch(), run)) }()
	synctest.Wait() // the first abort waits in the bridge
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls while the first abort is out", n)
	}
	second := make(chan resp, 1)
	go func() { second <- e.command(c, abortBody(newID(), e.binding.Epoch(), run)) }()
	synctest.Wait() // the second waits for the first's outcome
	if st := e.status(c); st["status"] != "stopping" {
		t.Fatalf("not stopping while the first abort is out: %v", st)
	}
	close(gate)
	r1, r2 := <-first, <-second
	if r1.code() != "abort_failed" || r2.code() != "abort_failed" {
		t.Fatalf("%d %s / %d %s", r1.status, r1.body, r2.status, r2.body)
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls", n)
	}
	if st := e.status(c); st["status"] != "running" {
		t.Fatalf("%v", st)
	}
}

func TestNewRunVoidsAStop(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	e.gw.AgentStart()
	run := e.runID()
	if r := e.command(c, abortBody(newID(), e.binding.Epoch(), run)); r.status != 202 {
		t.Fatal(r.status)
	}
	e.gw.AgentStart()
	if st := e.status(c); st["status"] != "running" || st["runId"] == run {
		t.Fatalf("%v", st)
	}
}
