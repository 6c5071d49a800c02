package chat

import (
	"reflect"
	"testing"
	"testing/synctest"
	"time"
)

// After a send: the window in which Pi must be seen taking the input, and what happens when it is not.

func TestObservationWindow(t *testing.T) { synctest.Test(t, testObservationWindow) }

func testObservationWindow(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	id := newID()
	if r := e.send(c, id, "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	advance(ObservationWindow - time.Millisecond)
	if st := e.status(c); st["notice"] != "input-submitted" || st["status"] != "submitting" {
		t.Fatalf("before 8 s: %v", st)
	}
	advance(time.Millisecond)
	st := e.status(c)
	if st["notice"] != "input-unobserved" || st["status"] != "idle" || st["idleVersion"] != float64(1) {
		t.Fatalf("after 8 s: %v", st)
	}
	// Nothing was resent; the user may send again on purpose.
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls after the window", n)
	}
	advance(time.Hour)
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls later", n)
	}
	if r := e.send(c, newID(), "hi again"); r.status != 202 {
		t.Fatalf("a new send after input-unobserved: %d %s", r.status, r.body)
	}
}

func TestInputObserved(t *testing.T) { synctest.Test(t, testInputObserved) }

func testInputObserved(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	id := newID()
	if r := e.send(c, id, "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	e.gw.InputObserved(newID()) // someone else's: ignored
	if st := e.status(c); st["notice"] != "input-submitted" {
		t.Fatalf("%v", st)
	}
	advance(3 * time.Second)
	e.gw.InputObserved(id)
	if st := e.status(c); st["notice"] != "input-observed" {
		t.Fatalf("%v", st)
	}
	advance(ObservationWindow)
	if st := e.status(c); st["notice"] != "input-observed" {
		t.Fatalf("after the window: %v", st)
	}
	e.gw.AgentStart()
	st := e.status(c)
	if st["notice"] != "input-observed" || st["status"] != "running" || st["runId"] == nil {
		t.Fatalf("%v", st)
	}
	e.gw.Settled()
	st = e.status(c)
	if st["notice"] != "run-ended" || st["status"] != "idle" || st["runId"] != nil || st["idleVersion"] != float64(2) {
		t.Fatalf("settled: %v", st)
	}
}

func TestObservedInputWithoutARunDoesNotHoldTheReservation(t *testing.T) {
	synctest.Test(t, testObservedInputWithoutARunDoesNotHoldTheReservation)
}

func testObservedInputWithoutARunDoesNotHoldTheReservation(t *testing.T) {
	// Another extension may take the input (`handled`): seen, but no run starts.
	e := newBubbleEnv(t)
	c := e.pair()
	id := newID()
	if r := e.send(c, id, "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	e.gw.InputObserved(id)
	if r := e.send(c, newID(), "again"); r.code() != "busy" {
		t.Fatalf("inside the window: %d %s", r.status, r.body)
	}
	advance(ObservationWindow)
	if st := e.status(c); st["status"] != "idle" || st["notice"] != "input-observed" {
		t.Fatalf("%v", st)
	}
	if r := e.send(c, newID(), "again"); r.status != 202 {
		t.Fatalf("after the window: %d %s", r.status, r.body)
	}
}

func TestInputObservedBeforeTheBridgeAnswers(t *testing.T) {
	synctest.Test(t, testInputObservedBeforeTheBridgeAnswers)
}

func testInputObservedBeforeTheBridgeAnswers(t *testing.T) {
	// Pi runs the input hook inside sendUserMessage: the `input` note and even `agent_start` can
	// arrive before the `send` call returns.
	e := newBubbleEnv(t)
	c := e.pair()
	e.bridge.onSend = func(command string) {
		e.gw.InputObserved(command)
		e.gw.AgentStart()
	}
	if r := e.send(c, newID(), "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	st := e.status(c)
	if st["notice"] != "input-observed" || st["status"] != "running" {
		t.Fatalf("%v", st)
	}
	advance(ObservationWindow)
	if st := e.status(c); st["notice"] != "input-observed" || st["status"] != "running" {
		t.Fatalf("after the window: %v", st)
	}
}

func TestSettledUnobserved(t *testing.T) { synctest.Test(t, testSettledUnobserved) }

func testSettledUnobserved(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	if r := e.send(c, newID(), "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	e.gw.AgentStart()
	e.gw.Settled()
	st := e.status(c)
	if st["notice"] != "settled-unobserved" || st["status"] != "idle" || st["idleVersion"] != float64(2) {
		t.Fatalf("%v", st)
	}
	// The observation window of the send ended with the run: its end changes nothing now.
	advance(ObservationWindow)
	if after := e.status(c); !reflect.DeepEqual(after, st) {
		t.Fatalf("the window's end changed the view after the run settled:\n%v\n%v", st, after)
	}
	// The next run's notice is not carried into it.
	e.gw.AgentStart()
	if st := e.status(c); st["notice"] != nil {
		t.Fatalf("%v", st)
	}
}

func TestRevokeDuringTheWindow(t *testing.T) { synctest.Test(t, testRevokeDuringTheWindow) }

func testRevokeDuringTheWindow(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	if r := e.send(c, newID(), "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	e.gw.Revoke("off")
	before := e.served()
	advance(ObservationWindow) // the window's end changes nothing after a revoke
	if after := e.served(); !reflect.DeepEqual(after, before) {
		t.Fatalf("the window's end changed the view after the revoke:\n%+v\n%+v", before, after)
	}
	if r := e.send(c, newID(), "hi"); r.status != 410 {
		t.Fatal(r.status)
	}
}
