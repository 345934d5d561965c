package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"studio/internal/datadir"
	"studio/internal/enquiry"
)

// A backup taken while 16 clients write holds every enquiry acknowledged
// before it began, and restored into a fresh DATA_DIR it is a sound
// database the server opens.
func TestBackupUnderLoadRestores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dataDir := t.TempDir()
	s, err := Open(ctx, "", dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	var (
		mu    sync.Mutex
		acked []int64
		stop  atomic.Bool
		wg    sync.WaitGroup
		going = make(chan struct{}) // closed at the 500th acknowledgement
	)
	for c := range 16 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				id, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, fmt.Sprintf("client %d, #%d", c, i)), false)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				acked = append(acked, id)
				if len(acked) == 500 {
					close(going)
				}
				mu.Unlock()
			}
		})
	}
	// Let the writers get going, then back up while they go on.
	<-going
	mu.Lock()
	before := append([]int64(nil), acked...)
	mu.Unlock()
	file := filepath.Join(t.TempDir(), "backup.db")
	stats, err := Backup(ctx, dataDir, file)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if stats.Enquiries < len(before) {
		t.Errorf("backup holds %d enquiries, but %d were acknowledged before it began", stats.Enquiries, len(before))
	}

	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 1 {
		t.Errorf("beside the backup: %v, want the backup alone (no partial file left)", entries)
	}

	restored := filepath.Join(t.TempDir(), "new") // a new machine's DATA_DIR, not made yet
	if _, err := Restore(ctx, restored, file); err != nil {
		t.Fatal(err)
	}
	restoredStore, err := Open(ctx, "", restored)
	if err != nil {
		t.Fatal(err)
	}
	defer restoredStore.Close()
	var check string
	if err := restoredStore.read.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check of the restored copy: %q, %v", check, err)
	}
	all, err := restoredStore.Enquiries(ctx, EnquiryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[int64]bool{}
	for _, e := range all {
		have[e.ID] = true
	}
	missing := 0
	for _, id := range before {
		if !have[id] {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of the %d enquiries acknowledged before the backup are not in it", missing, len(before))
	}
	t.Logf("%d acknowledged before the backup, %d in it, %d written in all", len(before), len(all), len(acked))
}

// Restore refuses while a server holds DATA_DIR, and refuses a file that
// is not a backup; the database is untouched either way.
func TestRestoreRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dataDir := t.TempDir()
	s, err := Open(ctx, "", dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "kept"), false); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "backup.db")
	if _, err := Backup(ctx, dataDir, file); err != nil {
		t.Fatal(err)
	}
	if _, err := Backup(ctx, dataDir, file); err == nil {
		t.Error("a backup overwrote an existing file")
	}

	lock, err := LockDataDir(dataDir) // as the running server holds it
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, dataDir, file); !errors.Is(err, ErrInUse) {
		t.Errorf("restore while a server runs: %v, want ErrInUse", err)
	}
	if _, err := LockDataDir(dataDir); !errors.Is(err, ErrInUse) {
		t.Errorf("a second server on the same DATA_DIR: %v, want ErrInUse", err)
	}
	lock.Close()

	notABackup := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notABackup, []byte("not a database at all, but long enough to be read as one............"), 0o600)
	if _, err := Restore(ctx, dataDir, notABackup); err == nil {
		t.Error("restored a file that is not a database")
	}
	all, err := s.Enquiries(ctx, EnquiryFilter{})
	if err != nil || len(all) != 1 {
		t.Errorf("the database after refused restores: %d enquiries, %v; want the 1 it had", len(all), err)
	}
	if _, err := os.Stat(datadir.Dir(dataDir).Database() + ".restoring"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused restore left its copy beside the database: %v", err)
	}
}

// The backup and the restore of a database of 100,000 enquiries (each
// with a message of a few hundred characters): their time, and the file's
// size.
// go test ./internal/store -run '^$' -bench Backup100k -benchtime 3x
func BenchmarkBackup100k(b *testing.B) {
	ctx := context.Background()
	dataDir := b.TempDir()
	s, err := Open(ctx, "", dataDir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e := sample(enquiry.Quote, "Asha Rathore")
	e.Message = strings.Repeat("We would like a dining table for eight in walnut, with a jali panel. ", 5)
	const total, perTx = 100_000, 5_000
	for done := 0; done < total; done += perTx {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			for range perTx {
				if _, err := s.insertEnquiry(ctx, tx, e, false); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Run("backup", func(b *testing.B) {
		backups := b.TempDir()
		var size int64
		for i := range b.N {
			stats, err := Backup(ctx, dataDir, filepath.Join(backups, fmt.Sprintf("backup-%d.db", i)))
			if err != nil || stats.Enquiries != total {
				b.Fatalf("backup: %d enquiries, %v", stats.Enquiries, err)
			}
			size = stats.Bytes
		}
		b.ReportMetric(float64(size)/1e6, "MB")
	})
	backup := filepath.Join(b.TempDir(), "backup.db")
	if _, err := Backup(ctx, dataDir, backup); err != nil {
		b.Fatal(err)
	}
	b.Run("restore", func(b *testing.B) {
		for range b.N {
			stats, err := Restore(ctx, b.TempDir(), backup)
			if err != nil || stats.Enquiries != total {
				b.Fatalf("restore: %d enquiries, %v", stats.Enquiries, err)
			}
		}
	})
}
