package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"studio/internal/analytics"
)

// Enquiries and sign-ups allowed from one client per window.
const (
	enquiriesPerWindow = 10
	limitWindow        = 10 * time.Minute
)

// Analytics batches allowed from one client per window: a page sends a
// batch every few seconds at most and one when hidden
// (contracts/analytics-events.json).
var eventBatchesPerWindow = analytics.Events.Limits.BatchesPerMinute

const eventWindow = time.Minute

// ClientIP is the address of the visitor: the connection's, or, when the
// connection comes from a trusted proxy, the last address in
// X-Forwarded-For that is not itself a trusted proxy.
func ClientIP(r *http.Request, trusted []netip.Prefix) string {
	ip, ok := peer(r)
	if !ok {
		return r.RemoteAddr
	}
	isTrusted := func(a netip.Addr) bool { return contains(trusted, a) }
	if !isTrusted(ip) {
		return peerText(r.RemoteAddr, ip)
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

// IsHTTPS reports whether the visitor's request came over HTTPS: to this
// server's own TLS, or to a trusted proxy that says so in
// X-Forwarded-Proto. The header from anyone else is ignored.
func IsHTTPS(r *http.Request, trusted []netip.Prefix) bool {
	if r.TLS != nil {
		return true
	}
	if len(trusted) == 0 {
		return false // no proxy to believe: the peer's address need not be read
	}
	ip, ok := peer(r)
	if !ok || !contains(trusted, ip) {
		return false
	}
	// A chain of proxies appends: the first value is what the visitor used.
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// peer is the address of the connection's other end.
func peer(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap(), true
}

// peerText is ip, the peer parsed from remoteAddr, as text. An IPv4 peer's
// text is remoteAddr's host part as it is (netip parses IPv4 only in its
// one dotted-decimal form), taken without making a new string; any other,
// IPv6 or IPv4 in IPv6, is written out.
func peerText(remoteAddr string, ip netip.Addr) string {
	if ip.Is4() && remoteAddr != "" && remoteAddr[0] != '[' {
		if i := strings.LastIndexByte(remoteAddr, ':'); i > 0 {
			return remoteAddr[:i]
		}
	}
	return ip.String()
}

func contains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// proxyWarning tells, at most once an hour, that requests carry
// X-Forwarded-For from an address not in TRUSTED_PROXIES: behind a proxy
// nobody told the server about, every visitor shares one rate limit and
// the log shows the proxy's address.
type proxyWarning struct {
	log     *slog.Logger
	trusted []netip.Prefix
	now     func() time.Time

	mu   sync.Mutex
	last time.Time
}

const proxyWarningEvery = time.Hour

func (p *proxyWarning) check(r *http.Request) {
	if _, forwarded := r.Header["X-Forwarded-For"]; !forwarded {
		return
	}
	ip, ok := peer(r)
	if !ok || contains(p.trusted, ip) {
		return
	}
	now := p.now()
	p.mu.Lock()
	due := p.last.IsZero() || now.Sub(p.last) >= proxyWarningEvery
	if due {
		p.last = now
	}
	p.mu.Unlock()
	if due {
		p.log.Warn("requests carry X-Forwarded-For from "+ip.String()+", which is not in TRUSTED_PROXIES: "+
			"every visitor behind it shares one rate limit, and the log and HSTS cannot see the visitor; "+
			"if it is your reverse proxy, set TRUSTED_PROXIES="+ip.String()+" (this warning repeats at most hourly)",
			"proxy", ip.String())
	}
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

// visitorSalts makes the daily visitor hash. The salt of a day is random
// and never written down; a restart makes a new one (the day's visitors
// before and after are then counted twice).
type visitorSalts struct {
	mu   sync.Mutex
	day  string
	salt [32]byte
}

func (v *visitorSalts) visitor(day, address, agent string) string {
	v.mu.Lock()
	if v.day != day {
		v.day = day
		rand.Read(v.salt[:])
	}
	h := sha256.New()
	h.Write(v.salt[:])
	v.mu.Unlock()
	fmt.Fprintf(h, "%s\x00%s\x00%s", day, address, agent)
	return hex.EncodeToString(h.Sum(nil)[:16])
}
