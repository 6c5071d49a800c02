// Package boardhttp is the board service's HTTP edge (docs/api.md): the board routes (boards, history,
// proposals, claim codes, keys, copy, import and export), each registered with its class for the
// guard (web.Class), the board stream, and the one mapping from the store's typed errors to the JSON
// error shape. The model is package board's and the files are package store's; neither knows about
// HTTP or streams: the server wires the store's OnCommit to Publisher.
package boardhttp
