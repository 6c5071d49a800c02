// Package setlist keeps sets: ordered lists of boards with a title, the running order of a gig or a
// rehearsal (docs/api.md). A set names its boards by id; it holds no chart of its own.
//
// # On disk
//
//	<dir>/sets/               mode 0700, beside boards/ in the data directory that store.Store owns
//	<dir>/sets/<id>.json      mode 0600: {"id","revision","title","boards","updatedAt","capability"}
//
// One file per set, holding the set and its write capability, so that every change is one atomic
// replace (atomicfile: temporary file, fsync, rename, fsync of the directory) and a crash leaves the set
// as it was or as it became, never half of it, never a set without its capability. A set keeps no
// history: a set is a list a musician rewrites in seconds, not a chart.
//
// # Invariants
//
//   - Under the board store's lock. Open takes an open *store.Store and keeps its sets in that store's
//     directory: the one lock of the data directory covers them, so no second process writes them.
//   - Durable before visible: a write is acknowledged, and readers see it, only once it is on disk.
//   - Ids are unique ignoring case (Gig and gig cannot both exist: they would be one file on a
//     case-insensitive file system), and looked up exactly.
package setlist
