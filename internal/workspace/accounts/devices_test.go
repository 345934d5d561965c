package accounts

import "testing"

func TestBrowserLabel(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36":                          "Chrome on Android",
		"Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36":     "Samsung Internet on Android",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1":        "Safari on iPhone",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1": "Chrome on iPhone",
		"Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1":                 "Safari on iPad",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15":                          "Safari on macOS",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0":                  "Edge on Windows",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0":                                                               "Firefox on Windows",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0":                            "Opera on Linux",
		"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36":                                 "Chrome on ChromeOS",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) SomethingNew/1.0":                                                                                     "A browser on Windows",
		"curl/8.5.0": "An unknown browser",
		"":           "An unknown browser",
	} {
		if got := browserLabel(ua); got != want {
			t.Errorf("browserLabel(%q) = %q, want %q", ua, got, want)
		}
	}
}

func TestPlaceLabel(t *testing.T) {
	t.Parallel()
	here := networkOf("203.0.113.9")
	for address, want := range map[string]string{
		"203.0.113.200":       "This network",
		"198.51.100.7":        "Network 198.51.100.0/24",
		"::ffff:198.51.100.7": "Network 198.51.100.0/24",
		"10.1.2.3":            "Local network",
		"192.168.1.20":        "Local network",
		"127.0.0.1":           "Local network",
		"::1":                 "Local network",
		"2001:db8:1234:5::1":  "Network 2001:db8:1234::/48",
		"not an address":      "An unknown network",
	} {
		if got := placeLabel(networkOf(address), here); got != want {
			t.Errorf("placeLabel of %q = %q, want %q", address, got, want)
		}
	}
}
