package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/config"
	"studio/internal/store"
)

// Mailed links lead to PUBLIC_URL when it is set, else to https:// and
// the first of DOMAIN, else to the address an owner last signed in at (as
// the store keeps it, so a restart knows it); the log says which at start.
func TestMailedLinksBase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, tt := range []struct {
		name     string
		env      map[string]string
		signedIn string // kept before the server starts
		want     string
		log      string
	}{
		{"neither, before any sign-in", nil, "", "", "until an owner signs in, invitations, password resets and newsletter confirmations wait"},
		{"PUBLIC_URL", map[string]string{"PUBLIC_URL": "http://trial.studio.test:8080/", "DOMAIN": "www.studio.test"}, "https://elsewhere.test",
			"http://trial.studio.test:8080", `"from":"PUBLIC_URL"`},
		{"DOMAIN", map[string]string{"DOMAIN": "www.studio.test,studio.test"}, "https://elsewhere.test", "https://www.studio.test", `"from":"DOMAIN"`},
		{"neither", nil, "http://192.0.2.7:8080", "http://192.0.2.7:8080", `"address":"http://192.0.2.7:8080"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.signedIn != "" {
				if err := st.RecordSignInAddress(ctx, tt.signedIn, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := config.FromEnv(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			base := mailedLinksBase(ctx, slog.New(slog.NewJSONHandler(&log, nil)), cfg, st)
			if got, err := base(ctx); err != nil || got != tt.want {
				t.Errorf("links lead to %q (%v), want %q", got, err, tt.want)
			}
			if !strings.Contains(log.String(), tt.log) {
				t.Errorf("the log says %s, want it to say %s", log.String(), tt.log)
			}
		})
	}
}
