package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"studio/internal/datadir"
)

// MinFreeBytes is the free space kept on DATA_DIR's disk for the
// enquiries: below it the server says it is not ready, and a build that
// would take the disk below it does not start (internal/publish).
const MinFreeBytes = 64 << 20

// ErrInUse is returned by LockDataDir and Restore when a server holds
// DATA_DIR.
var ErrInUse = errors.New("a server is running with this DATA_DIR")

// LockDataDir takes the lock on dataDir that a running server holds for
// its lifetime, so that a second server, or a restore, cannot take the
// database from under it. The lock goes with the process (flock), so a
// killed server leaves none behind. Close releases it.
func LockDataDir(dataDir string) (io.Closer, error) {
	f, err := os.OpenFile(datadir.Dir(dataDir).Lock(), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock DATA_DIR: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("store: %w (%s); stop it first", ErrInUse, dataDir)
		}
		return nil, fmt.Errorf("store: lock DATA_DIR: %w", err)
	}
	return f, nil
}

// BackupStats says what a backup or restore copied.
type BackupStats struct {
	Bytes     int64
	Enquiries int
	Took      time.Duration
	Replaced  string // restore: where the database it replaced was moved; "" when there was none
}

// Backup writes a consistent copy of the SQLite database in dataDir to
// file while a server may be running and writing: VACUUM INTO reads one
// snapshot of the database, including what is still in the WAL file
// (which a plain copy of studio.db misses), and writes it compacted. The
// file must not exist. SQLite neither syncs VACUUM INTO's output nor
// makes it appear at once, so the copy is written beside file, synced,
// checked, and only then renamed to file: a backup cut short by a crash
// leaves no half-written file under the name a restore would look for.
func Backup(ctx context.Context, dataDir, file string) (BackupStats, error) {
	start := time.Now()
	if _, err := os.Stat(file); err == nil {
		return BackupStats{}, fmt.Errorf("store: backup: %s already exists; name a new file", file)
	}
	db, err := openExisting(datadir.Dir(dataDir).Database())
	if err != nil {
		return BackupStats{}, err
	}
	defer db.Close()
	// VACUUM INTO writes into a file that is absent or empty: an empty
	// temporary file with a unique name.
	partial, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".partial-*")
	if err != nil {
		return BackupStats{}, fmt.Errorf("store: backup: %w", err)
	}
	partial.Close()
	defer os.Remove(partial.Name()) // gone already once renamed
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, partial.Name()); err != nil {
		return BackupStats{}, fmt.Errorf("store: backup to %s: %w", file, err)
	}
	if err := syncFile(partial.Name()); err != nil {
		return BackupStats{}, fmt.Errorf("store: backup: %w", err)
	}
	stats, err := checkBackup(ctx, partial.Name(), file)
	if err != nil {
		return BackupStats{}, err
	}
	if err := os.Rename(partial.Name(), file); err != nil {
		return BackupStats{}, fmt.Errorf("store: backup: %w", err)
	}
	if err := syncDir(filepath.Dir(file)); err != nil {
		return BackupStats{}, fmt.Errorf("store: backup: %w", err)
	}
	stats.Took = time.Since(start)
	return stats, nil
}

// Restore puts the backup file in place of the database in dataDir. It
// refuses while a server holds dataDir, and refuses a file that is not a
// sound backup of this site's database. The database it replaces is kept
// beside it, renamed with the time, so a restore can be undone.
func Restore(ctx context.Context, dataDir, file string) (BackupStats, error) {
	start := time.Now()
	// A new machine's DATA_DIR may not exist yet; the server would make it.
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return BackupStats{}, fmt.Errorf("store: restore: %w", err)
	}
	lock, err := LockDataDir(dataDir)
	if err != nil {
		return BackupStats{}, err
	}
	defer lock.Close()
	staged, err := StageRestore(ctx, dataDir, file)
	if err != nil {
		return BackupStats{}, err
	}
	stats := staged.Stats
	if stats.Replaced, err = staged.Install(); err != nil {
		return BackupStats{}, err
	}
	stats.Took = time.Since(start)
	return stats, nil
}

// A StagedRestore is a backup's database copied beside the database in
// DATA_DIR and checked there, ready to take its place.
type StagedRestore struct {
	Stats   BackupStats
	dataDir string
	path    string
}

// StageRestore copies the backup file beside the database in dataDir
// (which the caller has locked with LockDataDir), synced, and checks the
// copy: it must be a sound backup of this site's database. Nothing in
// dataDir changes until Install; Discard removes the copy.
func StageRestore(ctx context.Context, dataDir, file string) (*StagedRestore, error) {
	// The copy is made beside the database (so Install's rename is atomic)
	// and synced; the checks run on it, the file that will be the database.
	incoming := datadir.Dir(dataDir).Database() + ".restoring"
	os.Remove(incoming) // left by a restore that was cut short
	if err := copyFileSynced(file, incoming); err != nil {
		os.Remove(incoming)
		return nil, fmt.Errorf("store: restore: %w", err)
	}
	stats, err := checkBackup(ctx, incoming, file)
	if err != nil {
		os.Remove(incoming)
		return nil, err
	}
	return &StagedRestore{Stats: stats, dataDir: dataDir, path: incoming}, nil
}

// Discard removes the staged copy.
func (s *StagedRestore) Discard() { os.Remove(s.path) }

// Install puts the staged copy in place of the database. The database it
// replaces, if any, is kept beside it, renamed with the time, and Install
// returns its name.
func (s *StagedRestore) Install() (replaced string, err error) {
	target := datadir.Dir(s.dataDir).Database()
	if _, err := os.Stat(target); err == nil {
		kept := target + ".replaced-" + time.Now().UTC().Format("20060102T150405Z")
		if err := os.Rename(target, kept); err != nil {
			s.Discard()
			return "", fmt.Errorf("store: restore: keep the current database: %w", err)
		}
		// The old WAL belongs to the old file; left, SQLite would replay it
		// into the restored one.
		for _, suffix := range []string{"-wal", "-shm"} {
			if err := os.Rename(target+suffix, kept+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("store: restore: move %s aside: %w", target+suffix, err)
			}
		}
		replaced = kept
	}
	if err := os.Rename(s.path, target); err != nil {
		return "", fmt.Errorf("store: restore: %w", err)
	}
	if err := syncDir(s.dataDir); err != nil {
		return "", fmt.Errorf("store: restore: %w", err)
	}
	return replaced, nil
}

// CheckBackup checks the backup of the database in file, where it is, as
// Backup and Restore do.
func CheckBackup(ctx context.Context, file string) (BackupStats, error) {
	return checkBackup(ctx, file, file)
}

// checkBackup opens path read-only and checks that it is a sound SQLite
// database of this site: integrity_check passes, and its migrations are
// ones this build knows (an older backup is brought up to date when the
// server starts; a newer one needs the newer server). Its errors call the
// file name, the one the operator named.
func checkBackup(ctx context.Context, path, name string) (BackupStats, error) {
	info, err := os.Stat(path)
	if err != nil {
		return BackupStats{}, fmt.Errorf("store: backup file: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return BackupStats{}, err
	}
	defer db.Close()
	var result string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return BackupStats{}, fmt.Errorf("store: %s is not a SQLite database: %w", name, err)
	}
	if result != "ok" {
		return BackupStats{}, fmt.Errorf("store: %s is damaged: integrity_check says %q", name, result)
	}
	var newest, enquiries int
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
		return BackupStats{}, fmt.Errorf("store: %s is not a backup of this site's database: %w", name, err)
	}
	known, err := (&Store{dialect: SQLite}).migrations()
	if err != nil {
		return BackupStats{}, err
	}
	if newest > known[len(known)-1].version {
		return BackupStats{}, fmt.Errorf("store: %s comes from a newer version of the server (migration %d); restore it with that version", name, newest)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM enquiries`).Scan(&enquiries); err != nil {
		return BackupStats{}, fmt.Errorf("store: %s has no enquiries table: %w", name, err)
	}
	return BackupStats{Bytes: info.Size(), Enquiries: enquiries}, nil
}

// openExisting opens the database at path, which must exist (a mistyped
// DATA_DIR must not yield an empty backup).
func openExisting(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("store: no database to back up: %w", err)
	}
	return sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
}

func copyFileSynced(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
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
