// Package backup is `studio backup` and `studio restore`: one backup holds
// what of DATA_DIR the studio would miss, the SQLite database and the
// content repository with every branch, commit and photograph, and a
// restore puts it all back. It leaves out what a server makes again: the
// releases (the first start after a restore builds the restored main), the
// build cache and the TLS certificates.
//
// A backup is a directory:
//
//	backup.json     the manifest: format, time, database, each file's size and SHA-256, the branches
//	studio.db       the SQLite database, a consistent copy (VACUUM INTO); absent with PostgreSQL
//	content.bundle  DATA_DIR/content.git as a git bundle: every branch and every object they reach
//
// It is written under a temporary name beside its own, synced, read back
// and checked, and only then renamed to its name, so a backup cut short
// leaves nothing under that name.
package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"studio/internal/datadir"
	"studio/internal/publish/repo"
	"studio/internal/store"
)

// Format is the layout version of the backups this build writes; a
// restore refuses a newer one.
const Format = 1

// The files of a backup.
const (
	ManifestFile = "backup.json"
	DatabaseFile = "studio.db"
	ContentFile  = "content.bundle"
)

// The databases a manifest names.
const (
	SQLite     = "sqlite"     // the database is DatabaseFile
	PostgreSQL = "postgresql" // the database is not in the backup: pg_dump backs it up
)

// stagedContent is where a restore stages the content before it takes the
// repository's place.
func stagedContent(dataDir string) string { return datadir.Dir(dataDir).Repository() + ".restoring" }

// A Manifest is backup.json: what a backup holds.
type Manifest struct {
	Format    int               `json:"format"`
	Created   time.Time         `json:"created"`
	Database  string            `json:"database"`
	Enquiries int               `json:"enquiries"` // in DatabaseFile; 0 with PostgreSQL
	Files     map[string]File   `json:"files"`
	Refs      map[string]string `json:"refs"`    // the content's branches and their commits
	Commits   int               `json:"commits"` // the commits they reach
}

// A File is a file of a backup as the manifest gives it.
type File struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Bytes is the size of the backup's files together.
func (m Manifest) Bytes() int64 {
	var n int64
	for _, f := range m.Files {
		n += f.Size
	}
	return n
}

// Branches is the content's branches by their short names, sorted.
func (m Manifest) Branches() string {
	return repo.Bundle{Refs: m.Refs}.Branches()
}

// files is the files a backup of database holds.
func files(database string) []string {
	if database == SQLite {
		return []string{DatabaseFile, ContentFile}
	}
	return []string{ContentFile}
}

// Write backs up dataDir into the directory path, which must not exist,
// while a server may be running on it and writing. database is SQLite or
// PostgreSQL (whose database is left to pg_dump: only the content is
// written).
func Write(ctx context.Context, dataDir, path, database string) (Manifest, error) {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, fmt.Errorf("backup: %s already exists; name a new one", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	partial, err := os.MkdirTemp(filepath.Dir(path), filepath.Base(path)+".partial-")
	if err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(partial) // gone already once renamed

	m := Manifest{Format: Format, Created: time.Now().UTC().Truncate(time.Second), Database: database, Files: map[string]File{}}
	if database == SQLite {
		stats, err := store.Backup(ctx, dataDir, filepath.Join(partial, DatabaseFile))
		if err != nil {
			return Manifest{}, err
		}
		m.Enquiries = stats.Enquiries
	}
	bundle, err := repo.Backup(datadir.Dir(dataDir).Repository(), filepath.Join(partial, ContentFile))
	if err != nil {
		return Manifest{}, err
	}
	m.Refs, m.Commits = bundle.Refs, bundle.Commits
	for _, name := range files(database) {
		if m.Files[name], err = hashFile(filepath.Join(partial, name)); err != nil {
			return Manifest{}, fmt.Errorf("backup: %w", err)
		}
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return Manifest{}, err
	}
	if err := writeSynced(filepath.Join(partial, ManifestFile), append(b, '\n')); err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	if err := syncDir(partial); err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}

	// Read it back as a restore would, the content unpacked beside it.
	if _, err := check(ctx, partial, filepath.Join(partial, ".check-content.git")); err != nil {
		return Manifest{}, fmt.Errorf("backup: the backup written does not read back: %w", err)
	}
	if err := os.Rename(partial, path); err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	return m, nil
}

// check reads the backup in dir back: the manifest, its files' sizes and
// hashes, the database's own checks, and the content, unpacked into
// scratch (which must not exist) and removed again.
func check(ctx context.Context, dir, scratch string) (Manifest, error) {
	m, err := readManifest(dir)
	if err != nil {
		return Manifest{}, err
	}
	if m.Database == SQLite {
		stats, err := store.CheckBackup(ctx, filepath.Join(dir, DatabaseFile))
		if err != nil {
			return Manifest{}, err
		}
		if err := m.matchDatabase(dir, stats); err != nil {
			return Manifest{}, err
		}
	}
	b, err := repo.Restore(filepath.Join(dir, ContentFile), scratch)
	os.RemoveAll(scratch)
	if err != nil {
		return Manifest{}, err
	}
	return m, m.matchContent(dir, b)
}

// readManifest reads dir's manifest and checks that the files it names
// are there, each with the size and SHA-256 it gives.
func readManifest(dir string) (Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, fmt.Errorf("backup: %s has no %s: it is not a backup, or one cut short", dir, ManifestFile)
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Manifest{}, fmt.Errorf("backup: %s is damaged: %w", filepath.Join(dir, ManifestFile), err)
	}
	if m.Format > Format {
		return Manifest{}, fmt.Errorf("backup: %s comes from a newer version of the server (format %d); restore it with that version", dir, m.Format)
	}
	if m.Format < 1 || (m.Database != SQLite && m.Database != PostgreSQL) {
		return Manifest{}, fmt.Errorf("backup: %s is damaged: it gives no format or database", filepath.Join(dir, ManifestFile))
	}
	want := files(m.Database)
	if got := slices.Sorted(maps.Keys(m.Files)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		return Manifest{}, fmt.Errorf("backup: %s is damaged: it lists the files %s, and a backup of a %s site holds %s",
			filepath.Join(dir, ManifestFile), strings.Join(got, ", "), m.Database, strings.Join(want, ", "))
	}
	for _, name := range want {
		path := filepath.Join(dir, name)
		got, err := hashFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return Manifest{}, fmt.Errorf("backup: %s is missing", path)
		}
		if err != nil {
			return Manifest{}, fmt.Errorf("backup: %w", err)
		}
		if got.Size != m.Files[name].Size {
			return Manifest{}, fmt.Errorf("backup: %s is damaged: it has %d bytes, and %s says %d", path, got.Size, ManifestFile, m.Files[name].Size)
		}
		if got.SHA256 != m.Files[name].SHA256 {
			return Manifest{}, fmt.Errorf("backup: %s is damaged: its SHA-256 is not the one %s gives", path, ManifestFile)
		}
	}
	return m, nil
}

// matchDatabase checks that the database holds what the manifest says.
func (m Manifest) matchDatabase(dir string, stats store.BackupStats) error {
	if stats.Enquiries != m.Enquiries {
		return fmt.Errorf("backup: %s holds %d enquiries, and %s says %d", filepath.Join(dir, DatabaseFile), stats.Enquiries, ManifestFile, m.Enquiries)
	}
	return nil
}

// matchContent checks that the content holds what the manifest says.
func (m Manifest) matchContent(dir string, b repo.Bundle) error {
	if !maps.Equal(b.Refs, m.Refs) || b.Commits != m.Commits {
		return fmt.Errorf("backup: %s holds the branches %s (%d commits), and %s says %s (%d commits)",
			filepath.Join(dir, ContentFile), b.Branches(), b.Commits, ManifestFile, m.Branches(), m.Commits)
	}
	return nil
}

// A Restored says what a restore put back and what it moved aside.
type Restored struct {
	Manifest Manifest
	// DatabaseOnly: the backup was a single file of the database, as
	// backups were before they held the content; DATA_DIR's content and
	// releases are left as they are.
	DatabaseOnly bool
	Replaced     []string // what the restore moved aside in DATA_DIR, to delete once the site is checked
}

// Restore puts the backup at path back into dataDir: the database (when
// database is SQLite; with PostgreSQL pg_restore does that) and the
// content repository. It refuses while a server holds dataDir, and refuses
// a backup that fails any check, changing nothing. What it replaces is
// moved aside, renamed with the time: the database, content.git, and the
// releases, so that the first start builds the restored main and serves
// none of the releases of other content.
func Restore(ctx context.Context, dataDir, path, database string) (Restored, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Restored{}, fmt.Errorf("backup: %w", err)
	}
	// A new machine's DATA_DIR may not exist yet; the server would make it.
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return Restored{}, fmt.Errorf("restore: %w", err)
	}
	lock, err := store.LockDataDir(dataDir)
	if err != nil {
		return Restored{}, err
	}
	defer lock.Close()

	if !info.IsDir() {
		return restoreDatabaseOnly(ctx, dataDir, path, database)
	}
	m, err := readManifest(path)
	if err != nil {
		return Restored{}, err
	}
	if m.Database != database {
		if database == PostgreSQL {
			return Restored{}, fmt.Errorf("restore: %s holds a SQLite database, and DATABASE_URL is set: unset it to restore into SQLite", path)
		}
		return Restored{}, fmt.Errorf("restore: %s was taken with PostgreSQL and holds no database: set DATABASE_URL, and restore the database with pg_restore", path)
	}

	db, staged, err := stage(ctx, dataDir, path, m)
	if err != nil {
		return Restored{}, err
	}
	return switchTo(dataDir, m, db, staged)
}

// stage copies the backup at path into DATA_DIR beside what it replaces,
// and checks it there against the manifest; until all of it is, nothing in
// DATA_DIR has changed. db is nil when the database is PostgreSQL's.
func stage(ctx context.Context, dataDir, path string, m Manifest) (db *store.StagedRestore, staged string, err error) {
	if m.Database == SQLite {
		if db, err = store.StageRestore(ctx, dataDir, filepath.Join(path, DatabaseFile)); err != nil {
			return nil, "", err
		}
		if err := m.matchDatabase(path, db.Stats); err != nil {
			db.Discard()
			return nil, "", err
		}
	}
	staged = stagedContent(dataDir)
	os.RemoveAll(staged) // left by a restore that was cut short
	b, err := repo.Restore(filepath.Join(path, ContentFile), staged)
	if err == nil {
		err = m.matchContent(path, b)
	}
	if err != nil {
		os.RemoveAll(staged)
		if db != nil {
			db.Discard()
		}
		return nil, "", err
	}
	return db, staged, nil
}

// switchTo puts what stage staged in place: the releases aside, then the
// content, then the database. Cut short here, a restore is run again.
func switchTo(dataDir string, m Manifest, db *store.StagedRestore, staged string) (Restored, error) {
	r := Restored{Manifest: m}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for _, dir := range []string{datadir.Dir(dataDir).Releases(), datadir.Dir(dataDir).Repository()} {
		kept, err := moveAside(dir, stamp)
		if err != nil {
			return r, err
		}
		if kept != "" {
			r.Replaced = append(r.Replaced, kept)
		}
	}
	if err := os.Rename(staged, datadir.Dir(dataDir).Repository()); err != nil {
		return r, fmt.Errorf("restore: %w", err)
	}
	if err := syncDir(dataDir); err != nil {
		return r, fmt.Errorf("restore: %w", err)
	}
	if db != nil {
		kept, err := db.Install()
		if err != nil {
			return r, err
		}
		if kept != "" {
			r.Replaced = append(r.Replaced, kept)
		}
	}
	return r, nil
}

// restoreDatabaseOnly restores a backup that is a single database file,
// as `studio backup` wrote before backups held the content.
func restoreDatabaseOnly(ctx context.Context, dataDir, file, database string) (Restored, error) {
	if database != SQLite {
		return Restored{}, fmt.Errorf("restore: %s is a SQLite database, and DATABASE_URL is set: unset it to restore into SQLite", file)
	}
	db, err := store.StageRestore(ctx, dataDir, file)
	if err != nil {
		return Restored{}, err
	}
	r := Restored{Manifest: Manifest{Database: SQLite, Enquiries: db.Stats.Enquiries}, DatabaseOnly: true}
	kept, err := db.Install()
	if kept != "" {
		r.Replaced = append(r.Replaced, kept)
	}
	return r, err
}

// moveAside renames path to path.replaced-<stamp>, and returns that name;
// "" when there is no path.
func moveAside(path, stamp string) (string, error) {
	kept := path + ".replaced-" + stamp
	err := os.Rename(path, kept)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("restore: keep %s: %w", path, err)
	}
	return kept, nil
}

// CutShort is an error when a restore into dataDir was cut short between
// moving content.git aside and putting the restored one in its place: a
// server started then would make a new content repository with the
// content shipped in bin/studio.
func CutShort(dataDir string) error {
	if _, err := os.Stat(datadir.Dir(dataDir).Repository()); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := os.Stat(stagedContent(dataDir)); err != nil {
		return nil
	}
	return fmt.Errorf("a restore into DATA_DIR %s was cut short (%s is there, %s is not): run studio restore again",
		dataDir, filepath.Base(stagedContent(dataDir)), filepath.Base(datadir.Dir(dataDir).Repository()))
}

func hashFile(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return File{}, err
	}
	return File{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
