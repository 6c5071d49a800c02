package store

// Dir returns the data directory the store owns. Whoever keeps more in it (the sets of package setlist)
// does so under this store's lock, for as long as the store is open.
func (s *Store) Dir() string { return s.dir }
