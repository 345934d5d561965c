// Package config reads the server's settings from the environment, once,
// at start-up, and checks them before anything is served.
package config

import (
	"errors"
	"fmt"
	"net/mail"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is every setting of bin/studio.
type Config struct {
	Port    int    // PORT, default 8080
	DataDir string // DATA_DIR, default ./data: where the SQLite database lives

	DatabaseURL    string // DATABASE_URL: PostgreSQL instead of SQLite when set
	StudioPassword string // STUDIO_PASSWORD: the inbox at /studio is off when empty
	SMTP           SMTP
	// TRUSTED_PROXIES: addresses or CIDR ranges of the reverse proxies whose
	// X-Forwarded-For names the client. Empty: the connection's address is
	// the client's.
	TrustedProxies []netip.Prefix
}

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

// FromEnv reads the settings through getenv (os.Getenv in production) and
// fills in defaults.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{Port: 8080, DataDir: "data"}
	if v := getenv("PORT"); v != "" {
		port, err := strconv.Atoi(v)
		if err != nil || port < 1 || port > 65535 {
			return Config{}, fmt.Errorf("PORT=%q is not a port number (1-65535)", v)
		}
		c.Port = port
	}
	if v := getenv("DATA_DIR"); v != "" {
		c.DataDir = v
	}
	c.DatabaseURL = getenv("DATABASE_URL")
	c.StudioPassword = getenv("STUDIO_PASSWORD")
	if c.StudioPassword != "" && len(c.StudioPassword) < 12 {
		return Config{}, errors.New("STUDIO_PASSWORD is too short: use at least 12 characters")
	}
	for _, field := range strings.FieldsFunc(getenv("TRUSTED_PROXIES"), func(r rune) bool { return r == ',' || r == ' ' }) {
		prefix, err := netip.ParsePrefix(field)
		if err != nil {
			addr, aerr := netip.ParseAddr(field)
			if aerr != nil {
				return Config{}, fmt.Errorf("TRUSTED_PROXIES: %q is neither an IP address nor a CIDR range", field)
			}
			prefix = netip.PrefixFrom(addr, addr.BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}
	smtp, err := smtpFromEnv(getenv)
	if err != nil {
		return Config{}, err
	}
	c.SMTP = smtp
	return c, nil
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

// Addr is the address the server listens on.
func (c Config) Addr() string {
	return ":" + strconv.Itoa(c.Port)
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
