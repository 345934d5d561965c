package server

import (
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Enquiries and sign-ups allowed from one client per window.
const (
	enquiriesPerWindow = 10
	limitWindow        = 10 * time.Minute
)

// ClientIP is the address of the visitor: the connection's, or, when the
// connection comes from a trusted proxy, the last address in
// X-Forwarded-For that is not itself a trusted proxy.
func ClientIP(r *http.Request, trusted []netip.Prefix) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := ap.Addr().Unmap()
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	if !isTrusted(ip) {
		return ip.String()
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		ip = a.Unmap()
		if !isTrusted(ip) {
			break
		}
	}
	return ip.String()
}

// VisitorKey is what the rate limits count by: the client's address, or
// for IPv6 its /64, which one household or one server holds whole.
func VisitorKey(r *http.Request, trusted []netip.Prefix) string {
	ip := ClientIP(r, trusted)
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.Is6() || a.Is4In6() {
		return ip
	}
	p, _ := a.Prefix(64)
	return p.String()
}
