// Tele bridge for Pi (SPEC 10). Installed by `tele pi install`; printed by `tele pi print`.
// Everything that can live in Go lives in `tele host`; this file only does what must run inside Pi:
// the /tele command, the tele_board tool, the flags, the tool gate, the input marker and forwarding.
// It never writes to stdout (Pi's RPC channel), never reads or creates session files.
import { spawn } from "node:child_process";
import { AsyncLocalStorage } from "node:async_hooks";
import { VERSION as PI_VERSION } from "@mariozechner/pi-coding-agent";

const TELE = "__TELE_BINARY__"; // absolute path of the tele binary, baked in at install time
const BRIDGE_VERSION = "1";
const OWNER = Symbol.for("tele.bridge.v1");
const MAX_FRAME = 16 << 20;
const READY_TIMEOUT_MS = 20000;
const KILL_AFTER_MS = 2000;
const STREAM_EVERY_MS = 100;
const RETRY_WINDOW_MS = 16000; // Pi's default auto-retry backoff is 2 s + 4 s + 8 s
// Pi 0.73.1 retries an assistant error whose message matches this (agent-session.js _isRetryableError).
const RETRYABLE = /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;
const SHUTDOWN_REASON = { quit: "quit", reload: "reload", new: "session_switch", resume: "session_switch", fork: "fork" };

export default function (pi) {
	if (globalThis[OWNER]) {
		// A second copy in the same Pi (for example -e next to an installed one) registers nothing.
		let told = false;
		pi.on("session_start", (_event, ctx) => {
			if (told) return;
			told = true;
			ctx.ui.notify("tele: the Tele bridge is loaded twice; this copy is ignored (remove the duplicate extension)", "warning");
		});
		return;
	}
	const owner = {};
	globalThis[OWNER] = owner;

	const marker = new AsyncLocalStorage(); // {gen, command} on inputs submitted from the browser
	let gen = 0; // bumped on every connect and disconnect; a marked input of another generation is stale
	let conn = null; // {board, child, link, gen, ready, exited}
	let savedTools = null; // the tool set before /tele; non-null while the gate is closed
	let restorePending = false;
	let live = true; // false after session_shutdown: every captured ctx is stale from then on
	let lastCtx = null;
	let prompt = false; // a terminal dialog is open (as far as Pi or cooperating extensions tell)
	let lastState = "";
	let sentIds = []; // ids of the branch entries the host has
	let staleRun = false; // the current run was started by a stale marked input
	let settleTimer = null;
	let stream = { message: null, timer: null, last: 0 };
	const timers = new Set();

	const remember = (ctx) => {
		if (live && ctx) lastCtx = ctx;
		return ctx;
	};
	const ctxNow = () => (live ? lastCtx : null);
	const guard = (fn) => {
		try {
			return fn();
		} catch {
			return undefined; // a stale ctx throws; nothing is left to do then
		}
	};
	const say = (msg, type = "info", ctx = ctxNow()) => guard(() => ctx && ctx.ui.notify(msg, type));
	const later = (ms, fn) => {
		const t = setTimeout(() => {
			timers.delete(t);
			if (live) guard(fn);
		}, ms);
		timers.add(t);
		return t;
	};
	const cancel = (t) => {
		if (t) {
			clearTimeout(t);
			timers.delete(t);
		}
		return null;
	};
	const clearTimers = () => {
		for (const t of timers) clearTimeout(t);
		timers.clear();
		settleTimer = null;
		stream = { message: null, timer: null, last: 0 };
	};
	const linked = () => (conn && conn.ready ? conn : null);
	const note = (name, fields) => {
		const c = linked();
		if (c) c.link.note(name, fields);
	};
	const linkError = (code, message) => Object.assign(new Error(message), { code });
	const bytes = (v) => Buffer.byteLength(JSON.stringify(v));

	// ---- the tool gate ----
	function closeGate() {
		if (savedTools === null) savedTools = pi.getActiveTools().filter((n) => n !== "tele_board");
		restorePending = false;
		pi.setActiveTools(["tele_board"]);
	}
	function restoreTools() {
		restorePending = false;
		if (savedTools === null || conn) return;
		const tools = savedTools;
		savedTools = null;
		guard(() => pi.setActiveTools(tools));
	}
	function restoreWhenIdle() {
		const ctx = ctxNow();
		if (ctx && guard(() => ctx.isIdle())) restoreTools();
		else restorePending = true; // done when Pi settles (see checkSettled)
	}

	// ---- reporting to the host ----
	function reportState() {
		const ctx = ctxNow();
		if (!linked() || !ctx) return;
		const s = guard(() => ({ idle: ctx.isIdle(), pending: ctx.hasPendingMessages(), prompt }));
		if (!s) return;
		const key = JSON.stringify(s);
		if (key === lastState) return;
		lastState = key;
		note("state", s);
	}
	function sendBranch(ctx, forceReset) {
		if (!linked()) return;
		const entries = guard(() => ctx.sessionManager.getBranch());
		if (!Array.isArray(entries)) return;
		const ids = entries.map((e) => e.id);
		let reset = forceReset || ids.length < sentIds.length || sentIds.some((id, i) => id !== ids[i]);
		let out = reset ? entries : entries.slice(sentIds.length);
		if (!reset && out.length === 0) return;
		sentIds = ids;
		// Keep a frame under the link limit: drop the oldest entries (the host shows only the tail anyway).
		let size = out.reduce((n, e) => n + bytes(e) + 1, 64);
		if (size > MAX_FRAME - 1024) {
			reset = true;
			out = entries.slice();
			size = out.reduce((n, e) => n + bytes(e) + 1, 64);
			while (out.length && size > MAX_FRAME - 1024) size -= bytes(out.shift()) + 1;
		}
		note("branch", { reset, entries: out });
	}
	function flushStream() {
		stream.timer = null;
		if (!stream.message) return;
		note("stream", { message: stream.message });
		stream.message = null;
		stream.last = Date.now();
	}
	function checkSettled(ctx, retryUntil) {
		settleTimer = null;
		const s = guard(() => ({ idle: ctx.isIdle(), pending: ctx.hasPendingMessages() }));
		if (!s) return;
		if (!s.idle || s.pending || Date.now() < retryUntil) {
			// Not settled yet: a queued message, a pending auto-retry or a run still winding down.
			settleTimer = later(s.idle && !s.pending ? 500 : 100, () => checkSettled(ctx, retryUntil));
			return;
		}
		if (restorePending) restoreTools();
		sendBranch(ctx, false); // nothing new, usually; the host drops the streamed item at settled
		note("settled", {});
		reportState();
	}

	// ---- the link (SPEC 9): JSON lines on the host's stdin/stdout ----
	function makeLink(child, onNote, onCall, onBroken) {
		let nextId = 1;
		let buf = "";
		const waiting = new Map();
		const write = (frame) => {
			const line = JSON.stringify(frame);
			if (line.length > MAX_FRAME / 3 && Buffer.byteLength(line) > MAX_FRAME) return false;
			if (!child.stdin.writable) return false;
			child.stdin.write(line + "\n");
			return true;
		};
		const settle = (id, fn) => {
			const w = waiting.get(id);
			if (!w) return;
			waiting.delete(id);
			fn(w);
		};
		const answer = (id, name, args) => {
			Promise.resolve()
				.then(() => onCall(name, args))
				.then(
					(ok) => write({ id, ok: ok === undefined ? null : ok }),
					(e) => write({ id, err: { code: (e && e.code) || "internal", message: String((e && e.message) || e).slice(0, 500) } }),
				);
		};
		const onLine = (line) => {
			let f;
			try {
				f = JSON.parse(line);
			} catch {
				return;
			}
			if (!f || typeof f !== "object" || Array.isArray(f)) return;
			const hasId = Number.isSafeInteger(f.id) && f.id > 0;
			if (typeof f.note === "string") return onNote(f);
			if (typeof f.call === "string" && hasId) return answer(f.id, f.call, f.args);
			if (hasId && "ok" in f) return settle(f.id, (w) => w.resolve(f.ok));
			if (hasId && f.err && typeof f.err === "object") return settle(f.id, (w) => w.reject(f.err));
			if (hasId) write({ id: f.id, err: { code: "bad_frame", message: "malformed frame" } });
		};
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk) => {
			buf += chunk;
			let i;
			while ((i = buf.indexOf("\n")) >= 0) {
				const line = buf.slice(0, i);
				buf = buf.slice(i + 1);
				if (line.trim()) onLine(line);
			}
			if (buf.length > MAX_FRAME) {
				buf = "";
				onBroken();
			}
		});
		return {
			note: (name, fields) => write({ note: name, ...fields }),
			call: (name, args, signal) =>
				new Promise((resolve, reject) => {
					const id = nextId++;
					if (signal && signal.aborted) return reject({ code: "aborted", message: "the tool call was aborted" });
					waiting.set(id, { resolve, reject });
					if (signal) signal.addEventListener("abort", () => settle(id, (w) => w.reject({ code: "aborted", message: "the tool call was aborted; the board may still have changed, call get" })), { once: true });
					if (!write({ id, call: name, args })) settle(id, (w) => w.reject({ code: "revoked", message: "Tele is not connected" }));
				}),
			failAll: (code, message) => {
				for (const id of [...waiting.keys()]) settle(id, (w) => w.reject({ code, message }));
			},
		};
	}

	// ---- host process ----
	function stopChild(c) {
		try {
			c.child.stdin.end();
		} catch {}
		// Not one of `timers`: it touches no ctx and must outlive session_shutdown. unref: never keeps Pi alive.
		const t = setTimeout(() => guard(() => c.child.kill("SIGKILL")), KILL_AFTER_MS);
		t.unref();
		c.exited.then(() => clearTimeout(t));
		return c.exited;
	}
	// disconnect revokes the connection at once: the host is told, its stdin ends, and it is killed if it lingers.
	function disconnect(reason) {
		const c = conn;
		if (!c) return Promise.resolve();
		conn = null;
		gen++;
		clearTimers();
		sentIds = [];
		lastState = "";
		if (c.ready && reason) c.link.note("revoke", { reason });
		c.link.failAll("revoked", "Tele was disconnected");
		if (c.wake) c.wake({ revoked: true });
		return stopChild(c);
	}
	function onChildExit(c, code, signal) {
		if (c.wake) c.wake({ exit: true, code, signal });
		if (conn !== c || !c.ready) return; // a failed start is reported by connect
		// The host died on its own while connected.
		conn = null;
		gen++;
		clearTimers();
		sentIds = [];
		lastState = "";
		c.link.failAll("revoked", "the Tele host stopped");
		say(`tele: the host for board "${c.board}" stopped (${signal || "status " + code}); tools restored, run /tele ${c.board} to reconnect`, "error");
		restoreWhenIdle();
	}
	async function onHostCall(c, name, args) {
		const ctx = ctxNow();
		if (conn !== c || !c.ready || !ctx) throw linkError("revoked", "Tele is disconnected");
		if (name === "send") {
			if (!args || typeof args.command !== "string" || typeof args.text !== "string") throw linkError("bad_args", "send needs {command, text}");
			const busy = guard(() => !ctx.isIdle() || ctx.hasPendingMessages());
			if (busy !== false) throw linkError("busy", "Pi is busy");
			if (prompt) throw linkError("terminal_prompt", "a terminal dialog is open");
			marker.run({ gen: c.gen, command: args.command }, () => pi.sendUserMessage(args.text));
			return null;
		}
		if (name === "abort") {
			if (!args || typeof args.command !== "string" || typeof args.runId !== "string") throw linkError("bad_args", "abort needs {command, runId}");
			guard(() => ctx.abort());
			return null;
		}
		throw linkError("bad_call", `unknown call ${String(name).slice(0, 40)}`);
	}

	async function connect(board, ctx) {
		const port = pi.getFlag("tele-port");
		const data = pi.getFlag("tele-data");
		const args = ["host"];
		if (typeof port === "string" && port !== "") args.push("--port", port);
		if (typeof data === "string" && data !== "") args.push("--data", data);
		let child;
		try {
			child = spawn(TELE, args, { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
		} catch (e) {
			say(`tele: cannot start ${TELE}: ${(e && e.code) || e}; reinstall the bridge with "tele pi install"`, "error", ctx);
			return;
		}
		const myGen = ++gen;
		let stderrTail = "";
		let resolveExit;
		const c = { board, child, gen: myGen, ready: false, exited: new Promise((r) => (resolveExit = r)), wake: null };
		const woken = new Promise((r) => (c.wake = r));
		conn = c;
		child.on("error", (e) => {
			if (c.wake) c.wake({ spawnError: (e && e.code) || String(e) });
			resolveExit();
		});
		child.on("close", (code, signal) => {
			// "close", not "exit": every frame the host wrote (a fatal note) has been read by then.
			resolveExit();
			onChildExit(c, code, signal);
		});
		child.stdin.on("error", () => {});
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (d) => {
			if (!c.ready) stderrTail = (stderrTail + d).slice(-2000);
		});
		c.link = makeLink(
			child,
			(f) => {
				if (f.note === "ready" && !c.ready && c.wake) c.wake({ ready: f });
				else if (f.note === "fatal" && !c.ready && c.wake) c.wake({ fatal: f });
			},
			(name, a) => onHostCall(c, name, a),
			() => guard(() => child.kill("SIGKILL")), // an oversized frame: the exit handler tells the user

		);
		const session = { id: guard(() => ctx.sessionManager.getSessionId()) || "" };
		const name = guard(() => ctx.sessionManager.getSessionName());
		if (typeof name === "string" && name) session.name = name;
		c.link.note("hello", { protocol: 1, bridge: BRIDGE_VERSION, pi: String(PI_VERSION || ""), board, session });
		const timer = setTimeout(() => c.wake && c.wake({ timeout: true }), READY_TIMEOUT_MS);
		const r = await woken;
		clearTimeout(timer);
		c.wake = null;
		const r2 = r.ready;
		if (r.revoked) return; // /tele off or session end while starting
		if (conn !== c) return;
		if (!r2 || r2.protocol !== 1 || typeof r2.invite !== "string" || typeof r2.url !== "string") {
			conn = null;
			gen++;
			stopChild(c);
			let why;
			if (r.fatal) why = `${String(r.fatal.message || "start failed").slice(0, 300)} (${String(r.fatal.code || "fatal").slice(0, 40)})`;
			else if (r.spawnError) why = `cannot start ${TELE}: ${r.spawnError}; reinstall the bridge with "tele pi install"`;
			else if (r.exit) why = lastLine(stderrTail) || `the host exited (${r.signal || "status " + r.code})`;
			else if (r.timeout) why = "the host did not start within 20 s";
			else why = "the host answered with an unknown protocol";
			say(`tele: ${why}`, "error", ctx);
			return;
		}
		c.ready = true;
		closeGate();
		sendBranch(ctx, true);
		reportState();
		say(`tele: board "${board}" is connected. Open this one-time link within 2 minutes to pair a browser: ${r2.invite}`, "info", ctx);
		openBrowser(r2.invite);
	}
	const lastLine = (s) => s.trim().split("\n").pop().slice(0, 300);

	function openBrowser(url) {
		if (!process.stdout.isTTY || process.env.TELE_NO_BROWSER) return;
		let cmd;
		let args;
		const b = (process.env.BROWSER || "").split(":")[0].trim();
		if (b) {
			const parts = b.split(/\s+/);
			cmd = parts.shift();
			args = parts.some((p) => p.includes("%s")) ? parts.map((p) => p.replace("%s", url)) : [...parts, url];
		} else if (process.platform === "darwin") [cmd, args] = ["open", [url]];
		else if (process.platform === "win32") [cmd, args] = ["rundll32", ["url.dll,FileProtocolHandler", url]];
		else [cmd, args] = ["xdg-open", [url]];
		guard(() => {
			const p = spawn(cmd, args, { stdio: "ignore", detached: true });
			p.on("error", () => {});
			p.unref();
		});
	}

	// ---- flags, command, tool ----
	pi.registerFlag("tele-port", { description: "Tele: HTTP port for /tele (0 = any free port)", type: "string" });
	pi.registerFlag("tele-data", { description: "Tele: data directory for /tele", type: "string" });

	pi.registerCommand("tele", {
		description: "Bind this session to a Tele board: /tele <board> | /tele off",
		getArgumentCompletions: (prefix) => ("off".startsWith(prefix) ? [{ value: "off", label: "off" }] : null),
		handler: async (argText, ctx) => {
			remember(ctx);
			const board = String(argText || "").trim();
			if (board === "off") {
				if (!conn) {
					say("tele: not connected", "info", ctx);
					return;
				}
				const was = conn.board;
				await disconnect("off");
				say(`tele: board "${was}" disconnected; the invitation and browser sessions no longer work`, "info", ctx);
				await Promise.resolve(guard(() => ctx.waitForIdle())).catch(() => {});
				if (!conn) restoreTools();
				return;
			}
			if (!board || /\s/.test(board)) {
				say(`tele: usage: /tele <board> | /tele off${conn ? ` (connected to "${conn.board}")` : ""}`, "warning", ctx);
				return;
			}
			if (conn) {
				if (conn.board !== board) {
					say(`tele: connected to board "${conn.board}"; run /tele off first`, "warning", ctx);
					return;
				}
				if (!conn.ready) {
					say(`tele: board "${board}" is still starting`, "info", ctx);
					return;
				}
				try {
					const r = await conn.link.call("invite", {});
					if (!r || typeof r.invite !== "string") throw { message: "no invitation in the reply" };
					say(`tele: board "${board}" is connected. Open this one-time link within 2 minutes to pair a browser: ${r.invite}`, "info", ctx);
					openBrowser(r.invite);
				} catch (e) {
					say(`tele: no new invitation: ${(e && e.message) || e}`, "error", ctx);
				}
				return;
			}
			if (!ctx.isIdle() || ctx.hasPendingMessages()) {
				say("tele: Pi is busy (a reply is running or messages are queued); run /tele again when it is idle", "warning", ctx);
				return;
			}
			await connect(board, ctx);
		},
	});

	pi.registerTool({
		name: "tele_board",
		label: "Tele board",
		description:
			'Read and edit the chord board the user bound to this session with /tele (only that board). ' +
			'action "catalogue": the chord catalogue and content rules. ' +
			'action "get": the board as {"id","revision","content"}. ' +
			'action "put": replace the whole content; pass expectedRevision = the revision you last read and content = the complete new content object ' +
			'{"title","description","key"?,"tempo","beatsPerBar","sections":[{"label","bars":[["Am7"],["D7","G7"]]}]}. ' +
			"A put with a stale revision fails with revision_conflict and the current revision: get again, reapply the change, put again. " +
			"Invalid content fails with the JSON path and rule of the first problem.",
		promptSnippet: "Read and edit the Tele chord board bound to this session (catalogue, get, put)",
		promptGuidelines: [
			'Call tele_board with action "get" before changing the board; never guess its content or revision.',
			'To change the board call tele_board with action "put", the complete new content as a JSON object (not a patch, not a string) and expectedRevision set to the revision of your last get or put.',
			"If a tele_board put fails with revision_conflict, call get again, apply the change to the fresh content and put with the new revision; if it fails with invalid_content, fix the value at the reported path.",
			'Use only chord symbols from tele_board action "catalogue" (root + quality, optional /bass, or N.C.).',
		],
		parameters: {
			type: "object",
			properties: {
				action: { type: "string", enum: ["catalogue", "get", "put"], description: "catalogue, get or put" },
				expectedRevision: { type: "integer", minimum: 1, description: "put only: the revision you last read" },
				content: { type: "object", description: "put only: the complete board content object" },
			},
			required: ["action"],
			additionalProperties: false,
		},
		prepareArguments: (args) => {
			if (args && typeof args === "object" && typeof args.content === "string") {
				try {
					return { ...args, content: JSON.parse(args.content) };
				} catch {}
			}
			return args;
		},
		async execute(_toolCallId, params, signal) {
			const c = linked();
			if (!c || staleRun) throw new Error("tele_board: Tele is not connected; the user can run /tele <board>");
			const action = params && params.action;
			const args = { action };
			if (action === "put") {
				if (params.expectedRevision !== undefined) args.expectedRevision = params.expectedRevision;
				if (params.content !== undefined) args.content = params.content;
			}
			let ok;
			try {
				ok = await c.link.call("tool", args, signal);
			} catch (e) {
				const err = e && typeof e === "object" ? e : { message: String(e) };
				const extra = { ...(err.fields && typeof err.fields === "object" ? err.fields : {}), ...err };
				delete extra.code;
				delete extra.message;
				delete extra.fields;
				let text = `tele_board ${action} failed: ${err.code || "error"}: ${err.message || "unknown error"}`;
				for (const [k, v] of Object.entries(extra)) text += `; ${k}=${JSON.stringify(v)}`;
				throw new Error(text);
			}
			return { content: [{ type: "text", text: JSON.stringify(ok) }], details: { action } };
		},
	});

	// ---- events ----
	pi.on("session_start", (_event, ctx) => {
		// May fire twice for one instance (RPC session replacement): keep it idempotent.
		live = true;
		remember(ctx);
		if (!conn && savedTools === null) {
			const active = guard(() => pi.getActiveTools()) || [];
			if (active.includes("tele_board")) guard(() => pi.setActiveTools(active.filter((n) => n !== "tele_board")));
		}
	});

	pi.on("session_shutdown", async (event) => {
		const stopped = disconnect(SHUTDOWN_REASON[event && event.reason] || "quit");
		guard(restoreTools);
		live = false;
		lastCtx = null;
		clearTimers();
		unsubscribePrompt();
		if (globalThis[OWNER] === owner) delete globalThis[OWNER];
		await stopped; // the host is gone (or killed) before Pi replaces the session or exits
	});

	pi.on("session_tree", (_event, ctx) => {
		remember(ctx);
		if (!conn) return;
		const board = conn.board;
		disconnect("tree");
		say(`tele: board "${board}" disconnected because the session tree moved; run /tele ${board} again`, "warning", ctx);
		restoreWhenIdle();
	});

	pi.on("session_compact", (_event, ctx) => {
		remember(ctx);
		sendBranch(ctx, false);
	});

	pi.on("input", (_event, ctx) => {
		remember(ctx);
		const m = marker.getStore();
		if (!m) return undefined;
		if (!linked() || m.gen !== gen) return { action: "handled" }; // a late browser input: dropped
		note("input", { command: m.command });
		later(0, reportState);
		return undefined;
	});

	pi.on("agent_start", (_event, ctx) => {
		remember(ctx);
		const m = marker.getStore();
		staleRun = !!m && (!linked() || m.gen !== gen);
		if (staleRun) guard(() => ctx.abort()); // second line behind the input hook
		settleTimer = cancel(settleTimer);
		note("agent_start", {});
		reportState();
	});

	pi.on("message_start", (event, ctx) => {
		remember(ctx);
		// Pi persists a message only after its message_end handlers ran, so the prompt that started this
		// reply is on the branch only now: send it, or the page would show the reply without its question.
		if (event && event.message && event.message.role === "assistant") sendBranch(ctx, false);
		reportState();
	});

	pi.on("message_update", (event, ctx) => {
		remember(ctx);
		if (!linked() || !event || !event.message || event.message.role !== "assistant") return;
		stream.message = event.message;
		if (!stream.timer) stream.timer = later(Math.max(0, stream.last + STREAM_EVERY_MS - Date.now()), flushStream);
	});

	pi.on("message_end", (event, ctx) => {
		remember(ctx);
		if (!event || !event.message || event.message.role !== "assistant") return;
		stream.timer = cancel(stream.timer);
		stream.message = null;
		note("stream", { message: null });
	});

	pi.on("tool_call", (event) => {
		if (staleRun) return { block: true, reason: "Tele revoked this run" };
		if (savedTools !== null && event.toolName !== "tele_board") {
			return { block: true, reason: "Only tele_board is available while Tele is connected" };
		}
		return undefined;
	});

	pi.on("turn_end", (_event, ctx) => {
		remember(ctx);
		// The branch first: the host drops the streamed item at turn_end, and the persisted one replaces it.
		sendBranch(ctx, false);
		note("turn_end", {});
		reportState();
	});

	pi.on("agent_end", (event, ctx) => {
		remember(ctx);
		staleRun = false;
		sendBranch(ctx, false);
		note("agent_end", {});
		if (!linked() && !restorePending) return;
		const msgs = (event && event.messages) || [];
		let last;
		for (let i = msgs.length - 1; i >= 0 && !last; i--) if (msgs[i] && msgs[i].role === "assistant") last = msgs[i];
		const retry = !!last && last.stopReason === "error" && RETRYABLE.test(String(last.errorMessage || ""));
		settleTimer = cancel(settleTimer);
		// isIdle() is still false inside agent_end: look again on a later macrotask.
		settleTimer = later(0, () => checkSettled(ctx, retry ? Date.now() + RETRY_WINDOW_MS : 0));
	});

	const setPrompt = (open) => {
		prompt = !!open;
		reportState();
	};
	const unsubscribePrompt = pi.events.on("tele:terminal-prompt", (d) => setPrompt(d && d.open));
	pi.on("ui_prompt_start", () => setPrompt(true)); // not emitted by Pi 0.73.1; used if a later Pi does
	pi.on("ui_prompt_end", () => setPrompt(false));
}
