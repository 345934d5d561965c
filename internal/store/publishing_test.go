package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

// Publishing is shared only by copies on PostgreSQL: on SQLite each
// method says so and changes nothing.
func TestPublishingIsRefusedOnSQLite(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	ctx := context.Background()
	if _, err := s.PublishingState(ctx); !errors.Is(err, ErrNotShared) {
		t.Errorf("PublishingState on SQLite: %v, want ErrNotShared", err)
	}
	if err := s.PutReleaseRecord(ctx, "r1", time.Now(), []byte(`{}`)); !errors.Is(err, ErrNotShared) {
		t.Errorf("PutReleaseRecord on SQLite: %v, want ErrNotShared", err)
	}
	if _, err := s.BuilderLock(); !errors.Is(err, ErrNotShared) {
		t.Errorf("BuilderLock on SQLite: %v, want ErrNotShared", err)
	}
}

// The records, files and state the copies share read back as written:
// records newest first, a file's bytes stored once, main moved only from
// where the mover saw it, a build asked for taken once.
func TestPublishingStatementsReadBackWhatTheyWrote(t *testing.T) {
	t.Parallel()
	s := NewPostgresForTest(t)
	ctx := context.Background()
	now := time.Now()
	for i, id := range []string{"older", "newer"} {
		if err := s.PutReleaseRecord(ctx, id, now.Add(time.Duration(i)*time.Minute), []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutReleaseRecord(ctx, "older", now, []byte(`{"id":"older","status":"ready"}`)); err != nil {
		t.Fatal(err)
	}
	records, err := s.ReleaseRecords(ctx)
	if err != nil || len(records) != 2 || !bytes.Contains(records[0], []byte("newer")) || !bytes.Contains(records[1], []byte("ready")) {
		t.Fatalf("records %q (%v), want newer then older, older's record replaced", records, err)
	}
	if _, err := s.ReleaseRecord(ctx, "none"); !errors.Is(err, ErrNoRelease) {
		t.Errorf("ReleaseRecord of an unknown id: %v, want ErrNoRelease", err)
	}

	body := []byte("a photograph")
	sum := sha256.Sum256(body)
	hash := sum[:]
	if held, err := s.ReleaseBlobsHeld(ctx, [][]byte{hash}); err != nil || held[string(hash)] {
		t.Fatalf("a blob not stored yet is held: %v (%v)", held, err)
	}
	for range 2 {
		if err := s.PutReleaseBlob(ctx, hash, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutReleaseFiles(ctx, "older", []string{"client/a.jpg", "client/b.jpg"}, [][]byte{hash, hash}); err != nil {
		t.Fatal(err)
	}
	files, err := s.ReleaseFiles(ctx, "older")
	if err != nil || len(files) != 2 || !bytes.Equal(files["client/b.jpg"], hash) {
		t.Fatalf("files %x (%v), want both paths of the one blob", files, err)
	}
	var got [][]byte
	if err := s.ReleaseBlobs(ctx, [][]byte{hash}, func(_, b []byte) error { got = append(got, b); return nil }); err != nil || len(got) != 1 || !bytes.Equal(got[0], body) {
		t.Fatalf("blobs %q (%v), want the photograph once", got, err)
	}
	if err := s.DeleteRelease(ctx, "older"); err != nil {
		t.Fatal(err)
	}
	if err := s.DropUnusedReleaseFiles(ctx); err != nil {
		t.Fatal(err)
	}
	if held, _ := s.ReleaseBlobsHeld(ctx, [][]byte{hash}); held[string(hash)] {
		t.Error("the blob of a deleted release is still held")
	}

	if moved, err := s.MoveMain(ctx, "", "c1"); err != nil || !moved {
		t.Fatalf("moving main from none: %v (%v)", moved, err)
	}
	if moved, _ := s.MoveMain(ctx, "", "c2"); moved {
		t.Error("main moved from where it no longer was")
	}
	if err := s.SetLiveRelease(ctx, "newer"); err != nil {
		t.Fatal(err)
	}
	if err := s.AskPublish(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := s.PublishingState(ctx); err != nil || st != (PublishingState{Live: "newer", Main: "c1", PublishAsked: true}) {
		t.Errorf("state %+v (%v)", st, err)
	}
	if asked, _ := s.TakePublishRequest(ctx); !asked {
		t.Error("the build asked for was not taken")
	}
	if asked, _ := s.TakePublishRequest(ctx); asked {
		t.Error("the build asked for was taken twice")
	}

	if err := s.PutContentObject(ctx, "abc", 3, []byte("blob")); err != nil {
		t.Fatal(err)
	}
	if kind, b, err := s.ContentObject(ctx, "abc"); err != nil || kind != 3 || string(b) != "blob" {
		t.Errorf("object %d %q (%v)", kind, b, err)
	}
	if has, _ := s.HasContentObject(ctx, "def"); has {
		t.Error("an object never stored is shared")
	}
}

// One copy holds the builder's lock at a time; when it gives it up (or
// stops), another takes it. An announcement reaches a copy listening.
func TestTheBuilderLockIsOneCopysAndAnnouncementsArrive(t *testing.T) {
	t.Parallel()
	url := storetest.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func() *Store {
		s, err := OpenPostgres(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	lockA, _ := a.BuilderLock()
	lockB, _ := b.BuilderLock()
	if !lockA.Try(ctx) {
		t.Fatal("the first copy did not take the free lock")
	}
	if !lockA.Try(ctx) { // asked again, the holder still has it
		t.Fatal("the first copy lost the lock it holds when it asked again")
	}
	if lockB.Try(ctx) {
		t.Fatal("two copies hold the builder's lock")
	}
	lockA.Close()
	// The lock goes with the first copy's session, which PostgreSQL ends
	// as soon as it reads the connection's close.
	for deadline := time.Now().Add(2 * time.Minute); !lockB.Try(ctx); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the lock given up was not taken by the other copy within two minutes")
		}
	}
	lockB.Close()

	heard := make(chan struct{}, 1)
	listening := make(chan error, 1)
	go func() {
		listening <- b.ListenPublishing(ctx, func() {
			select {
			case heard <- struct{}{}:
			default:
			}
		})
	}()
	// Announced until heard: the listener may not be listening yet.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Minute)
	for done := false; !done; {
		if err := a.Announce(ctx, "main"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-heard:
			done = true
		case err := <-listening:
			t.Fatalf("the listener stopped: %v", err)
		case <-deadline:
			t.Fatal("no announcement arrived within two minutes")
		case <-tick.C:
		}
	}
}
