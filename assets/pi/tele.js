// @ts-check
// Tele bridge for Pi. Installed by `tele pi install`; printed by `tele pi print`.
// Everything that can live in Go lives in `tele host` (docs/link-protocol.md); this file only does what
// must run inside Pi: the /tele command, the tele_board tool, the flags, the tool gate, the input marker
// and forwarding. It never writes to stdout (Pi's RPC channel), never reads or creates session files.
import { spawn } from "node:child_process";
import { AsyncLocalStorage } from "node:async_hooks";
import { VERSION as PI_VERSION } from "@mariozechner/pi-coding-agent";
import { MAX_FRAME, linkError, makeLink } from "./link.js";

const TELE = "__TELE_BINARY__"; // the binary's path, baked in; {missing} in a Pi package that lacks it
const TOOL = __TELE_TOOL__; // the tele_board tool: name, label, description, guidelines, schema (from Go)
const BRIDGE_VERSION = "1";
const OWNER = Symbol.for("tele.bridge.v1");
const READY_TIMEOUT_MS = 20000;
const KILL_AFTER_MS = 2000;
const STREAM_EVERY_MS = 100;
const RETRY_WINDOW_MS = 16000; // Pi's default auto-retry backoff is 2 s + 4 s + 8 s
// Pi 0.73.1 retries an assistant error whose message matches this (_isRetryableError).
const RETRYABLE = /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;
const SHUTDOWN_REASON = { quit: "quit", reload: "reload", new: "session_switch", resume: "session_switch", fork: "fork" };

const BINARY = typeof TELE === "string" ? TELE : "tele";
const cannotStart = (code) =>
	typeof TELE === "string" || code !== "ENOENT"
		? `cannot start ${BINARY}: ${code}; reinstall the bridge with "tele pi install"`
		// @ts-expect-error: TELE is an object only as the Pi package bakes it (Go's PackageBridge); a string here
		: `npm did not install ${TELE.missing}, which holds tele for this machine (an unsupported platform, or --omit=optional), and no tele is on PATH; reinstall the Pi package with its optional dependencies, or put tele on PATH (make install)`;

export default function (pi) {
	if (globalThis[OWNER]) {
		// A second copy in the same Pi (for example -e next to an installed one) registers nothing.
		let told = false;
		const warn = "tele: the Tele bridge is loaded twice; this copy is ignored (remove the duplicate extension)";
		return pi.on("session_start", (_event, ctx) => told || ((told = true), ctx.ui.notify(warn, "warning")));
	}
	const owner = (globalThis[OWNER] = {});

	// {conn, command} on the browser's inputs; one whose conn is not the linked one is stale.
	const marker = new AsyncLocalStorage();
	// The connection to `tele host`: all that lives as long as one host, dropped at teardown.
	let conn = null;
	let savedTools = null; // the tool set before /tele; non-null while the gate is closed
	let restorePending = false;
	let live = true; // false after session_shutdown: every captured ctx is stale from then on
	let lastCtx = null;
	let uiPrompts = 0; // Pi's own dialogs open (ui_prompt_start/end)
	let busPrompt = false; // a cooperating extension announced a dialog on pi.events
	let staleRun = false; // the current run was started by a stale marked input
	let settleTimer = null; // the idle check of the run; may outlive a connection to restore the tools
	let nativeSettled = false; // the running Pi emits agent_settled (the host said so in ready)
	const timers = new Set();

	const ctxNow = () => (live ? lastCtx : null);
	const say = (msg, type = "info", ctx = ctxNow()) => ctx && ctx.ui.notify(msg, type);
	// A timer's failure has no Pi handler (it would end Pi): the user hears it.
	const later = (ms, fn) => {
		const t = setTimeout(() => {
			timers.delete(t);
			if (live) Promise.resolve().then(fn).catch((e) => say(`tele: internal error: ${e.message}`, "error"));
		}, ms);
		return timers.add(t) && t;
	};
	const cancel = (t) => (clearTimeout(t), timers.delete(t), null);
	const stopTimers = () => (timers.forEach(clearTimeout), timers.clear());
	const linked = () => (conn && conn.ready ? conn : null);
	const note = (name, fields) => linked() && conn.link.note(name, fields);
	const bytes = (v) => Buffer.byteLength(JSON.stringify(v));
	const idle = (ctx) => ctx.isIdle() && !ctx.hasPendingMessages();

	// ---- the tool gate ----
	function closeGate() {
		if (savedTools === null) savedTools = pi.getActiveTools().filter((n) => n !== TOOL.name);
		restorePending = false;
		pi.setActiveTools([TOOL.name]);
	}
	function restoreTools() {
		restorePending = false;
		if (savedTools === null || conn) return;
		pi.setActiveTools(savedTools);
		savedTools = null;
	}
	const restoreWhenIdle = () => (ctxNow() && ctxNow().isIdle() ? restoreTools() : (restorePending = true));

	// ---- reporting to the host ----
	const prompting = () => uiPrompts > 0 || busPrompt;
	function reportState() {
		const ctx = ctxNow();
		const c = linked();
		if (!c || !ctx) return;
		const s = { idle: ctx.isIdle(), pending: ctx.hasPendingMessages(), prompt: prompting() };
		if (JSON.stringify(s) !== c.lastState) c.link.note("state", s);
		c.lastState = JSON.stringify(s);
	}
	function sendBranch(ctx, forceReset) {
		const c = linked();
		if (!c) return;
		const entries = ctx.sessionManager.getBranch();
		const ids = entries.map((e) => e.id);
		let reset = forceReset || ids.length < c.sentIds.length || c.sentIds.some((id, i) => id !== ids[i]);
		let out = reset ? entries : entries.slice(c.sentIds.length);
		if (!reset && out.length === 0) return;
		c.sentIds = ids;
		// Keep a frame under the link limit: drop the oldest entries (the host shows only the tail anyway).
		if (out.reduce((n, e) => n + bytes(e) + 1, 64) > MAX_FRAME - 1024) {
			reset = true;
			out = entries.slice();
			let size = out.reduce((n, e) => n + bytes(e) + 1, 64);
			while (out.length && size > MAX_FRAME - 1024) size -= bytes(out.shift()) + 1;
		}
		note("branch", { reset, entries: out });
	}
	function flushStream(c) {
		if (c.stream.message) note("stream", { message: c.stream.message });
		c.stream = { message: null, timer: null, last: Date.now() };
	}
	function settled(ctx, source) {
		if (restorePending) restoreTools();
		sendBranch(ctx, false); // nothing new, usually; the host drops the streamed item at settled
		if (linked()) note("settled", { source, idleChecks: conn.idleChecks });
		reportState();
	}
	// The imitation for a Pi without agent_settled: idle, nothing queued, no auto-retry pending.
	function checkSettled(ctx, retryUntil) {
		settleTimer = null;
		if (idle(ctx) && Date.now() >= retryUntil) return settled(ctx, "idle_check");
		settleTimer = later(idle(ctx) ? 500 : 100, () => checkSettled(ctx, retryUntil));
	}

	// ---- one teardown for /tele off, session end, tree moves and the host's death ----
	function teardown(c, revokeReason) {
		if (conn === c) {
			conn = null;
			stopTimers();
		}
		if (c.ready && revokeReason) c.link.note("revoke", { reason: revokeReason });
		c.link.failAll("revoked", "Tele was disconnected");
		if (c.wake) c.wake({ revoked: true });
		c.child.stdin.end();
		// Not one of `timers`: it touches no ctx and must outlive session_shutdown. unref: never keeps Pi alive.
		const kill = setTimeout(() => c.child.kill("SIGKILL"), KILL_AFTER_MS);
		kill.unref();
		return c.exited.then(() => clearTimeout(kill));
	}
	function onChildExit(c, code, signal) {
		if (c.wake) c.wake({ exit: true, code, signal });
		if (conn !== c || !c.ready) return; // a failed start is reported by connect
		teardown(c, null); // the host died on its own while connected
		say(`tele: the host for board "${c.board}" stopped (${signal || "status " + code}); tools restored, run /tele ${c.board} to reconnect`, "error");
		restoreWhenIdle();
	}
	// The host's calls (it checked their arguments): send a browser message, abort the running reply.
	async function onHostCall(c, name, args) {
		const ctx = ctxNow();
		if (conn !== c || !c.ready || !ctx) throw linkError("revoked", "Tele is disconnected");
		if (name === "abort") return void ctx.abort();
		if (name !== "send" || !args || typeof args.text !== "string") throw linkError("bad_call", `unknown call ${String(name).slice(0, 40)}`);
		if (!idle(ctx)) throw linkError("busy", "Pi is busy");
		if (prompting()) throw linkError("terminal_prompt", "a terminal dialog is open");
		marker.run({ conn: c, command: args.command }, () => pi.sendUserMessage(args.text));
		return null;
	}

	async function connect(board, ctx, review) {
		const args = ["host"];
		for (const flag of ["port", "data", "share-addr"]) {
			const v = pi.getFlag(`tele-${flag}`);
			if (typeof v === "string" && v !== "") args.push(`--${flag}`, v);
		}
		if (pi.getFlag("tele-share") === true) args.push("--share");
		// The host opens the browser, for a terminal Pi only.
		if (process.stdout.isTTY) args.push("--open-browser");
		let child;
		try {
			child = spawn(BINARY, args, { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
		} catch (e) {
			return say(`tele: ${cannotStart(e.code || e.message)}`, "error", ctx);
		}
		let stderrTail = "";
		let exited;
		const c = { board, child, link: null, ready: false, exited: new Promise((r) => (exited = r)), wake: null };
		Object.assign(c, { sentIds: [], lastState: "", stream: { message: null, timer: null, last: 0 }, idleChecks: 0 });
		const woken = new Promise((r) => (c.wake = r));
		conn = c;
		child.on("error", (e) => exited(c.wake && c.wake({ spawnError: e.code || e.message })));
		// "close", not "exit": every frame the host wrote (a fatal note) has been read by then.
		child.on("close", (code, signal) => exited(onChildExit(c, code, signal)));
		child.stdin.on("error", () => {}); // EPIPE: the exit reports it
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (d) => c.ready || (stderrTail = (stderrTail + d).slice(-2000)));
		const onNote = (f) => c.wake && (f.note === "ready" || f.note === "fatal") && c.wake({ [f.note]: f });
		// An oversized frame kills the host; the exit handler tells the user.
		c.link = makeLink(child, onNote, (name, a) => onHostCall(c, name, a), () => child.kill("SIGKILL"));
		const name = ctx.sessionManager.getSessionName();
		const session = { id: ctx.sessionManager.getSessionId() || "", ...(typeof name === "string" && name ? { name } : {}) };
		c.link.note("hello", { protocol: 1, bridge: BRIDGE_VERSION, pi: String(PI_VERSION), board, session, edits: review ? "propose" : "apply" });
		const timer = setTimeout(() => c.wake && c.wake({ timeout: true }), READY_TIMEOUT_MS);
		const r = await woken;
		clearTimeout(timer);
		c.wake = null;
		if (r.revoked || conn !== c) return; // /tele off or session end while starting
		const ok = r.ready;
		if (!ok || ok.protocol !== 1 || typeof ok.invite !== "string" || typeof ok.url !== "string") {
			teardown(c, null);
			let why = "the host answered with an unknown protocol";
			if (r.fatal) why = `${String(r.fatal.message || "start failed").slice(0, 300)} (${String(r.fatal.code || "fatal").slice(0, 40)})`;
			else if (r.spawnError) why = cannotStart(r.spawnError);
			else if (r.exit) why = stderrTail.trim().split("\n").pop().slice(0, 300) || `the host exited (${r.signal || "status " + r.code})`;
			else if (r.timeout) why = "the host did not start within 20 s";
			return say(`tele: ${why}`, "error", ctx);
		}
		[c.ready, nativeSettled] = [true, Array.isArray(ok.native) && ok.native.includes("agent_settled")];
		closeGate();
		sendBranch(ctx, true);
		reportState();
		invited(board, ok.invite, ctx);
	}
	function invited(board, invite, ctx) {
		say(`tele: board "${board}" is connected. Open this one-time link within 2 minutes to pair a browser: ${invite}`, "info", ctx);
	}

	// ---- flags, command, tool ----
	pi.registerFlag("tele-port", { description: "Tele: HTTP port for /tele (0 = any free port)", type: "string" });
	pi.registerFlag("tele-data", { description: "Tele: data directory for /tele", type: "string" });
	pi.registerFlag("tele-share", { description: "Tele: share with the band on the LAN", type: "boolean", default: false });
	pi.registerFlag("tele-share-addr", { description: "Tele: band view <ip:port>", type: "string" });

	pi.registerCommand("tele", {
		description: "Bind this session to a Tele board: /tele <board> [--review] | /tele off",
		getArgumentCompletions: (prefix) => ("off".startsWith(prefix) ? [{ value: "off", label: "off" }] : null),
		handler: async (argText, ctx) => {
			lastCtx = ctx;
			const [board, ...flags] = String(argText || "").trim().split(/\s+/);
			const review = flags.join() === "--review";
			if (board === "off") {
				if (!conn) return say("tele: not connected", "info", ctx);
				const was = conn.board;
				await teardown(conn, "off");
				say(`tele: board "${was}" disconnected; the invitation and browser sessions no longer work`, "info", ctx);
				await ctx.waitForIdle();
				if (!conn) restoreTools();
				return;
			}
			if (!board || (flags.length && !review)) return say(`tele: usage: /tele <board> [--review] | /tele off${conn ? ` (connected to "${conn.board}")` : ""}`, "warning", ctx);
			if (conn && conn.board !== board) return say(`tele: connected to board "${conn.board}"; run /tele off first`, "warning", ctx);
			if (conn && !conn.ready) return say(`tele: board "${board}" is still starting`, "info", ctx);
			if (conn) {
				const fail = (e) => say(`tele: no new invitation: ${e.message}`, "error", ctx);
				return conn.link.call("invite", review ? { edits: "propose" } : {}).then((r) => invited(board, r.invite, ctx), fail);
			}
			if (!idle(ctx)) return say("tele: Pi is busy (a reply is running or messages are queued); run /tele again when it is idle", "warning", ctx);
			await connect(board, ctx, review);
		},
	});

	let tool = {
		...TOOL,
		// Some models send content as a JSON string; one that does not parse fails the schema check.
		prepareArguments: (args) => {
			if (!args || typeof args !== "object" || typeof args.content !== "string") return args;
			try {
				return { ...args, content: JSON.parse(args.content) };
			} catch {
				return args;
			}
		},
		async execute(_toolCallId, params, signal) {
			const c = linked();
			if (!c || staleRun) throw new Error(`${TOOL.name}: Tele is not connected; the user can run /tele <board>`);
			const { action, expectedRevision, content, note } = params;
			const args = action === "put" ? { action, expectedRevision, content, note } : { action };
			try {
				const ok = await c.link.call("tool", args, signal);
				return { content: [{ type: "text", text: JSON.stringify(ok) }], details: { action } };
			} catch (e) {
				let text = `${TOOL.name} ${action} failed: ${e.code || "error"}: ${e.message}`;
				for (const [k, v] of Object.entries(e.fields || {})) text += `; ${k}=${JSON.stringify(v)}`;
				throw new Error(text);
			}
		},
	};
	pi.registerTool(tool);

	// ---- events: one wrapper keeps the latest ctx and ignores everything after session_shutdown ----
	const on = (name, fn) =>
		pi.on(name, (event, ctx) => {
			if (name === "session_start") live = true; // may fire twice (RPC session replacement)
			if (!live) return undefined;
			if (ctx) lastCtx = ctx;
			return fn(event || {}, ctx);
		});

	on("session_start", () => {
		if (conn || savedTools !== null) return;
		const active = pi.getActiveTools();
		if (active.includes(TOOL.name)) pi.setActiveTools(active.filter((n) => n !== TOOL.name));
	});
	on("session_shutdown", async (event) => {
		const stopped = conn ? teardown(conn, SHUTDOWN_REASON[event.reason] || "quit") : Promise.resolve();
		restoreTools();
		live = false;
		lastCtx = null;
		stopTimers();
		unsubscribeBus();
		if (globalThis[OWNER] === owner) delete globalThis[OWNER];
		await stopped; // the host is gone (or killed) before Pi replaces the session or exits
	});
	on("session_tree", (_event, ctx) => {
		if (!conn) return;
		say(`tele: board "${conn.board}" disconnected because the session tree moved; run /tele ${conn.board} again`, "warning", ctx);
		teardown(conn, "tree");
		restoreWhenIdle();
	});
	on("session_compact", (_event, ctx) => sendBranch(ctx, false));
	on("input", () => {
		const m = marker.getStore();
		if (!m) return undefined;
		if (!linked() || m.conn !== conn) return { action: "handled" }; // a late browser input: dropped
		note("input", { command: m.command });
		return void later(0, reportState);
	});
	// Before a prompt: the tool's words for the review mode, and what the model hears first.
	on("before_agent_start", async () => {
		const r = linked() && (await conn.link.call("turn", {}).catch(() => null));
		if (r && r.description !== tool.description) pi.registerTool((tool = { ...tool, description: r.description }));
		return r && r.message ? { message: { customType: "tele", content: r.message, display: true } } : undefined;
	});
	on("agent_start", (_event, ctx) => {
		const m = marker.getStore();
		staleRun = !!m && (!linked() || m.conn !== conn);
		if (staleRun) ctx.abort(); // second line behind the input hook
		settleTimer = cancel(settleTimer);
		note("agent_start", {});
		reportState();
	});
	on("message_start", (event, ctx) => {
		// Pi persists a message only after its message_end handlers ran, so the prompt that started this
		// reply is on the branch only now: send it, or the page would show the reply without its question.
		if (event.message && event.message.role === "assistant") sendBranch(ctx, false);
		reportState();
	});
	on("message_update", (event) => {
		const c = linked();
		if (!c || !event.message || event.message.role !== "assistant") return;
		c.stream.message = event.message;
		if (!c.stream.timer) c.stream.timer = later(Math.max(0, c.stream.last + STREAM_EVERY_MS - Date.now()), () => flushStream(c));
	});
	on("message_end", (event) => {
		if (!event.message || event.message.role !== "assistant") return;
		if (conn) Object.assign(conn.stream, { message: null, timer: cancel(conn.stream.timer) });
		note("stream", { message: null });
	});
	on("tool_call", (event) => {
		if (staleRun) return { block: true, reason: "Tele revoked this run" };
		if (savedTools !== null && event.toolName !== TOOL.name) return { block: true, reason: `Only ${TOOL.name} is available while Tele is connected` };
		return undefined;
	});
	on("turn_end", (_event, ctx) => {
		// The branch first: the host drops the streamed item at turn_end, and the persisted one replaces it.
		sendBranch(ctx, false);
		note("turn_end", {});
		reportState();
	});
	on("agent_end", (event, ctx) => {
		staleRun = false;
		sendBranch(ctx, false);
		note("agent_end", {});
		if (nativeSettled || (!linked() && !restorePending)) return; // agent_settled follows
		const last = (event.messages || []).findLast((m) => m && m.role === "assistant");
		const retry = !!last && last.stopReason === "error" && RETRYABLE.test(String(last.errorMessage || ""));
		settleTimer = cancel(settleTimer);
		// isIdle() is still false inside agent_end: look again on a later macrotask.
		settleTimer = later(0, () => checkSettled(ctx, retry ? Date.now() + RETRY_WINDOW_MS : 0));
		if (linked()) conn.idleChecks++;
	});
	on("agent_settled", (_event, ctx) => nativeSettled && (linked() || restorePending) && settled(ctx, "agent_settled"));

	// Terminal dialogs: Pi's own (ui_prompt_start/end, where it emits them) and the ones cooperating
	// extensions announce on the shared bus (the only way on Pi 0.73).
	const setPrompt = (change) => (change(), reportState());
	on("ui_prompt_start", () => setPrompt(() => uiPrompts++));
	on("ui_prompt_end", () => setPrompt(() => (uiPrompts = Math.max(0, uiPrompts - 1))));
	const unsubscribeBus = pi.events.on("tele:terminal-prompt", (d) => live && setPrompt(() => (busPrompt = !!(d && d.open))));
}
