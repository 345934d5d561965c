package config

import (
	"os"
	"path/filepath"
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
			if got != tt.want {
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
