package config

import (
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// base is the default configuration with changes.
func base(change func(*Config)) Config {
	c := Config{Port: 8080, ListenAddr: ":8080", DataDir: "data", HTTPAddr: ":80", HTTPSAddr: ":443", ACMEDirectory: LetsEncrypt, InsightsKeepDays: 90,
		InsightsMaxEventsPerDay: 200_000, InsightsMaxEventsPerAddress: 2_000, DatabaseTimeout: 3 * time.Second,
		Publishing: Publishing{Keep: 10, TimeOut: 30 * time.Minute, RendererMemory: 768 << 20, RenderTimeOut: 10 * time.Second}}
	if change != nil {
		change(&c)
	}
	return c
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{"defaults", nil, base(nil), ""},
		{"publishing", map[string]string{"PUBLISH": "manual", "RELEASES_KEEP": "4", "BUILD_TIMEOUT": "90s", "BUILDER_DIR": "/opt/studio"},
			base(func(c *Config) {
				c.Publishing = Publishing{BuilderDir: "/opt/studio", Manual: true, Keep: 4, TimeOut: 90 * time.Second, RendererMemory: 768 << 20, RenderTimeOut: 10 * time.Second}
			}), ""},
		{"publish neither auto nor manual", map[string]string{"PUBLISH": "yes"}, Config{}, `PUBLISH="yes": want auto`},
		{"one release kept", map[string]string{"RELEASES_KEEP": "1"}, Config{}, `RELEASES_KEEP="1" is not a number of releases between 2 and 1000`},
		{"build timeout without a unit", map[string]string{"BUILD_TIMEOUT": "600"}, Config{}, `BUILD_TIMEOUT="600" is not a duration`},
		{"renderer limits", map[string]string{"RENDERER_MEMORY": "1024", "RENDER_TIMEOUT": "30s"},
			base(func(c *Config) { c.Publishing.RendererMemory, c.Publishing.RenderTimeOut = 1<<30, 30*time.Second }), ""},
		{"renderer memory with a unit", map[string]string{"RENDERER_MEMORY": "1GiB"}, Config{}, `RENDERER_MEMORY="1GiB" is not a number of MiB between 128 and 65536`},
		{"render timeout without a unit", map[string]string{"RENDER_TIMEOUT": "10"}, Config{}, `RENDER_TIMEOUT="10" is not a duration between 1s and 10m`},
		{"database timeout", map[string]string{"DATABASE_TIMEOUT": "1500ms"}, base(func(c *Config) { c.DatabaseTimeout = 1500 * time.Millisecond }), ""},
		{"database timeout without a unit", map[string]string{"DATABASE_TIMEOUT": "3"}, Config{}, `DATABASE_TIMEOUT="3" is not a duration`},
		{"database timeout too long", map[string]string{"DATABASE_TIMEOUT": "5m"}, Config{}, `DATABASE_TIMEOUT="5m" is not a duration between 100ms and 1m`},
		{"set", map[string]string{"PORT": "9000", "DATA_DIR": "/tmp/x"}, base(func(c *Config) { c.Port, c.ListenAddr, c.DataDir = 9000, ":9000", "/tmp/x" }), ""},
		{"listen on loopback", map[string]string{"PORT": "9000", "LISTEN_ADDR": "127.0.0.1:8081"}, base(func(c *Config) { c.Port, c.ListenAddr = 9000, "127.0.0.1:8081" }), ""},
		{"listen address without a port", map[string]string{"LISTEN_ADDR": "127.0.0.1"}, Config{}, `LISTEN_ADDR="127.0.0.1" is not an address to listen on`},
		{"listen port not a number", map[string]string{"HTTPS_ADDR": ":https"}, Config{}, `HTTPS_ADDR=":https" is not an address`},
		{"empty data dir", map[string]string{"DATA_DIR": ""}, Config{}, "DATA_DIR is set but empty"},
		{"domains", map[string]string{"DOMAIN": "www.example.com, example.com", "ACME_EMAIL": "studio@example.com", "HTTP_ADDR": ":8080", "HTTPS_ADDR": ":8443"},
			base(func(c *Config) {
				c.Domains, c.ACMEEmail, c.HTTPAddr, c.HTTPSAddr = []string{"www.example.com", "example.com"}, "studio@example.com", ":8080", ":8443"
			}), ""},
		{"public URL", map[string]string{"PUBLIC_URL": "https://trial.example.com:8443/"}, base(func(c *Config) { c.PublicURL = "https://trial.example.com:8443" }), ""},
		{"public URL over plain HTTP", map[string]string{"PUBLIC_URL": "http://192.0.2.7:8080"}, base(func(c *Config) { c.PublicURL = "http://192.0.2.7:8080" }), ""},
		{"public URL without a scheme", map[string]string{"PUBLIC_URL": "www.example.com"}, Config{}, `PUBLIC_URL="www.example.com" does not start with https:// (or http://)`},
		{"public URL of another scheme", map[string]string{"PUBLIC_URL": "ftp://www.example.com"}, Config{}, `PUBLIC_URL="ftp://www.example.com" does not start with https://`},
		{"public URL with a path", map[string]string{"PUBLIC_URL": "https://www.example.com/studio"}, Config{}, `PUBLIC_URL="https://www.example.com/studio" has a path (/studio): give the site's address alone, such as https://www.example.com`},
		{"public URL with a query", map[string]string{"PUBLIC_URL": "https://www.example.com/?a=1"}, Config{}, `has a query (?a=1)`},
		{"public URL with a fragment", map[string]string{"PUBLIC_URL": "https://www.example.com#top"}, Config{}, `has a fragment (#top)`},
		{"public URL without a host", map[string]string{"PUBLIC_URL": "https:///reset"}, Config{}, `has no host name`},
		{"public URL with a user", map[string]string{"PUBLIC_URL": "https://evil@www.example.com"}, Config{}, `holds a user name`},
		{"public URL not a URL", map[string]string{"PUBLIC_URL": "https://www.example.com:port"}, Config{}, `is not a URL`},
		{"metrics token", map[string]string{"METRICS_TOKEN": "0123456789abcdef"}, base(func(c *Config) { c.MetricsToken = "0123456789abcdef" }), ""},
		{"insights kept 30 days", map[string]string{"INSIGHTS_KEEP_DAYS": "30"}, base(func(c *Config) { c.InsightsKeepDays = 30 }), ""},
		{"analytics caps", map[string]string{"INSIGHTS_MAX_EVENTS_PER_DAY": "50000", "INSIGHTS_MAX_EVENTS_PER_ADDRESS": "500"},
			base(func(c *Config) { c.InsightsMaxEventsPerDay, c.InsightsMaxEventsPerAddress = 50_000, 500 }), ""},
		{"no events a day", map[string]string{"INSIGHTS_MAX_EVENTS_PER_DAY": "0"}, Config{}, `INSIGHTS_MAX_EVENTS_PER_DAY="0" is not a number of events`},
		{"events per address in words", map[string]string{"INSIGHTS_MAX_EVENTS_PER_ADDRESS": "2k"}, Config{}, `INSIGHTS_MAX_EVENTS_PER_ADDRESS="2k" is not a number of events`},
		{"database timeout", map[string]string{"DATABASE_TIMEOUT": "500ms"}, base(func(c *Config) { c.DatabaseTimeout = 500 * time.Millisecond }), ""},
		{"insights kept no days", map[string]string{"INSIGHTS_KEEP_DAYS": "0"}, Config{}, `INSIGHTS_KEEP_DAYS="0" is not a number of days`},
		{"short metrics token", map[string]string{"METRICS_TOKEN": "secret"}, Config{}, "METRICS_TOKEN is too short"},
		{"domain with a scheme", map[string]string{"DOMAIN": "https://www.example.com"}, Config{}, `DOMAIN: "https://www.example.com" is not a host name`},
		{"port not a number", map[string]string{"PORT": "http"}, Config{}, `PORT="http" is not a port number`},
		{"port zero", map[string]string{"PORT": "0"}, Config{}, `PORT="0" is not a port number`},
		{"port too big", map[string]string{"PORT": "70000"}, Config{}, `PORT="70000" is not a port number`},
		{"database, studio, proxies", map[string]string{"DATABASE_URL": "postgres://db/studio", "STUDIO_PASSWORD": "correct horse battery", "TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"},
			base(func(c *Config) {
				c.DatabaseURL, c.StudioPassword = "postgres://db/studio", "correct horse battery"
				c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}
			}), ""},
		{"short studio password", map[string]string{"STUDIO_PASSWORD": "secret"}, Config{}, "STUDIO_PASSWORD is too short"},
		{"bad proxy", map[string]string{"TRUSTED_PROXIES": "proxy.local"}, Config{}, `"proxy.local" is neither`},
		{"smtp", map[string]string{"SMTP_HOST": "mail.example.com", "SMTP_PORT": "2525", "SMTP_FROM": "site@example.com", "SMTP_USERNAME": "u", "SMTP_PASSWORD": "p"},
			base(func(c *Config) {
				c.SMTP = SMTP{Host: "mail.example.com", Port: 2525, From: "site@example.com", Username: "u", Password: "p"}
			}), ""},
		{"smtp without from", map[string]string{"SMTP_HOST": "mail.example.com"}, Config{}, "SMTP_FROM is required"},
		{"smtp bad to", map[string]string{"SMTP_HOST": "m", "SMTP_FROM": "a@b.in", "SMTP_TO": "studio\r\nBcc: x@y.z"}, Config{}, "SMTP_TO"},
		{"smtp bad port", map[string]string{"SMTP_PORT": "smtp"}, Config{}, `SMTP_PORT="smtp"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromEnv(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Mailed links start with PUBLIC_URL, else https:// and the first of
// DOMAIN, else nothing (the mail worker then asks the store).
func TestMailedLinksBase(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PUBLIC_URL": "http://trial.example.com:8080", "DOMAIN": "www.example.com"}, "http://trial.example.com:8080"},
		{map[string]string{"DOMAIN": "www.example.com,example.com"}, "https://www.example.com"},
		{nil, ""},
	} {
		c, err := FromEnv(env(tt.env))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.MailedLinksBase(); got != tt.want {
			t.Errorf("%v: MailedLinksBase() = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestValidateCreatesDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	if err := (Config{Port: 8080, DataDir: dir}).Validate(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("DATA_DIR not created: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("the write check left files behind: %v", entries)
	}
}

func TestValidateRejectsUnwritableDataDir(t *testing.T) {
	// A regular file where the directory should be fails for root too.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		err := (Config{Port: 8080, DataDir: dir}).Validate()
		if err == nil || !strings.Contains(err.Error(), "DATA_DIR=") {
			t.Errorf("Validate(%q) = %v, want a DATA_DIR error", dir, err)
		}
	}
}
