package main

import (
	"errors"
	"fmt"
	"slices"

	"tele/band"
	"tele/server"
)

// takeShare takes --share out of a command's arguments.
func takeShare(rest []string) (bool, []string) {
	share := false
	rest = slices.DeleteFunc(rest, func(a string) bool {
		if a == "--share" || a == "-share" {
			share = true
			return true
		}
		return false
	})
	return share, rest
}

// shareAddr is where `--share` listens: the setting, or the first private IPv4 address of an interface
// that is up, port 4318.
func shareAddr(s Settings) (string, error) {
	if s.ShareAddr != "" {
		return s.ShareAddr, nil
	}
	ap, err := band.DefaultAddr()
	if err != nil {
		return "", err
	}
	return ap.String(), nil
}

// shareError says in one line why the share listener could not start, and the fix.
func shareError(err error, s Settings) error {
	if !errors.Is(err, server.ErrShareAddr) {
		return nil
	}
	return fmt.Errorf("cannot share with the band (address from %s): %v: give an address of this machine with --share-addr <ip:port> or TELE_SHARE_ADDR",
		s.ShareSource, err)
}
