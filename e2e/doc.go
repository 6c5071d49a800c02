// Package e2e runs Tele as a user meets it: the built tele binary, a real headless Chromium driven with
// chromedp, and the pinned Pi coding agent in RPC mode against a fake model server on 127.0.0.1.
//
// Tests that need a tool this machine lacks skip with a loud message, and fail instead when
// TELE_E2E_REQUIRED=1 (CI sets it).
package e2e
