package e2e

import "testing"

// TestChatPanel drives the chat panel in the browser end to end: the pinned Pi in RPC mode with the
// bridge from `tele pi print` (and a tiny test extension that can open a terminal dialog), `tele host`
// started by the bridge on port 0, the fake model, and a real headless Chromium on the board page. Three
// real inputs go from the page's message box; the session file, the tool calls and the board on the same
// page are checked. Screenshots of every state and a secret-free report go to .audit/chat/.
//
// The scenarios run in order against one Pi and one paired tab, each building on the conversation the
// earlier ones left; they live in chat_*_test.go by theme. All of it runs once per supported Pi line.
func TestChatPanel(t *testing.T) {
	forEachPi(t, testChatPanel)
}

func testChatPanel(t *testing.T, line piLine) {
	r := startChatRig(t, line)
	defer r.writeReport()
	scenarios := []struct {
		name string
		run  func(*chatRig, *testing.T) string
	}{
		// chat_conversation_test.go: pairing and three inputs typed into the page.
		{"pair-from-invitation", (*chatRig).pairFromInvitation},
		{"input-1-builds-history", (*chatRig).buildHistory},
		{"input-2-changes-the-board-from-history", (*chatRig).changeBoardFromHistory},
		// chat_undo_test.go: the Pi-change banner and Undo (issue 9).
		{"undo-pi-change-from-the-banner", (*chatRig).undoPiChange},
		{"input-3-streams-draft-survives-then-stop", (*chatRig).streamKeepDraftThenStop},
		{"session-file", (*chatRig).checkSessionFile},
		// chat_history_test.go: what the terminal does, seen in the page.
		{"user-text-equal-to-a-notice-stays-verbatim", (*chatRig).userTextEqualToNotice},
		{"reading-history-never-jumps", (*chatRig).readingHistoryNeverJumps},
		{"terminal-prompt", (*chatRig).terminalPrompt},
		// chat_layout_test.go: languages, docks and the phone.
		{"language-switch-both-languages", (*chatRig).switchBothLanguages},
		{"docks-and-collapse", (*chatRig).docksAndCollapse},
		{"phone", (*chatRig).phoneLayout},
		// chat_failures_test.go: refused and lost sends, a dropped connection.
		{"refused-and-uncertain-sends-keep-the-draft", (*chatRig).refusedAndUncertainSends},
		{"offline-reconnect-fresh-snapshot", (*chatRig).offlineReconnect},
		// chat_pairing_test.go: pairing that cannot work or has ended.
		{"storage-disabled-spent-and-unpaired", (*chatRig).storageDisabledSpentUnpaired},
		{"stored-binding-without-its-cookie", (*chatRig).storedBindingWithoutCookie},
		{"tele-serve-has-no-panel", (*chatRig).teleServeHasNoPanel},
		// chat_form_test.go: the model writes a repeat with two endings; the page draws it (issue 14).
		{"pi-writes-a-form", (*chatRig).piWritesAForm},
		{"tele-off-keeps-the-conversation", (*chatRig).teleOffKeepsConversation},
	}
	for _, s := range scenarios {
		r.run(s.name, s.run)
	}
}
