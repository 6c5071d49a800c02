package board

// content is the example under another title.
func content(title string) Content {
	c := Example()
	c.Title = title
	return c
}
