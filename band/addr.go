package band

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
)

// DefaultPort is the share listener's port when --share-addr does not name one.
const DefaultPort = 4318

// ParseAddr reads a share address, <IPv4>:<port>: an address a phone can be sent to, so neither
// 0.0.0.0 (every interface: more than the one network the band is on) nor a multicast or broadcast
// address, and a port from 1 to 65535. The error says what is wrong in words for a one-line message.
func ParseAddr(s string) (netip.AddrPort, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return netip.AddrPort{}, errors.New("want <IPv4 address>:<port>, like 192.168.1.20:4318")
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Is4() {
		return netip.AddrPort{}, fmt.Errorf("%q is not an IPv4 address: want one of this machine's, like 192.168.1.20", host)
	}
	if ip.IsUnspecified() || ip.IsMulticast() || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return netip.AddrPort{}, fmt.Errorf("%s is not one machine's address: give this machine's address on the band's network", host)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 || strconv.Itoa(p) != port {
		return netip.AddrPort{}, fmt.Errorf("port %q is not a number from 1 to 65535", port)
	}
	return netip.AddrPortFrom(ip, uint16(p)), nil
}

// DefaultAddr is the first private IPv4 address (10/8, 172.16/12, 192.168/16) of an interface that is
// up, with DefaultPort: the machine's address on a home, rehearsal-room or phone-hotspot network.
func DefaultAddr() (netip.AddrPort, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("cannot list the network interfaces: %v", err)
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			pfx, err := netip.ParsePrefix(a.String())
			if err != nil {
				continue
			}
			if ip := pfx.Addr(); ip.Is4() && ip.IsPrivate() {
				return netip.AddrPortFrom(ip, DefaultPort), nil
			}
		}
	}
	return netip.AddrPort{}, errors.New("this machine has no private IPv4 address on an interface that is up: join the band's Wi-Fi (or a phone's hotspot), or give --share-addr <ip:port>")
}
