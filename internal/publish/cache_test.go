package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/content"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// The ways a file shared by hard link gets damaged through one of its
// links (a release's copy): written over, cut short, one byte changed.
// Each first makes the file writable, as a person fixing a release by hand
// would (root needs not).
var damages = []struct {
	name   string
	damage func(t *testing.T, file string)
}{
	{"written over", func(t *testing.T, file string) {
		t.Helper()
		writable(t, file)
		if err := os.WriteFile(file, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"truncated", func(t *testing.T, file string) {
		t.Helper()
		writable(t, file)
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(file, info.Size()/2); err != nil {
			t.Fatal(err)
		}
	}},
	{"a byte changed", func(t *testing.T, file string) {
		t.Helper()
		writable(t, file)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(file, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte{b[len(b)/2] ^ 0x20}, int64(len(b)/2)); err != nil {
			t.Fatal(err)
		}
	}},
}

func writable(t *testing.T, file string) {
	t.Helper()
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameFile says whether a and b are links to one file.
func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	ia, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(ia, ib)
}

func readOnly(t *testing.T, file string) {
	t.Helper()
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o444 {
		t.Errorf("%s: mode %v, want read-only (0444)", file, info.Mode().Perm())
	}
}

// logLines is a logger whose lines a test reads.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestADamagedBlobIsWrittenAgainFromGit damages the catalogue of one
// exported release through its hard link, which damages the shared blob
// (and every release holding it): the next export finds the blob's bytes
// no longer hash to its name, says so, writes it again from git, and links
// the intact file; the damaged release keeps its damaged bytes.
func TestADamagedBlobIsWrittenAgainFromGit(t *testing.T) {
	t.Parallel()
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			repo, err := OpenRepository(filepath.Join(dir, "content.git"), content.Files)
			if err != nil {
				t.Fatal(err)
			}
			var log logLines
			repo.Blobs = filepath.Join(dir, "blobs")
			repo.Logger = slog.New(slog.NewTextHandler(&log, nil))
			main, err := repo.Main()
			if err != nil {
				t.Fatal(err)
			}
			want, err := fs.ReadFile(content.Files, "catalogue.json")
			if err != nil {
				t.Fatal(err)
			}
			export := func(name string) string {
				t.Helper()
				if err := repo.Export(main.Hash, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(dir, name, "catalogue.json")
			}
			first, second := export("first"), export("second")
			if !sameFile(t, first, second) {
				t.Fatal("two exports of one commit do not share the catalogue's blob")
			}
			readOnly(t, first)

			d.damage(t, first)
			if got, _ := os.ReadFile(second); bytes.Equal(got, want) {
				t.Fatal("the damage did not reach the other export: the test damages nothing shared")
			}
			third := export("third")
			if got := readFile(t, third); got != string(want) {
				t.Errorf("the export after the damage has a catalogue of %d bytes, want git's %d", len(got), len(want))
			}
			if sameFile(t, third, first) {
				t.Error("the export after the damage links the damaged file")
			}
			if got := readFile(t, first); got == string(want) {
				t.Error("the damaged export was mended in place: its file is still the cache's")
			}
			readOnly(t, third)
			if !strings.Contains(log.String(), "damaged") || !strings.Contains(log.String(), "catalogue.json") {
				t.Errorf("the log does not name the damaged blob:\n%s", log.String())
			}
			// Intact now, it is linked again without a word.
			before := log.String()
			if fourth := export("fourth"); !sameFile(t, fourth, third) {
				t.Error("an intact blob is not shared by the next export")
			}
			if log.String() != before {
				t.Errorf("an intact blob was logged: %s", strings.TrimPrefix(log.String(), before))
			}
		})
	}
}

// TestADamagedBundleIsBundledAgain keeps a bundle as the build does, then
// damages one of its files: the next build's reuse finds its SHA-256 is
// not the one kept, says so in the build's log, deletes the bundle and
// bundles again; an intact bundle is copied whole, and a bundle kept with
// no list of hashes is not used.
func TestADamagedBundleIsBundledAgain(t *testing.T) {
	t.Parallel()
	files := map[string]string{"client/assets/entry-abc.js": "console.log('the entry');\n", "client/favicon.svg": "<svg/>", "server/index.js": "export const build = 1;\n"}
	bundle := func(t *testing.T) (build, kept string) {
		t.Helper()
		dir := t.TempDir()
		build = filepath.Join(dir, "build")
		for name, body := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(build, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(build, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		kept = filepath.Join(dir, "cache", "bundle", "0123abcd")
		if err := keepBundle(build, kept); err != nil {
			t.Fatal(err)
		}
		return build, kept
	}
	reuse := func(t *testing.T, kept string) (string, bool, string) {
		t.Helper()
		var log bytes.Buffer
		into := filepath.Join(t.TempDir(), "build")
		bundled, err := reuseBundle(kept, into, &log)
		if err != nil {
			t.Fatal(err)
		}
		return into, bundled, log.String()
	}

	t.Run("intact", func(t *testing.T) {
		build, kept := bundle(t)
		for name := range files {
			readOnly(t, filepath.Join(kept, name))
		}
		into, bundled, log := reuse(t, kept)
		if !bundled || log != "" {
			t.Fatalf("an intact bundle: reused %v, log %q; want reused, nothing said", bundled, log)
		}
		sameFiles(t, build, into)
	})
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			_, kept := bundle(t)
			d.damage(t, filepath.Join(kept, "client", "assets", "entry-abc.js"))
			into, bundled, log := reuse(t, kept)
			if bundled {
				t.Fatal("a damaged bundle was reused")
			}
			if !strings.Contains(log, kept) || !strings.Contains(log, "client/assets/entry-abc.js") {
				t.Errorf("the build's log does not name the damaged bundle and file: %q", log)
			}
			if _, err := os.Stat(kept); !os.IsNotExist(err) {
				t.Errorf("the damaged bundle is still kept (%v)", err)
			}
			if _, err := os.Stat(filepath.Join(into, "client", "assets", "entry-abc.js")); !os.IsNotExist(err) {
				t.Errorf("the damaged bundle's file reached the build (%v)", err)
			}
		})
	}
	t.Run("no list of hashes", func(t *testing.T) {
		_, kept := bundle(t)
		if err := os.Remove(filepath.Join(kept, bundleSums)); err != nil {
			t.Fatal(err)
		}
		if _, bundled, log := reuse(t, kept); bundled || !strings.Contains(log, bundleSums) {
			t.Errorf("a bundle with no %s: reused %v, log %q; want bundled again, the list named", bundleSums, bundled, log)
		}
	})
}

// TestADamagedSharedBlobIsFetchedAgain uploads a release from the copy
// that builds and fetches it on another, then damages a file through
// each copy's release, which damages its blob: the next release with that
// file brings the intact bytes on both, and the damaged one stays with
// the release it was damaged in.
func TestADamagedSharedBlobIsFetchedAgain(t *testing.T) {
	t.Parallel()
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			url := storetest.PostgresURL(t)
			st, err := store.OpenPostgres(context.Background(), url) // the migrations make the tables
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			var log logLines
			open := func() (*Shared, *Releases) {
				t.Helper()
				releases, err := OpenReleases(filepath.Join(t.TempDir(), "releases"))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				shared, err := OpenShared(ctx, url, releases, slog.New(slog.NewTextHandler(&log, nil)))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { shared.Close() })
				return shared, releases
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
				if err := builds.Put(Release{ID: id, Status: Ready, QueuedAt: time.Now()}); err != nil {
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
			for _, rs := range []*Releases{built, fetched} {
				if !sameFile(t, filepath.Join(rs.Dir("one"), photo), filepath.Join(rs.dir, ".blobs", blobName)) {
					t.Fatalf("%s: the release's photograph is not its blob", rs.dir)
				}
				readOnly(t, filepath.Join(rs.dir, ".blobs", blobName))
				d.damage(t, filepath.Join(rs.Dir("one"), photo))
			}

			release("two", "The second")
			for _, rs := range []*Releases{built, fetched} {
				blob := filepath.Join(rs.dir, ".blobs", blobName)
				if got := readFile(t, blob); got != photoBody {
					t.Errorf("%s: the blob after the damage holds %q, want the photograph", rs.dir, got)
				}
				readOnly(t, blob)
				if got := readFile(t, filepath.Join(fetched.Dir("two"), photo)); got != photoBody {
					t.Errorf("the fetched second release's photograph is %q, want the intact one", got)
				}
				if got := readFile(t, filepath.Join(rs.Dir("one"), photo)); got == photoBody {
					t.Errorf("%s: the first release's damaged photograph was mended in place: it is still the blob", rs.dir)
				}
			}
			if n := strings.Count(log.String(), "damaged"); n != 2 || !strings.Contains(log.String(), blobName) {
				t.Errorf("want one line from each copy naming the damaged blob %s, got:\n%s", blobName, log.String())
			}
		})
	}
}

// BenchmarkExportChecksBlobs exports a commit whose 64 MiB of photographs
// are in the blobs already: each is read and hashed (its git hash), then
// linked. MB/s is the check's speed, the figure for a large catalogue's
// originals (docs/publishing.md).
func BenchmarkExportChecksBlobs(b *testing.B) {
	dir := b.TempDir()
	repo, err := OpenRepository(filepath.Join(dir, "content.git"), content.Files)
	if err != nil {
		b.Fatal(err)
	}
	repo.Blobs = filepath.Join(dir, "blobs")
	const photos, size = 16, 4 << 20
	files := map[string][]byte{}
	for i := range photos {
		photo := make([]byte, size)
		for j := range photo {
			photo[j] = byte(j*31 + i*7 + j>>9)
		}
		files[fmt.Sprintf("images/photos/%d.jpg", i)] = photo
	}
	hash, err := repo.Commit("", files, nil, Signature{Name: "Bench", Email: "bench@example.com"}, "Photographs")
	if err != nil {
		b.Fatal(err)
	}
	if err := repo.Export(hash, filepath.Join(dir, "first")); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(photos * size)
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(dir, fmt.Sprint(i))
		if err := repo.Export(hash, out); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(out)
		b.StartTimer()
	}
}
