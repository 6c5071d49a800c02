// @ts-check
// The link to `tele host`: JSON lines on the host's stdin and stdout (docs/link-protocol.md). A module of
// its own so that `node --test` drives it with a fake child (assets/jstest/link.test.mjs); Bridge inlines
// it into the one file Pi loads, so it imports nothing and every export is a plain declaration.

export const MAX_FRAME = 16 << 20;

export const linkError = (code, message, fields) => Object.assign(new Error(message), { code, fields });

// makeLink speaks the link over child.stdin and child.stdout: onNote gets every note frame, onCall answers
// the host's calls (its promise becomes the reply), onBroken runs once the host sent a line longer than
// MAX_FRAME. Closing the child is the caller's job, and so is failAll once the child is gone.
export function makeLink(child, onNote, onCall, onBroken) {
	let nextId = 1;
	let buf = "";
	const waiting = new Map();
	const write = (frame) => {
		const line = JSON.stringify(frame);
		if (Buffer.byteLength(line) > MAX_FRAME || !child.stdin.writable) return false;
		child.stdin.write(line + "\n");
		return true;
	};
	const finish = (id, fn) => waiting.has(id) && fn(waiting.get(id), waiting.delete(id));
	const answer = (id, name, args) =>
		onCall(name, args).then(
			(ok) => write({ id, ok: ok === undefined ? null : ok }),
			(e) => write({ id, err: { code: e.code || "internal", message: String(e.message).slice(0, 500) } }),
		);
	const onLine = (line) => {
		let f;
		try {
			f = JSON.parse(line);
		} catch {
			return; // the link protocol drops a line that is not JSON
		}
		if (!f || typeof f !== "object" || Array.isArray(f)) return;
		const hasId = Number.isSafeInteger(f.id) && f.id > 0;
		if (typeof f.note === "string") return onNote(f);
		if (typeof f.call === "string" && hasId) return answer(f.id, f.call, f.args);
		if (hasId && "ok" in f) return finish(f.id, (w) => w.resolve(f.ok));
		if (hasId && f.err && typeof f.err === "object") {
			const { code, message, ...fields } = f.err;
			return finish(f.id, (w) => w.reject(linkError(String(code), String(message), fields)));
		}
		if (hasId) write({ id: f.id, err: { code: "bad_frame", message: "malformed frame" } });
	};
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk) => {
		buf += chunk;
		for (let i; (i = buf.indexOf("\n")) >= 0; ) {
			const line = buf.slice(0, i);
			buf = buf.slice(i + 1);
			if (line.trim()) onLine(line);
		}
		if (buf.length > MAX_FRAME) onBroken((buf = ""));
	});
	return {
		note: (name, fields) => write({ note: name, ...fields }),
		call: (name, args, signal) =>
			new Promise((resolve, reject) => {
				if (signal && signal.aborted) return reject(linkError("aborted", "the tool call was aborted"));
				const id = nextId++;
				waiting.set(id, { resolve, reject });
				const aborted = linkError("aborted", "the tool call was aborted; the board may still have changed, call get");
				if (signal) signal.addEventListener("abort", () => finish(id, (w) => w.reject(aborted)), { once: true });
				if (!write({ id, call: name, args })) finish(id, (w) => w.reject(linkError("revoked", "Tele is not connected")));
			}),
		failAll: (code, message) => [...waiting.keys()].forEach((id) => finish(id, (w) => w.reject(linkError(code, message)))),
	};
}
