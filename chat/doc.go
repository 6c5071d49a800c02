// Package chat is the paired chat of one binding (docs/api.md): the run state, the browser's send and
// abort commands, and the private chat routes and streams. The display projection of Pi's branch is
// package projection.
//
// One Gateway per binding owns a projection.Projector, the run state (status, idleVersion, runId,
// notice), the remembered commands, and publishes one complete `snapshot` to the chat hub topic
// "chat/<binding>" on every change. The core returns typed errors (errors.go); http.go alone maps them
// to statuses and codes.
//
// The host feeds the gateway from the link (ApplyBranch, SetStreaming, SetState, AgentStart, TurnEnd,
// Settled, InputObserved, Revoke) and the gateway calls the bridge (Bridge.Send,
// Bridge.Abort). The gateway never logs message text, invitations or cookies.
//
// Rules the gateway keeps:
//
//   - A command is checked and its effect reserved under the gateway lock, synchronously, before the
//     bridge is called: two concurrent sends can never both reach Pi, and no refused command reaches it.
//   - A command that reached the bridge is remembered by id (at most MaxCommands per binding, never
//     evicted): the same id and body replays the original receipt, status code and body, without acting
//     again; the same id with another body is 409 duplicate_command. Refused commands are not remembered:
//     they changed nothing, and the same id may be tried again.
//   - 202 `submitted` means only that the bridge's submit call returned. The gateway then watches for
//     the input (InputObserved) for ObservationWindow; unseen, the notice becomes
//     input-unobserved. Nothing is ever resent automatically.
//   - The run state clears only on Settled: runId null, status idle, idleVersion+1.
package chat
