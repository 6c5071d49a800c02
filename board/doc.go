// Package board owns Tele's boards: the content schema (SPEC 3.2), the chord catalogue (3.3), the
// teaching example (3.4) and the store (3.1) that keeps them in the data directory. http.go is its
// HTTP edge; nothing else in the package knows about HTTP or streams.
//
// # On disk
//
//	<dir>/            mode 0700 when the store creates it; refused when group or others can write it
//	<dir>/.lock       holds "pid port" of the one process that owns the directory; never a link
//	<dir>/boards/     mode 0700; <id>.json is the board: {"id","revision","content","updatedAt"}
//	<dir>/caps/       mode 0700; <id> is the board's write capability, mode 0600
//
// # Invariants
//
//   - One owner. Open holds the directory until Close (lock.go): on unix a non-blocking exclusive flock
//     on a descriptor of <dir> itself, so deleting or replacing .lock frees nothing; on Windows .lock
//     held open without FILE_SHARE_DELETE, so it cannot be deleted. A second Open, in this process or
//     another, fails at once with *LockedError naming the directory and what the lock file says of its
//     owner (pid, port). ReadCapability and RunningOwner are the only readers that need no lock: they
//     read one file and change nothing.
//   - A private directory. On unix Open refuses a data directory that another user owns or that group or
//     others can write (whoever can write it can swap the boards), and opens .lock without following a
//     symbolic link, so a planted link cannot make Tele write or empty another file.
//   - Durable before visible (publish after commit). A write encodes the board first, then writes a
//     temporary file in the same directory, fsyncs and closes it, renames it over the board file and
//     fsyncs the directory. Only then does the new revision replace the old one in memory and reach
//     Options.OnCommit, and only then is the write acknowledged. A crash at any moment leaves the old or
//     the new revision on disk, never a torn file; a failed write changes nothing (a temporary file is
//     removed, and a rename whose directory fsync failed is rolled back).
//   - One writer per board. Each board has a commit lock; the revision check (If-Match) and the commit
//     run under it, so of several writers holding the same revision exactly one wins and the others get
//     *ConflictError. OnCommit runs under it too, so a board's commits are published in revision order.
//   - Capabilities are 32 random bytes, base64url without padding, kept in 0600 files, compared in
//     constant time, and never logged or put in a Board.
//   - Boards handed out (Get, Put, List, OnCommit) share their Content with the store and are read only;
//     use Content.Clone to change one. The store keeps its own copy of what it is given.
package board
