package config

import (
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string
	}{
		{"defaults", nil, Config{Port: 8080, DataDir: "data"}, ""},
		{"set", map[string]string{"PORT": "9000", "DATA_DIR": "/tmp/x"}, Config{Port: 9000, DataDir: "/tmp/x"}, ""},
		{"port not a number", map[string]string{"PORT": "http"}, Config{}, `PORT="http" is not a port number`},
		{"port zero", map[string]string{"PORT": "0"}, Config{}, `PORT="0" is not a port number`},
		{"port too big", map[string]string{"PORT": "70000"}, Config{}, `PORT="70000" is not a port number`},
		{"database, studio, proxies", map[string]string{"DATABASE_URL": "postgres://db/studio", "STUDIO_PASSWORD": "correct horse battery", "TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"},
			Config{Port: 8080, DataDir: "data", DatabaseURL: "postgres://db/studio", StudioPassword: "correct horse battery",
				TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}}, ""},
		{"short studio password", map[string]string{"STUDIO_PASSWORD": "secret"}, Config{}, "STUDIO_PASSWORD is too short"},
		{"bad proxy", map[string]string{"TRUSTED_PROXIES": "proxy.local"}, Config{}, `"proxy.local" is neither`},
		{"smtp", map[string]string{"SMTP_HOST": "mail.example.com", "SMTP_PORT": "2525", "SMTP_FROM": "site@example.com", "SMTP_USERNAME": "u", "SMTP_PASSWORD": "p"},
			Config{Port: 8080, DataDir: "data", SMTP: SMTP{Host: "mail.example.com", Port: 2525, From: "site@example.com", Username: "u", Password: "p"}}, ""},
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
