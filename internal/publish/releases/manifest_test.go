package releases

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"studio/internal/publish/publishtest"
)

// A release's manifest takes the hash of a file it shares by hard link with
// the release before from that one's manifest, unread; a file written into
// since, through any link and in any of publishtest's ways, is hashed again.
func TestAManifestRemembersSharedFilesUntilOneIsWritten(t *testing.T) {
	t.Parallel()
	for _, d := range publishtest.Damages {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			rs, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			shared := filepath.Join(t.TempDir(), "page.html")
			writeOld(t, shared, "<p>a page shared by two releases</p>")
			release := func(id string) Release {
				r := Release{ID: id}
				os.MkdirAll(filepath.Join(rs.Dir(id), "client"), 0o755)
				os.MkdirAll(filepath.Join(rs.Dir(id), "content"), 0o755)
				if err := os.Link(shared, filepath.Join(rs.Dir(id), "client", "index.html")); err != nil {
					t.Fatal(err)
				}
				if r.Manifest, err = rs.WriteManifest(id); err != nil {
					t.Fatal(err)
				}
				return r
			}
			first := release("20261129-100000-aaaaaaa")
			if len(rs.hashed.hashes) != 1 {
				t.Fatalf("the manifest remembers %d files, want the shared one", len(rs.hashed.hashes))
			}
			// The stamp alone is looked at: a hash put in its place is what a
			// second release of the same file gets.
			for stamp := range rs.hashed.hashes {
				rs.hashed.hashes[stamp] = strings.Repeat("0", 64)
			}
			second := release("20261129-100001-bbbbbbb")
			if second.Manifest == first.Manifest {
				t.Fatal("the second manifest read the shared file, want its remembered hash")
			}
			d.Damage(t, filepath.Join(rs.Dir(first.ID), "client", "index.html"))
			third := release("20261129-100002-ccccccc")
			if err := rs.VerifyAll(third); err != nil {
				t.Fatalf("the manifest after a write into the shared file kept its old hash: %v", err)
			}
		})
	}
}

// The switch's check of a release just built takes the files the manifest
// hashed by their stamp, and still finds each damage done to one since.
func TestTheSwitchsCheckFindsADamageAfterTheManifest(t *testing.T) {
	t.Parallel()
	for _, d := range publishtest.Damages {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			rs, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			r := Release{ID: "20261129-100000-aaaaaaa"}
			page := filepath.Join(rs.Dir(r.ID), "client", "index.html")
			os.MkdirAll(filepath.Dir(page), 0o755)
			os.MkdirAll(filepath.Join(rs.Dir(r.ID), "content"), 0o755)
			writeOld(t, page, "<p>a page rendered by an earlier build</p>")
			if r.Manifest, err = rs.WriteManifest(r.ID); err != nil {
				t.Fatal(err)
			}
			if len(rs.hashed.hashes) != 1 {
				t.Fatalf("the manifest remembers %d files, want the page", len(rs.hashed.hashes))
			}
			if err := rs.Verify(r); err != nil {
				t.Fatalf("the release as built: %v", err)
			}
			d.Damage(t, page)
			var damage *DamageError
			if err := rs.Verify(r); !errors.As(err, &damage) || !slices.Contains(damage.Files, "client/index.html (changed)") {
				t.Errorf("Verify after the page was damaged: %v, want client/index.html (changed)", err)
			}
		})
	}
}

// writeOld writes a read-only file last written a minute ago: older than
// a second when it is hashed, as a page the page cache kept is.
func writeOld(t *testing.T, file, body string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(body), 0o444); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
}
