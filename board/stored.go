package board

// What package store asks of the model beyond Validate: the rules a board file is read back by, the
// copy a write keeps, and its size on disk.

// ParseStored is ParseContent for a board file read back: the rules added after boards could be stored
// without them (visible text) apply to writes only, so a board an earlier Tele stored still opens.
func ParseStored(data []byte) (Content, error) { return parseContent(data, false) }

// Storable validates c and returns it as the store keeps it. Every write of the store (create, put,
// restore, accept, a move from the previous layout) passes its content through here, so nothing is
// stored that the next Open would refuse.
func Storable(c Content) (Content, error) { return storable(c) }

// EncodedLen is the length of c's stored encoding (json.Marshal's), computed without encoding: what a
// revision file spends on c, for the store's quota.
func EncodedLen(c Content) int { return exactEncodedLen(c) }
