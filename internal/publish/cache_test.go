package publish

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/publish/publishtest"
	"studio/internal/publish/releases"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestADamagedSharedBlobIsFetchedAgain uploads a release from the copy
// that builds and fetches it on another, then damages a file through
// each copy's release, which damages its blob: the next release with that
// file brings the intact bytes on both, and the damaged one stays with
// the release it was damaged in.
func TestADamagedSharedBlobIsFetchedAgain(t *testing.T) {
	t.Parallel()
	for _, d := range publishtest.Damages {
		t.Run(d.Name, func(t *testing.T) {
			url := storetest.PostgresURL(t)
			st, err := store.OpenPostgres(context.Background(), url) // the migrations make the tables
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			var log publishtest.LogLines
			open := func() (*Shared, *releases.Releases) {
				t.Helper()
				rs, err := releases.Open(filepath.Join(t.TempDir(), "releases"))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				shared, err := openShared(t, ctx, url, rs, slog.New(slog.NewTextHandler(&log, nil)))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { shared.Close() })
				return shared, rs
			}
			builds, built := open()
			fetches, fetched := open()
			const photo, photoBody = "client/images/chair.960w.avif", "the bytes of a photograph, encoded"
			release := func(id, tagline string) {
				t.Helper()
				for name, body := range map[string]string{photo: photoBody, "client/index.html": "<h1>" + tagline + "</h1>", "content/site.json": `{"tagline":"` + tagline + `"}`} {
					file := filepath.Join(built.Dir(id), filepath.FromSlash(name))
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := builds.Put(releases.Release{ID: id, Status: releases.Ready, QueuedAt: time.Now()}); err != nil {
					t.Fatal(err)
				}
				if err := builds.Upload(context.Background(), id); err != nil {
					t.Fatal(err)
				}
				if err := fetches.Fetch(context.Background(), id); err != nil {
					t.Fatal(err)
				}
			}
			sum := sha256.Sum256([]byte(photoBody))
			blobName := hex.EncodeToString(sum[:])

			release("one", "The first")
			for _, rs := range []*releases.Releases{built, fetched} {
				if !publishtest.SameFile(t, filepath.Join(rs.Dir("one"), photo), filepath.Join(rs.Root(), ".blobs", blobName)) {
					t.Fatalf("%s: the release's photograph is not its blob", rs.Root())
				}
				publishtest.ReadOnly(t, filepath.Join(rs.Root(), ".blobs", blobName))
				d.Damage(t, filepath.Join(rs.Dir("one"), photo))
			}

			release("two", "The second")
			for _, rs := range []*releases.Releases{built, fetched} {
				blob := filepath.Join(rs.Root(), ".blobs", blobName)
				if got := publishtest.ReadFile(t, blob); got != photoBody {
					t.Errorf("%s: the blob after the damage holds %q, want the photograph", rs.Root(), got)
				}
				publishtest.ReadOnly(t, blob)
				if got := publishtest.ReadFile(t, filepath.Join(fetched.Dir("two"), photo)); got != photoBody {
					t.Errorf("the fetched second release's photograph is %q, want the intact one", got)
				}
				if got := publishtest.ReadFile(t, filepath.Join(rs.Dir("one"), photo)); got == photoBody {
					t.Errorf("%s: the first release's damaged photograph was mended in place: it is still the blob", rs.Root())
				}
			}
			if n := strings.Count(log.String(), "damaged"); n != 2 || !strings.Contains(log.String(), blobName) {
				t.Errorf("want one line from each copy naming the damaged blob %s, got:\n%s", blobName, log.String())
			}
		})
	}
}
