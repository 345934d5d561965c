package accounts

import (
	"net/netip"
	"strings"
)

// How Your account names a session: the browser and system its
// User-Agent says, and the network it was last used from. There is no
// database of places on the server and no lookup elsewhere (the studio's
// addresses go to no third party), so the place is the network: "This
// network" (the one this page was asked from), "Local network" (a private
// or loopback address: the office, or the server's own machine), or the
// address's /24 (a /48 for IPv6), which is all that is kept of it.

// browsers are matched in order: Edge, Opera and Samsung Internet also
// say "Chrome", and Chrome also says "Safari".
var browsers = []struct{ token, name string }{
	{"Edg/", "Edge"}, {"EdgA/", "Edge"}, {"EdgiOS/", "Edge"},
	{"OPR/", "Opera"}, {"OPT/", "Opera"},
	{"SamsungBrowser/", "Samsung Internet"},
	{"UCBrowser/", "UC Browser"},
	{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
	{"CriOS/", "Chrome"}, {"Chrome/", "Chrome"},
	{"Safari/", "Safari"},
}

// systems are matched in order: Android says "Linux", an iPhone "like Mac OS X".
var systems = []struct{ token, name string }{
	{"Windows", "Windows"},
	{"Android", "Android"},
	{"iPhone", "iPhone"}, {"iPad", "iPad"},
	{"CrOS", "ChromeOS"},
	{"Macintosh", "macOS"},
	{"Linux", "Linux"},
}

// browserLabel names the browser and system of a User-Agent ("Chrome on
// Android"), as far as it says them.
func browserLabel(userAgent string) string {
	browser, system := "", ""
	for _, b := range browsers {
		if strings.Contains(userAgent, b.token) {
			browser = b.name
			break
		}
	}
	for _, s := range systems {
		if strings.Contains(userAgent, s.token) {
			system = s.name
			break
		}
	}
	switch {
	case browser != "" && system != "":
		return browser + " on " + system
	case browser != "":
		return browser
	case system != "":
		return "A browser on " + system
	}
	return "An unknown browser"
}

// networkOf is what is kept of an address: its /24, or /48 for IPv6
// ("203.0.113.0/24"); "" for no address.
func networkOf(address string) string {
	a, err := netip.ParseAddr(address)
	if err != nil {
		return ""
	}
	a = a.Unmap().WithZone("")
	bits := 24
	switch {
	case a.IsLoopback():
		bits = a.BitLen() // ::1 cut to a /48 would be no loopback
	case a.Is6():
		bits = 48
	}
	p, _ := a.Prefix(bits)
	return p.String()
}

// placeLabel names a session's network as seen from here, this page's
// own network.
func placeLabel(network, here string) string {
	p, err := netip.ParsePrefix(network)
	switch {
	case err != nil:
		return "An unknown network"
	case network == here:
		return "This network"
	case p.Addr().IsPrivate() || p.Addr().IsLoopback() || p.Addr().IsLinkLocalUnicast():
		return "Local network"
	}
	return "Network " + network
}

// sessionHandle names a session in a page's form ("Sign out this one")
// without its secret's hash, which opens nothing but stays in the
// database alone.
func sessionHandle(secretHash string) string { return SecretHash(secretHash)[:20] }
