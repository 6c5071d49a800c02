// Package store keeps Tele's boards in the data directory: each board's revisions and their history,
// its capability and claim codes, its open proposals, the server-wide quota, deletion and key rotation,
// and what Open could not read, set aside. What a board holds, and every rule it must pass, is package
// board's (the model); the store passes every write through board.Storable. The board routes are
// package boardhttp's; nothing here knows about HTTP or streams.
//
// # On disk
//
//	<dir>/                    mode 0700 when the store creates it; refused when group or others can write it
//	<dir>/.lock               holds "pid port" of the one process that owns the directory; never a link
//	<dir>/boards/<id>/        mode 0700; one file per kept revision of the board, <revision>.json, mode
//	                          0600: {"id","revision","content","updatedAt","author","restoredFrom"}
//	<dir>/caps/               mode 0700; <id> is the board's write capability, mode 0600
//	<dir>/boards/.deleted-<id>-<random>/  a deleted board's directory until its files are removed
//	                          (delete.go); Open removes a leftover one and never lists it
//	<dir>/boards/<id>/rows-<n>.jsonl  the history index: the rows of revisions n*256+1 … (n+1)*256, one
//	                          JSON line each, appended by every commit (rowindex.go); a cache of the files
//	<dir>/boards/<id>.json    the previous version's layout (the current revision only); Open moves it
//	                          into boards/<id>/ as a revision by Tele
//	<dir>/boards/<id>/proposals/<proposal>.json  an open proposal of the board (proposal.go): written once,
//	                          removed when accepted, rejected or dropped
//	<dir>/quarantine/<id>-<what>-<time>-<random>/  what Open could not read, moved there with a note
//	                          (quarantine.go); `tele board check` lists it
//
// # Invariants
//
//   - One owner. Open holds the directory until Close (lock.go): on unix a non-blocking exclusive flock
//     on a descriptor of <dir> itself, so deleting or replacing .lock frees nothing; on Windows .lock
//     held open without FILE_SHARE_DELETE, so it cannot be deleted. A second Open, in this process or
//     another, fails at once with *LockedError naming the directory and what the lock file says of its
//     owner (pid, port). ReadCapability, ReadHistory and RunningOwner are the only readers that need no
//     lock: they read files and change nothing.
//   - A private directory. On unix Open refuses a data directory that another user owns or that group or
//     others can write (whoever can write it can swap the boards), and opens .lock without following a
//     symbolic link, so a planted link cannot make Tele write or empty another file.
//   - Durable before visible (publish after commit). A write encodes the board first, then writes it to
//     a temporary file in the board's directory, fsyncs and closes it, hard-links it to the revision's
//     name (which fails if the name exists: a revision file is created exclusively, never replaced),
//     removes the temporary name and fsyncs the directory: one round of fsyncs, as a rename would need.
//     Only then does the new revision replace the old one in memory and reach Options.OnCommit, and
//     only then is the write acknowledged. A crash at any moment leaves the old or the new revision as
//     the newest file, never a torn file; a failed write changes nothing (a temporary file is removed,
//     and a revision whose directory fsync failed is removed again).
//   - A board is never without its key. A creation (one board or an import's many, createall.go) makes
//     every key durable before it links any first revision, and syncs the files and directories of all
//     its boards together; a crash leaves whole boards, each with its key, and leftovers Open removes.
//   - The history is the files. Every committed revision is kept, with its author (set by the write
//     path: browser, pi or tele) and, for a restore, the revision it brought back; the newest file is
//     the current board, so history and current board cannot disagree. The newest KeepRevisions are
//     kept, and at most KeepHistoryBytes of them; older ones are removed oldest first after a commit (no
//     fsync: a removal a crash undoes is done again), so the kept revisions are always contiguous, and
//     Open removes anything older than a gap. Open reads only the newest revision of each board; the
//     rows of a history are read from its index the first time they are listed (a row the index lacks
//     from its revision file), without the commit lock, and kept up to date by every commit after that.
//   - What is stored passes the rules it is read by: every write validates the content as stored
//     (storable: chords in the catalogue's spelling) before it commits. What Open cannot read anyway (a
//     damaged file, a board an earlier Tele stored wrongly) is set aside in <dir>/quarantine, and every
//     other board opens.
//   - Ids are unique ignoring case, so that no two boards' files share a name on macOS or Windows.
//   - The quota (quota.go) bounds the boards and the bytes of revision files the store keeps.
//   - One writer per board. Each board has a commit lock; the revision check (If-Match) and the commit
//     run under it, so of several writers holding the same revision exactly one wins and the others get
//     *ConflictError. OnCommit runs under it too, so a board's commits are published in revision order.
//   - Capabilities are 32 random bytes, base64url without padding, kept in 0600 files, compared in
//     constant time, and never logged or put in a Board.
//   - Boards handed out (Get, Put, List, OnCommit) share their Content with the store and are read only;
//     use Content.Clone to change one. The store keeps its own copy of what it is given.
package store
