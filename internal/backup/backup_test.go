package backup

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"studio/internal/datadir"
	"studio/internal/enquiry"
	"studio/internal/publish/repo"
	"studio/internal/store"
)

// seed is the content a test repository starts from.
var seed = fstest.MapFS{"site.json": {Data: []byte(`{"name":"Studio"}`)}}

var who = repo.Signature{Name: "Meena", Email: "meena@example.com"}

// A site is a DATA_DIR as a server leaves it: a SQLite database with
// enquiries, and a content repository with main (a photograph on it), a
// draft and a branch kept aside.
type site struct {
	dir         string
	repo        *repo.Repository
	enquiries   int
	photo       []byte
	photoCommit string
}

// newSite makes a site whose photograph has photoSize bytes.
func newSite(t *testing.T, photoSize int) *site {
	t.Helper()
	ctx := context.Background()
	s := &site{dir: t.TempDir(), enquiries: 5}
	st, err := store.Open(ctx, "", s.dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.enquiries {
		e := enquiry.Enquiry{Kind: enquiry.Contact, Name: fmt.Sprintf("Asha %d", i), Email: "asha@example.com", Message: "Hello", CreatedAt: time.Now()}
		if _, err := st.CreateEnquiry(ctx, e, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if s.repo, err = repo.Open(datadir.Dir(s.dir).Repository(), seed); err != nil {
		t.Fatal(err)
	}
	s.photo = make([]byte, photoSize)
	rand.Read(s.photo)
	main, err := s.repo.Main()
	if err != nil {
		t.Fatal(err)
	}
	if s.photoCommit, err = s.repo.Commit(main.Hash, map[string][]byte{"images/chair.jpg": s.photo}, nil, who, "A photograph"); err != nil {
		t.Fatal(err)
	}
	draft, _, err := s.repo.Draft()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.repo.SaveDraft(draft.Hash, map[string][]byte{"pages/about.md": []byte("Unpublished words")}, nil, who, "About"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.repo.KeepAside(main.Hash); err != nil {
		t.Fatal(err)
	}
	return s
}

// branches is every branch of the content repository in dataDir.
func branches(t *testing.T, dataDir string) map[string]string {
	t.Helper()
	return branchesOf(t, datadir.Dir(dataDir).Repository())
}

// branchesOf is every branch of the repository in dir.
func branchesOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	contentRepo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := contentRepo.References()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference && strings.HasPrefix(r.Name().String(), "refs/") {
			got[r.Name().String()] = r.Hash().String()
		}
		return nil
	})
	return got
}

// commits is every commit of the content repository in dataDir.
func commits(t *testing.T, dataDir string) map[string]bool {
	t.Helper()
	contentRepo, err := git.PlainOpen(datadir.Dir(dataDir).Repository())
	if err != nil {
		t.Fatal(err)
	}
	log, err := contentRepo.Log(&git.LogOptions{All: true})
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	log.ForEach(func(c *object.Commit) error { all[c.Hash.String()] = true; return nil })
	return all
}

func countEnquiries(t *testing.T, dataDir string) int {
	t.Helper()
	st, err := store.Open(context.Background(), "", dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Enquiries(context.Background(), store.EnquiryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(all)
}

// A backup taken while the content is being committed to (main and the
// draft, as the workspace does) holds every commit made before it began;
// restored into an empty DATA_DIR it gives back its branches, the
// photograph's bytes and the enquiries. Once the commits stop, a backup
// restored gives back exactly the branches and commits of the original.
func TestBackupWhileCommittingRestores(t *testing.T) {
	ctx := context.Background()
	// A photograph larger than what a backup reads into memory whole.
	s := newSite(t, 1<<20+1024)
	var (
		mu    sync.Mutex
		made  []string
		stop  atomic.Bool
		done  = make(chan error, 1)
		going = make(chan struct{}) // closed at the 20th commit
	)
	go func() {
		for i := 0; !stop.Load(); i++ {
			var hash string
			var err error
			if i%2 == 0 {
				var main repo.Commit
				if main, err = s.repo.Main(); err == nil {
					hash, err = s.repo.Commit(main.Hash, map[string][]byte{"pages/home.md": fmt.Appendf(nil, "Home, version %d", i)}, nil, who, "Home")
				}
			} else {
				var draft repo.Commit
				if draft, _, err = s.repo.Draft(); err == nil {
					hash, err = s.repo.SaveDraft(draft.Hash, map[string][]byte{"pages/about.md": fmt.Appendf(nil, "About, version %d", i)}, nil, who, "About")
				}
			}
			if err != nil {
				done <- err
				return
			}
			mu.Lock()
			made = append(made, hash)
			if len(made) == 20 {
				close(going)
			}
			mu.Unlock()
		}
		done <- nil
	}()
	select {
	case <-going:
	case err := <-done:
		t.Fatalf("the commits stopped before the backup: %v", err)
	}
	mu.Lock()
	before := append([]string(nil), made...)
	mu.Unlock()
	path := filepath.Join(t.TempDir(), "backup")
	m, err := Write(ctx, s.dir, path, SQLite)
	stop.Store(true)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Enquiries != s.enquiries {
		t.Errorf("the manifest says %d enquiries, want %d", m.Enquiries, s.enquiries)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("beside the backup: %v, want the backup alone (no partial directory left)", entries)
	}

	fresh := filepath.Join(t.TempDir(), "new") // a new machine's DATA_DIR, not made yet
	r, err := Restore(ctx, fresh, path, SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Replaced) != 0 {
		t.Errorf("a restore into an empty DATA_DIR replaced %v", r.Replaced)
	}
	if got := branches(t, fresh); !maps.Equal(got, m.Refs) {
		t.Errorf("restored branches %v, the backup's %v", got, m.Refs)
	}
	for _, want := range []string{"refs/heads/main", "refs/heads/draft"} {
		if m.Refs[want] == "" {
			t.Errorf("the backup has no %s: %v", want, m.Refs)
		}
	}
	restored := commits(t, fresh)
	for _, hash := range before {
		if !restored[hash] {
			t.Errorf("commit %s, made before the backup began, is not in the restored repository", hash)
		}
	}
	if len(restored) != m.Commits {
		t.Errorf("the restored repository has %d commits, the manifest says %d", len(restored), m.Commits)
	}
	contentRepo, err := repo.Open(datadir.Dir(fresh).Repository(), seed)
	if err != nil {
		t.Fatal(err)
	}
	if photo, err := contentRepo.ReadFile(s.photoCommit, "images/chair.jpg"); err != nil || string(photo) != string(s.photo) {
		t.Errorf("the restored photograph: %d bytes, %v; want the %d bytes committed", len(photo), err, len(s.photo))
	}
	if n := countEnquiries(t, fresh); n != s.enquiries {
		t.Errorf("the restored database has %d enquiries, want %d", n, s.enquiries)
	}

	// With the commits stopped: exactly the same branches and commits.
	quiet := filepath.Join(t.TempDir(), "quiet")
	if _, err := Write(ctx, s.dir, quiet, SQLite); err != nil {
		t.Fatal(err)
	}
	again := t.TempDir()
	if _, err := Restore(ctx, again, quiet, SQLite); err != nil {
		t.Fatal(err)
	}
	if got, want := branches(t, again), branches(t, s.dir); !maps.Equal(got, want) {
		t.Errorf("restored branches %v, the original's %v", got, want)
	}
	if got, want := commits(t, again), commits(t, s.dir); !maps.Equal(got, want) {
		t.Errorf("restored %d commits, the original has %d", len(got), len(want))
	}
}

// snapshot is every file under dir by its path and SHA-256, and every
// directory, but the lock a restore takes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case rel == "studio.lock":
		case d.IsDir():
			files[rel] = "directory"
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			files[rel] = hex.EncodeToString(sum[:])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// changes lists the paths added, removed or changed from before to after.
func changes(before, after map[string]string) []string {
	var list []string
	for path, sum := range after {
		if before[path] != sum {
			list = append(list, path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			list = append(list, path+" (gone)")
		}
	}
	slices.Sort(list)
	return list
}

// copyDir copies the files of the directory from into the new directory to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// editManifest changes the manifest of the backup in dir; rehash names
// files whose size and hash it takes again from the file.
func editManifest(t *testing.T, dir string, edit func(*Manifest), rehash ...string) {
	t.Helper()
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&m)
	}
	for _, name := range rehash {
		if m.Files[name], err = hashFile(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func flipByte(t *testing.T, path string, at func(size int64) int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	off := at(info.Size())
	b := make([]byte, 1)
	f.ReadAt(b, off)
	b[0] ^= 0x55
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// A damaged backup is refused with a message naming the file at fault, and
// the DATA_DIR it was to be restored into is left exactly as it was.
func TestRestoreRefusesADamagedBackup(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, 64<<10)
	good := filepath.Join(t.TempDir(), "backup")
	if _, err := Write(ctx, s.dir, good, SQLite); err != nil {
		t.Fatal(err)
	}
	middle := func(size int64) int64 { return size / 2 }
	cases := []struct {
		name   string
		damage func(dir string)
		want   string // in the error, after the backup's path
	}{
		{"a flipped byte in the database", func(dir string) {
			flipByte(t, filepath.Join(dir, DatabaseFile), middle)
		}, "studio.db is damaged: its SHA-256"},
		{"a flipped byte in the content", func(dir string) {
			flipByte(t, filepath.Join(dir, ContentFile), middle)
		}, "content.bundle is damaged: its SHA-256"},
		{"the database missing", func(dir string) {
			os.Remove(filepath.Join(dir, DatabaseFile))
		}, "studio.db is missing"},
		{"the content missing", func(dir string) {
			os.Remove(filepath.Join(dir, ContentFile))
		}, "content.bundle is missing"},
		{"the manifest missing", func(dir string) {
			os.Remove(filepath.Join(dir, ManifestFile))
		}, "has no backup.json"},
		{"a manifest cut short", func(dir string) {
			os.Truncate(filepath.Join(dir, ManifestFile), 40)
		}, "backup.json is damaged"},
		{"a manifest that gives another size", func(dir string) {
			editManifest(t, dir, func(m *Manifest) { f := m.Files[ContentFile]; f.Size++; m.Files[ContentFile] = f })
		}, "content.bundle is damaged: it has"},
		{"a manifest that lies about the branches", func(dir string) {
			editManifest(t, dir, func(m *Manifest) { m.Refs["refs/heads/main"] = m.Refs["refs/heads/draft"] })
		}, "content.bundle holds the branches"},
		{"a manifest that lies about the enquiries", func(dir string) {
			editManifest(t, dir, func(m *Manifest) { m.Enquiries++ })
		}, "studio.db holds 5 enquiries, and backup.json says 6"},
		{"a manifest that leaves out the database", func(dir string) {
			editManifest(t, dir, func(m *Manifest) { delete(m.Files, DatabaseFile) })
		}, "backup.json is damaged: it lists the files content.bundle"},
		{"a database that is not one, and a manifest that agrees", func(dir string) {
			os.WriteFile(filepath.Join(dir, DatabaseFile), []byte(strings.Repeat("not a database at all ", 40)), 0o600)
			editManifest(t, dir, nil, DatabaseFile)
		}, "studio.db is not a SQLite database"},
		{"content that is not a bundle, and a manifest that agrees", func(dir string) {
			os.WriteFile(filepath.Join(dir, ContentFile), []byte("PACK and nothing else"), 0o600)
			editManifest(t, dir, nil, ContentFile)
		}, "content.bundle is not a backup of the content"},
		{"a damaged object in the content, and a manifest that agrees", func(dir string) {
			flipByte(t, filepath.Join(dir, ContentFile), func(size int64) int64 { return size - 4096 })
			editManifest(t, dir, nil, ContentFile)
		}, "content.bundle is damaged"},
		{"a database of a newer server, and a manifest that agrees", func(dir string) {
			db, err := sql.Open("sqlite", filepath.Join(dir, DatabaseFile))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`INSERT INTO schema_migrations (version, applied_at) VALUES (9999, ?)`, time.Now()); err != nil {
				t.Fatal(err)
			}
			db.Close()
			editManifest(t, dir, nil, DatabaseFile)
		}, "studio.db comes from a newer version of the server (migration 9999)"},
		{"a backup of a newer server", func(dir string) {
			editManifest(t, dir, func(m *Manifest) { m.Format = Format + 1 })
		}, "comes from a newer version of the server"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			backup := filepath.Join(t.TempDir(), "backup")
			copyDir(t, good, backup)
			c.damage(backup)
			target := newSite(t, 64<<10).dir
			before := snapshot(t, target)
			_, err := Restore(ctx, target, backup, SQLite)
			if err == nil || !strings.Contains(err.Error(), backup) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("restore: %v, want an error naming %s and saying %q", err, backup, c.want)
			}
			if changed := changes(before, snapshot(t, target)); len(changed) > 0 {
				t.Errorf("a refused restore changed DATA_DIR: %v", changed)
			}
		})
	}

	// The same refusals leave nothing behind in the DATA_DIR of a new
	// machine either, and the good backup restores there.
	t.Run("a server running", func(t *testing.T) {
		target := newSite(t, 64<<10).dir
		lock, err := store.LockDataDir(target)
		if err != nil {
			t.Fatal(err)
		}
		defer lock.Close()
		before := snapshot(t, target)
		if _, err := Restore(ctx, target, good, SQLite); !errors.Is(err, store.ErrInUse) {
			t.Errorf("restore while a server runs: %v, want ErrInUse", err)
		}
		if changed := changes(before, snapshot(t, target)); len(changed) > 0 {
			t.Errorf("a refused restore changed DATA_DIR: %v", changed)
		}
	})
	t.Run("a SQLite backup with DATABASE_URL set", func(t *testing.T) {
		target := newSite(t, 64<<10).dir
		before := snapshot(t, target)
		if _, err := Restore(ctx, target, good, PostgreSQL); err == nil || !strings.Contains(err.Error(), "DATABASE_URL is set") {
			t.Errorf("restore: %v, want a refusal naming DATABASE_URL", err)
		}
		if changed := changes(before, snapshot(t, target)); len(changed) > 0 {
			t.Errorf("a refused restore changed DATA_DIR: %v", changed)
		}
	})
}

// A backup is not written over anything, and a refused one leaves nothing.
func TestBackupRefusesAPathThatExists(t *testing.T) {
	s := newSite(t, 64<<10)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("kept"), 0o600)
	for _, path := range []string{dir, file} {
		if _, err := Write(context.Background(), s.dir, path, SQLite); err == nil || !strings.Contains(err.Error(), path+" already exists") {
			t.Errorf("backup to %s: %v, want a refusal", path, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("after the refusals the directory holds %v, want the file alone", entries)
	}
}

// Restoring over a site moves its database, content and releases aside:
// the restored content's main is what the first start builds, and no
// release of the other content is served.
func TestRestoreKeepsWhatItReplaces(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, 64<<10)
	path := filepath.Join(t.TempDir(), "backup")
	m, err := Write(ctx, s.dir, path, SQLite)
	if err != nil {
		t.Fatal(err)
	}
	target := newSite(t, 64<<10)
	os.MkdirAll(filepath.Join(datadir.Dir(target.dir).Releases(), "20261128-101500-abcdef1"), 0o755)
	os.WriteFile(filepath.Join(datadir.Dir(target.dir).Releases(), "live"), []byte("20261128-101500-abcdef1"), 0o644)
	oldBranches := branches(t, target.dir)
	r, err := Restore(ctx, target.dir, path, SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Replaced) != 3 {
		t.Fatalf("replaced %v, want the releases, content.git and studio.db", r.Replaced)
	}
	for _, kept := range r.Replaced {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("what the restore replaced is not kept: %v", err)
		}
	}
	if _, err := os.Stat(datadir.Dir(target.dir).Releases()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after a restore DATA_DIR still has its releases: %v", err)
	}
	if got := branches(t, target.dir); !maps.Equal(got, m.Refs) {
		t.Errorf("restored branches %v, want the backup's %v", got, m.Refs)
	}
	if got := branchesOf(t, r.Replaced[1]); !maps.Equal(got, oldBranches) {
		t.Errorf("the content kept aside has %v, want the replaced content's %v", got, oldBranches)
	}
}

// With PostgreSQL a backup holds the content alone (the database is
// pg_dump's), and restores only where DATABASE_URL is set.
func TestBackupWithPostgreSQLHoldsTheContent(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, 64<<10)
	path := filepath.Join(t.TempDir(), "backup")
	m, err := Write(ctx, s.dir, path, PostgreSQL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(path, DatabaseFile)); !errors.Is(err, fs.ErrNotExist) || m.Database != PostgreSQL {
		t.Errorf("a PostgreSQL backup: database %q, studio.db %v; want none", m.Database, err)
	}
	fresh := t.TempDir()
	if _, err := Restore(ctx, fresh, path, SQLite); err == nil || !strings.Contains(err.Error(), "set DATABASE_URL") {
		t.Errorf("restore into SQLite: %v, want a refusal", err)
	}
	if _, err := Restore(ctx, fresh, path, PostgreSQL); err != nil {
		t.Fatal(err)
	}
	if got, want := branches(t, fresh), branches(t, s.dir); !maps.Equal(got, want) {
		t.Errorf("restored branches %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(fresh, DatabaseFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a restore with PostgreSQL made a SQLite database: %v", err)
	}
}

// A backup of the database alone, as backups were before they held the
// content, still restores: the database only.
func TestRestoreADatabaseOnlyBackup(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, 64<<10)
	file := filepath.Join(t.TempDir(), "studio-20261122T031500Z.db")
	if _, err := store.Backup(ctx, s.dir, file); err != nil {
		t.Fatal(err)
	}
	target := newSite(t, 64<<10)
	content := branches(t, target.dir)
	r, err := Restore(ctx, target.dir, file, SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if !r.DatabaseOnly || r.Manifest.Enquiries != s.enquiries || len(r.Replaced) != 1 {
		t.Errorf("restored %+v, want the database only, with %d enquiries, the old one kept", r, s.enquiries)
	}
	if got := branches(t, target.dir); !maps.Equal(got, content) {
		t.Errorf("a database-only restore changed the content: %v, was %v", got, content)
	}
}

// A server does not start on a DATA_DIR whose restore was cut short after
// content.git was moved aside: it would make a new one of the shipped
// content.
func TestCutShort(t *testing.T) {
	dir := t.TempDir()
	if err := CutShort(dir); err != nil {
		t.Errorf("a new DATA_DIR: %v", err)
	}
	os.Mkdir(stagedContent(dir), 0o755)
	if err := CutShort(dir); err == nil || !strings.Contains(err.Error(), "run studio restore again") {
		t.Errorf("content.git.restoring without content.git: %v, want an error", err)
	}
	os.Mkdir(datadir.Dir(dir).Repository(), 0o755)
	if err := CutShort(dir); err != nil {
		t.Errorf("content.git.restoring beside content.git (a restore stopped before it changed anything): %v", err)
	}
}

// The backup and the restore of a site whose content holds the
// photographs of 100 products (2.3 MB each, as a 300-product catalogue's
// 685 MB), one commit each: their time, and the backup's size.
// go test ./internal/backup -run '^$' -bench Backup100Products -benchtime 3x
func BenchmarkBackup100Products(b *testing.B) {
	ctx := context.Background()
	dataDir := b.TempDir()
	st, err := store.Open(ctx, "", dataDir)
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	contentRepo, err := repo.Open(datadir.Dir(dataDir).Repository(), seed)
	if err != nil {
		b.Fatal(err)
	}
	photo := make([]byte, 2300<<10)
	for i := range 100 {
		rand.Read(photo)
		main, err := contentRepo.Main()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := contentRepo.Commit(main.Hash, map[string][]byte{fmt.Sprintf("images/product-%d.jpg", i): photo}, nil, who, "A photograph"); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("backup", func(b *testing.B) {
		var size int64
		for range b.N {
			m, err := Write(ctx, dataDir, filepath.Join(b.TempDir(), "backup"), SQLite)
			if err != nil {
				b.Fatal(err)
			}
			size = m.Bytes()
		}
		b.ReportMetric(float64(size)/1e6, "MB")
	})
	backup := filepath.Join(b.TempDir(), "backup")
	if _, err := Write(ctx, dataDir, backup, SQLite); err != nil {
		b.Fatal(err)
	}
	b.Run("restore", func(b *testing.B) {
		for range b.N {
			if _, err := Restore(ctx, b.TempDir(), backup, SQLite); err != nil {
				b.Fatal(err)
			}
		}
	})
}
