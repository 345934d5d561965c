// Package config reads the server's settings from the environment, once,
// at start-up, and checks them before anything is served.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"studio/contracts"
)

// Config is every setting of bin/studio.
type Config struct {
	Port int // PORT, default 8080
	// LISTEN_ADDR, default ":" + PORT: where plain HTTP is served when
	// DOMAIN is not set, e.g. 127.0.0.1:8080 behind a reverse proxy.
	ListenAddr string
	DataDir    string // DATA_DIR, default ./data: where the SQLite database and the certificates live

	// DOMAIN: the site's host names. Set, the server gets certificates for
	// them itself (ACME, Let's Encrypt by default) and serves HTTPS on
	// HTTPSAddr, and on HTTPAddr the ACME challenges and a redirect.
	Domains       []string
	HTTPAddr      string // HTTP_ADDR, default ":80"
	HTTPSAddr     string // HTTPS_ADDR, default ":443"
	ACMEEmail     string // ACME_EMAIL: where the certificate authority writes about expiry problems
	ACMEDirectory string // ACME_DIRECTORY, default Let's Encrypt's production directory
	// PUBLIC_URL: the site's address as people reach it (https://www.example.com,
	// no path), when that is not https:// and the first of DOMAIN: behind a
	// proxy, or on a trial server. Mailed links start with it (MailedLinksBase).
	PublicURL string

	DatabaseURL    string // DATABASE_URL: PostgreSQL instead of SQLite when set
	StudioPassword string // STUDIO_PASSWORD: the inbox at /studio is off when empty
	SMTP           SMTP
	// TRUSTED_PROXIES: addresses or CIDR ranges of the reverse proxies whose
	// X-Forwarded-For names the client. Empty: the connection's address is
	// the client's.
	TrustedProxies []netip.Prefix
	// METRICS_TOKEN: lets a Prometheus elsewhere read /metrics with
	// "Authorization: Bearer <token>"; without it, only this machine can.
	MetricsToken string
	// INSIGHTS_KEEP_DAYS, default 90: how long each analytics event is
	// kept as it came; its day's counts are kept for good.
	InsightsKeepDays int
	// INSIGHTS_MAX_EVENTS_PER_DAY, default 200,000: the most analytics
	// events stored in a day, so that storage has a ceiling
	// (DefaultMaxEventsPerDay says why this number).
	InsightsMaxEventsPerDay int64
	// INSIGHTS_MAX_EVENTS_PER_ADDRESS, default 2,000: the most stored in a
	// day from one address (an IPv4 address or an IPv6 /64), so that a
	// few senders cannot take the day's whole allowance.
	InsightsMaxEventsPerAddress int64
	// DATABASE_TIMEOUT, default 3s: how long a request waits for the
	// database before it answers 503 with Retry-After.
	DatabaseTimeout time.Duration
	Publishing      Publishing
}

// Publishing is how content commits become live releases (internal/publish).
type Publishing struct {
	// BUILDER_DIR, default the working directory when it holds web/ with
	// its packages installed: the front end the server builds releases
	// with. Without one the server serves, but cannot build.
	BuilderDir string
	Manual     bool // PUBLISH=manual: a good build waits for "Make this version live" (default auto)
	Keep       int  // RELEASES_KEEP, default 10: releases kept on disk
	// BUILD_TIMEOUT, default 30m: a longer build is stopped and fails. The
	// first build of 300 products with 200 camera photographs, from cold
	// caches, takes over 10 minutes on two cores (make bench-publish).
	TimeOut time.Duration
	// RENDERER_MEMORY, default 768 (MiB, contracts/renderer.json): the most
	// the warm renderer (the build steps, the previews) may take; above, it
	// is stopped and started again.
	RendererMemory int64
	// RENDER_TIMEOUT, default 10s (contracts/renderer.json): the most one
	// preview page, content check or Markdown preview may take in the warm
	// renderer; past it, the renderer is stopped and started again.
	RenderTimeOut time.Duration
}

// rendererLimits are the renderer's default limits, from contracts/renderer.json.
var rendererLimits = func() struct{ MemoryMiB, RenderTimeoutSeconds int64 } {
	var protocol struct {
		Limits struct{ MemoryMiB, RenderTimeoutSeconds int64 }
	}
	if err := json.Unmarshal(contracts.Renderer, &protocol); err != nil {
		panic("contracts/renderer.json: " + err.Error())
	}
	return protocol.Limits
}()

// SMTP is where the e-mails about new enquiries go. Mail is off when Host
// is empty.
type SMTP struct {
	Host     string // SMTP_HOST
	Port     int    // SMTP_PORT, default 587
	Username string // SMTP_USERNAME (with SMTP_PASSWORD; none: no AUTH)
	Password string // SMTP_PASSWORD
	From     string // SMTP_FROM, required with SMTP_HOST
	To       string // SMTP_TO, default the studio's address in content/site.json
}

// Enabled is true when enquiries are mailed to the studio.
func (s SMTP) Enabled() bool { return s.Host != "" }

// The analytics caps' defaults. A visit here sends about 20 events (page
// views, scroll depths, products seen, searches), so 200,000 a day is some
// 10,000 visits: ten times a busy day of a studio's site, and six times
// the million events a month the insights were built for. 2,000 from one
// address is a hundred visits: an office, or phones behind one carrier's
// address, keep counting, and one sender cannot take more than a hundredth
// of a day. With INSIGHTS_KEEP_DAYS at 90 the events take at most the
// space docs/security-and-limits.md computes.
const (
	DefaultMaxEventsPerDay     = 200_000
	DefaultMaxEventsPerAddress = 2_000
)

// LetsEncrypt is the ACME directory used when ACME_DIRECTORY is not set.
const LetsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"

// FromEnv reads the settings through lookup (os.LookupEnv in production)
// and fills in defaults. The first setting found wrong is the error.
func FromEnv(lookup func(string) (string, bool)) (Config, error) {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	c := Config{Port: 8080, DataDir: "data", HTTPAddr: ":80", HTTPSAddr: ":443", ACMEDirectory: LetsEncrypt, InsightsKeepDays: 90,
		InsightsMaxEventsPerDay: DefaultMaxEventsPerDay, InsightsMaxEventsPerAddress: DefaultMaxEventsPerAddress, DatabaseTimeout: 3 * time.Second}
	if err := c.readListeners(getenv); err != nil {
		return Config{}, err
	}
	if err := c.readSite(lookup, getenv); err != nil {
		return Config{}, err
	}
	if err := c.readInsights(getenv); err != nil {
		return Config{}, err
	}
	if err := c.readDatabase(getenv); err != nil {
		return Config{}, err
	}
	publishing, err := publishingFromEnv(getenv)
	if err != nil {
		return Config{}, err
	}
	c.Publishing = publishing
	if err := c.readStudioAccess(getenv); err != nil {
		return Config{}, err
	}
	smtp, err := smtpFromEnv(getenv)
	if err != nil {
		return Config{}, err
	}
	c.SMTP = smtp
	return c, nil
}

// readListeners reads PORT and the addresses to listen on.
func (c *Config) readListeners(getenv func(string) string) error {
	if v := getenv("PORT"); v != "" {
		port, err := strconv.Atoi(v)
		if err != nil || port < 1 || port > 65535 {
			return fmt.Errorf("PORT=%q is not a port number (1-65535)", v)
		}
		c.Port = port
	}
	c.ListenAddr = ":" + strconv.Itoa(c.Port)
	for name, addr := range map[string]*string{"LISTEN_ADDR": &c.ListenAddr, "HTTP_ADDR": &c.HTTPAddr, "HTTPS_ADDR": &c.HTTPSAddr} {
		if v := getenv(name); v != "" {
			if err := checkAddr(v); err != nil {
				return fmt.Errorf("%s=%q is not an address to listen on (host:port, such as 127.0.0.1:8080 or :8080): %w", name, v, err)
			}
			*addr = v
		}
	}
	return nil
}

// readSite reads where the data lives and the names the site answers to:
// DATA_DIR, DOMAIN, PUBLIC_URL, the ACME settings and METRICS_TOKEN.
func (c *Config) readSite(lookup func(string) (string, bool), getenv func(string) string) error {
	// An empty DATA_DIR is a mistake (a variable that lost its value), not
	// a wish for ./data.
	if v, set := lookup("DATA_DIR"); set {
		if strings.TrimSpace(v) == "" {
			return errors.New("DATA_DIR is set but empty: name the directory for the database (unset it to use ./data)")
		}
		c.DataDir = v
	}
	if v := getenv("DOMAIN"); v != "" {
		c.Domains = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	for _, d := range c.Domains {
		if strings.Contains(d, "/") || strings.Contains(d, ":") || !strings.Contains(d, ".") {
			return fmt.Errorf("DOMAIN: %q is not a host name (such as www.example.com)", d)
		}
	}
	if v := getenv("PUBLIC_URL"); v != "" {
		u, err := publicURL(v)
		if err != nil {
			return err
		}
		c.PublicURL = u
	}
	c.ACMEEmail = getenv("ACME_EMAIL")
	c.MetricsToken = getenv("METRICS_TOKEN")
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		return errors.New("METRICS_TOKEN is too short: use at least 16 characters")
	}
	if v := getenv("ACME_DIRECTORY"); v != "" {
		c.ACMEDirectory = v
	}
	return nil
}

// readInsights reads how long the insights' events are kept and their caps.
func (c *Config) readInsights(getenv func(string) string) error {
	if v := getenv("INSIGHTS_KEEP_DAYS"); v != "" {
		days, err := strconv.Atoi(v)
		if err != nil || days < 1 {
			return fmt.Errorf("INSIGHTS_KEEP_DAYS=%q is not a number of days (1 or more)", v)
		}
		c.InsightsKeepDays = days
	}
	for name, limit := range map[string]*int64{"INSIGHTS_MAX_EVENTS_PER_DAY": &c.InsightsMaxEventsPerDay, "INSIGHTS_MAX_EVENTS_PER_ADDRESS": &c.InsightsMaxEventsPerAddress} {
		if v := getenv(name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				return fmt.Errorf("%s=%q is not a number of events (1 or more)", name, v)
			}
			*limit = n
		}
	}
	return nil
}

// readDatabase reads DATABASE_TIMEOUT and DATABASE_URL.
func (c *Config) readDatabase(getenv func(string) string) error {
	if v := getenv("DATABASE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 100*time.Millisecond || d > time.Minute {
			return fmt.Errorf("DATABASE_TIMEOUT=%q is not a duration between 100ms and 1m (such as 3s)", v)
		}
		c.DatabaseTimeout = d
	}
	c.DatabaseURL = getenv("DATABASE_URL")
	return nil
}

// readStudioAccess reads STUDIO_PASSWORD and TRUSTED_PROXIES.
func (c *Config) readStudioAccess(getenv func(string) string) error {
	c.StudioPassword = getenv("STUDIO_PASSWORD")
	if c.StudioPassword != "" && len(c.StudioPassword) < 12 {
		return errors.New("STUDIO_PASSWORD is too short: use at least 12 characters")
	}
	for _, field := range strings.FieldsFunc(getenv("TRUSTED_PROXIES"), func(r rune) bool { return r == ',' || r == ' ' }) {
		prefix, err := netip.ParsePrefix(field)
		if err != nil {
			addr, aerr := netip.ParseAddr(field)
			if aerr != nil {
				return fmt.Errorf("TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range", field)
			}
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}
	return nil
}

func publishingFromEnv(getenv func(string) string) (Publishing, error) {
	p := Publishing{BuilderDir: getenv("BUILDER_DIR"), Keep: 10, TimeOut: 30 * time.Minute,
		RendererMemory: rendererLimits.MemoryMiB << 20, RenderTimeOut: time.Duration(rendererLimits.RenderTimeoutSeconds) * time.Second}
	switch v := getenv("PUBLISH"); v {
	case "", "auto":
	case "manual":
		p.Manual = true
	default:
		return Publishing{}, fmt.Errorf("PUBLISH=%q: want auto (a good build goes live) or manual (it waits for \"Make this version live\")", v)
	}
	if v := getenv("RELEASES_KEEP"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 || n > 1000 {
			return Publishing{}, fmt.Errorf("RELEASES_KEEP=%q is not a number of releases between 2 and 1000", v)
		}
		p.Keep = n
	}
	if v := getenv("BUILD_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Second || d > 2*time.Hour {
			return Publishing{}, fmt.Errorf("BUILD_TIMEOUT=%q is not a duration between 10s and 2h (such as 10m)", v)
		}
		p.TimeOut = d
	}
	if v := getenv("RENDERER_MEMORY"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 128 || n > 65536 {
			return Publishing{}, fmt.Errorf("RENDERER_MEMORY=%q is not a number of MiB between 128 and 65536", v)
		}
		p.RendererMemory = n << 20
	}
	if v := getenv("RENDER_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 10*time.Minute {
			return Publishing{}, fmt.Errorf("RENDER_TIMEOUT=%q is not a duration between 1s and 10m (such as 10s)", v)
		}
		p.RenderTimeOut = d
	}
	return p, nil
}

func smtpFromEnv(getenv func(string) string) (SMTP, error) {
	s := SMTP{Host: getenv("SMTP_HOST"), Port: 587, Username: getenv("SMTP_USERNAME"), Password: getenv("SMTP_PASSWORD"),
		From: getenv("SMTP_FROM"), To: getenv("SMTP_TO")}
	if v := getenv("SMTP_PORT"); v != "" {
		port, err := strconv.Atoi(v)
		if err != nil || port < 1 || port > 65535 {
			return SMTP{}, fmt.Errorf("SMTP_PORT=%q is not a port number (1-65535)", v)
		}
		s.Port = port
	}
	if s.Host == "" {
		return SMTP{}, nil
	}
	if s.From == "" {
		return SMTP{}, errors.New("SMTP_FROM is required with SMTP_HOST: the address the studio's mails come from")
	}
	for name, v := range map[string]string{"SMTP_FROM": s.From, "SMTP_TO": s.To} {
		if v == "" {
			continue
		}
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
			return SMTP{}, fmt.Errorf("%s=%q is not an e-mail address", name, v)
		}
	}
	return s, nil
}

// publicURL checks PUBLIC_URL: an http(s) address with a host and
// nothing after it, and returns it as scheme://host[:port].
func publicURL(v string) (string, error) {
	problem := func(what string) error {
		return fmt.Errorf("PUBLIC_URL=%q %s: give the site's address alone, such as https://www.example.com", v, what)
	}
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return "", problem("is not a URL")
	case u.Scheme != "https" && u.Scheme != "http":
		return "", problem("does not start with https:// (or http://)")
	case u.Host == "" || u.Hostname() == "":
		return "", problem("has no host name")
	case u.User != nil:
		return "", problem("holds a user name")
	case u.Path != "" && u.Path != "/" || u.RawPath != "":
		return "", problem("has a path (" + u.EscapedPath() + ")")
	case u.RawQuery != "" || u.ForceQuery:
		return "", problem("has a query (?" + u.RawQuery + ")")
	case u.Fragment != "" || strings.Contains(v, "#"):
		return "", problem("has a fragment (#" + u.Fragment + ")")
	}
	return u.Scheme + "://" + u.Host, nil
}

// MailedLinksBase is the address the links in mails start with (a
// password reset's, an invitation's, the newsletter's, the inbox's):
// PUBLIC_URL, or https:// and the first of DOMAIN; "" when neither is set,
// and the mails then use the address an owner last signed in to the
// workspace at. Never content's baseUrl, which staff can change.
func (c Config) MailedLinksBase() string {
	switch {
	case c.PublicURL != "":
		return c.PublicURL
	case len(c.Domains) > 0:
		return "https://" + c.Domains[0]
	}
	return ""
}

// Validate checks what can only be checked on this machine: that DATA_DIR
// exists or can be made, and that the server can write in it.
func (c Config) Validate() error {
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return fmt.Errorf("DATA_DIR=%q cannot be created: %w", c.DataDir, unwrapPath(err))
	}
	probe, err := os.CreateTemp(c.DataDir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("DATA_DIR=%q is not writable: %w", c.DataDir, unwrapPath(err))
	}
	name := probe.Name()
	probe.Close()
	os.Remove(name)
	return nil
}

// checkAddr accepts host:port with a numeric port; the host may be empty
// (every interface).
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q is not a number 0-65535", port)
	}
	return nil
}

// AbsDataDir is DATA_DIR as an absolute path, for logs.
func (c Config) AbsDataDir() string {
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c.DataDir
	}
	return abs
}

// unwrapPath drops the *PathError wrapper, whose text repeats the path.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
