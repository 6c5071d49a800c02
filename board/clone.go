package board

// Clone returns a deep copy of c (two allocations for all the bars and chords, one for each bar's
// durations).
func (c Content) Clone() Content {
	if c.Sections == nil {
		return c
	}
	nbars, nchords := 0, 0
	for _, s := range c.Sections {
		nbars += len(s.Bars)
		for _, bar := range s.Bars {
			nchords += len(bar.Chords)
		}
	}
	bars := make([]Bar, 0, nbars)
	chords := make([]string, 0, nchords)
	secs := make([]Section, len(c.Sections))
	for i, s := range c.Sections {
		secs[i].Label, secs[i].Role, secs[i].Recall = s.Label, s.Role, s.Recall
		secs[i].Lines = cloneLines(s.Lines)
		if s.Bars == nil {
			continue
		}
		start := len(bars)
		for _, bar := range s.Bars {
			if bar.Chords != nil {
				k := len(chords)
				chords = append(chords, bar.Chords...)
				bar.Chords = chords[k:len(chords):len(chords)]
			}
			if bar.Durations != nil {
				bar.Durations = append([]int{}, bar.Durations...)
			}
			bars = append(bars, bar)
		}
		secs[i].Bars = bars[start:len(bars):len(bars)]
	}
	c.Sections = secs
	return c
}
