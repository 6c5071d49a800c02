// Package projection is the display projection of Pi's current branch (docs/projection.md): raw branch
// entries and the streaming message in, strict display items out (Item, at most MaxViewItems per view,
// each encoded once). It is pure: no I/O, no clock, no locks; chat's gateway owns one Projector per
// binding and serializes the calls.
package projection
