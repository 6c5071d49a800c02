package sse

import "syscall"

// setReceiveBuffer sets a socket's receive buffer (SO_RCVBUF), for a client that reads slowly.
func setReceiveBuffer(fd uintptr, bytes int) error {
	return syscall.SetsockoptInt(syscall.Handle(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, bytes)
}
