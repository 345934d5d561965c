package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store"
)

// Shared is what the copies of the server on one PostgreSQL database share
// (the tables of internal/store's migration 0010, read and written by
// internal/store's publishing.go): the releases' records and files,
// content-addressed (a file unchanged between releases is stored once);
// which release is live; the content repository's main and its objects;
// which copy builds (an advisory lock). A change is announced to the other
// copies, and every copy also looks every sharedPoll, so a copy that missed
// a notice still follows within 5 s.
//
// Each copy keeps the releases it serves in its own DATA_DIR/releases,
// their files hard links into its blobs (releases.Releases.Files), so a
// photograph common to two releases is fetched and kept once.
type Shared struct {
	db    SharedStore
	local *releases.Releases
	log   *slog.Logger
	lock  *store.BuilderLock

	notices chan struct{} // a notice arrived: look now
}

// SharedStore is what Shared asks of the database: *store.Store on
// PostgreSQL.
type SharedStore interface {
	PublishingState(ctx context.Context) (store.PublishingState, error)
	Announce(ctx context.Context, what string) error
	ListenPublishing(ctx context.Context, notice func()) error
	BuilderLock() (*store.BuilderLock, error)
	SetLiveRelease(ctx context.Context, id string) error
	AskPublish(ctx context.Context) error
	TakePublishRequest(ctx context.Context) (bool, error)
	MoveMain(ctx context.Context, old, main string) (bool, error)

	ReleaseRecord(ctx context.Context, id string) ([]byte, error)
	PutReleaseRecord(ctx context.Context, id string, queuedAt time.Time, record []byte) error
	ReleaseRecords(ctx context.Context) ([][]byte, error)
	DeleteRelease(ctx context.Context, id string) error
	DropUnusedReleaseFiles(ctx context.Context) error
	ReleaseBlobsHeld(ctx context.Context, hashes [][]byte) (map[string]bool, error)
	PutReleaseBlob(ctx context.Context, hash, body []byte) error
	PutReleaseFiles(ctx context.Context, id string, paths []string, hashes [][]byte) error
	ReleaseFiles(ctx context.Context, id string) (map[string][]byte, error)
	ReleaseBlobs(ctx context.Context, hashes [][]byte, each func(hash, body []byte) error) error

	PutContentObject(ctx context.Context, hash string, kind int, body []byte) error
	ContentObject(ctx context.Context, hash string) (kind int, body []byte, err error)
	HasContentObject(ctx context.Context, hash string) (bool, error)
}

const sharedPoll = 2 * time.Second

// NewShared shares publishing through db, whose tables the store's
// migrations made, and listens for the other copies' notices until ctx
// ends.
func NewShared(ctx context.Context, db SharedStore, local *releases.Releases, log *slog.Logger) (*Shared, error) {
	lock, err := db.BuilderLock()
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	s := &Shared{db: db, local: local, log: log, lock: lock, notices: make(chan struct{}, 1)}
	go s.listen(ctx)
	return s, nil
}

// Close gives up this copy's builder's lock.
func (s *Shared) Close() error {
	s.lock.Close()
	return nil
}

// listen passes on the channel's notices, listening again when the
// connection drops (the poll covers the time without one).
func (s *Shared) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.db.ListenPublishing(ctx, func() {
			select {
			case s.notices <- struct{}{}:
			default:
			}
		})
		if ctx.Err() == nil {
			s.log.Warn("publish: listening for other copies' changes; trying again", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(sharedPoll):
			}
		}
	}
}

func (s *Shared) announce(ctx context.Context, what string) {
	if err := s.db.Announce(ctx, what); err != nil {
		s.log.Warn("publish: announcing a change to the other copies", "what", what, "err", err)
	}
}

// TryBuild takes the builder's lock when no other copy holds it, and says
// whether this copy holds it. When the copy stops, or its connection is
// lost, another takes it.
func (s *Shared) TryBuild(ctx context.Context) bool { return s.lock.Try(ctx) }

// State is what the copies share of a moment: the live release, main, and
// whether a build of main was asked for.
func (s *Shared) State(ctx context.Context) (store.PublishingState, error) {
	return s.db.PublishingState(ctx)
}

// SetLive makes id the live release of every copy.
func (s *Shared) SetLive(ctx context.Context, id string) error {
	if err := s.db.SetLiveRelease(ctx, id); err != nil {
		return fmt.Errorf("publish: recording the live release: %w", err)
	}
	s.announce(ctx, "live")
	return nil
}

// AskPublish asks the copy that builds to build main now.
func (s *Shared) AskPublish(ctx context.Context) error {
	if err := s.db.AskPublish(ctx); err != nil {
		return err
	}
	s.announce(ctx, "publish")
	return nil
}

// TakePublishRequest says whether a build was asked for, and clears it.
func (s *Shared) TakePublishRequest(ctx context.Context) bool {
	asked, err := s.db.TakePublishRequest(ctx)
	return err == nil && asked
}

// The records: release.json of each release, as Releases keeps them on disk.

func (s *Shared) Get(id string) (releases.Release, error) {
	b, err := s.db.ReleaseRecord(context.Background(), id)
	if errors.Is(err, store.ErrNoRelease) {
		return releases.Release{}, fmt.Errorf("publish: no release %q", id)
	}
	if err != nil {
		return releases.Release{}, err
	}
	var r releases.Release
	return r, json.Unmarshal(b, &r)
}

func (s *Shared) Put(r releases.Release) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	err = s.db.PutReleaseRecord(context.Background(), r.ID, r.QueuedAt, b)
	if err == nil {
		s.announce(context.Background(), "release")
	}
	return err
}

func (s *Shared) List() ([]releases.Release, error) {
	records, err := s.db.ReleaseRecords(context.Background())
	if err != nil {
		return nil, err
	}
	list := make([]releases.Release, len(records))
	for i, b := range records {
		if err := json.Unmarshal(b, &list[i]); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Remove deletes release id from the database and from this copy. Its
// files stay until DropUnusedFiles: an upload under way may be about to
// name them.
func (s *Shared) Remove(id string) error {
	if err := s.db.DeleteRelease(context.Background(), id); err != nil {
		return err
	}
	return s.local.Remove(id)
}

// DropUnusedFiles deletes the files no release holds any more, from the
// database and from this copy's blobs. The copy that builds calls it after
// a build, when no upload is under way.
func (s *Shared) DropUnusedFiles() error {
	err := s.db.DropUnusedReleaseFiles(context.Background())
	s.local.DropUnusedBlobs()
	return err
}

// Upload stores the files of release id (its directory on this copy) in
// the database, each file's bytes once whatever the number of releases
// holding it, and links them into this copy's blobs.
func (s *Shared) Upload(ctx context.Context, id string) error {
	paths, hashes, err := s.local.Files(id)
	if err != nil {
		return err
	}
	have, err := s.db.ReleaseBlobsHeld(ctx, hashes)
	if err != nil {
		return err
	}
	for i, h := range hashes {
		if have[string(h)] {
			continue
		}
		body, err := s.local.ReadFile(id, paths[i], h)
		if err != nil {
			return err
		}
		if err := s.db.PutReleaseBlob(ctx, h, body); err != nil {
			return fmt.Errorf("publish: storing a file of release %s: %w", id, err)
		}
		have[string(h)] = true
	}
	if err := s.db.PutReleaseFiles(ctx, id, paths, hashes); err != nil {
		return fmt.Errorf("publish: storing release %s: %w", id, err)
	}
	return nil
}

// Fetch makes release id's directory on this copy from the database, unless
// it is there already: the files this copy lacks are fetched, the others
// linked from its blobs. The directory appears whole or not at all.
func (s *Shared) Fetch(ctx context.Context, id string) error {
	if s.local.Has(id) {
		return nil // built here, or fetched before
	}
	r, err := s.Get(id)
	if err != nil {
		return err
	}
	files, err := s.db.ReleaseFiles(ctx, id)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("publish: release %s has no files in the database", id)
	}
	hashes := make([][]byte, 0, len(files))
	for _, h := range files {
		hashes = append(hashes, h)
	}
	missing, err := s.local.MissingBlobs(hashes)
	if err != nil {
		return err
	}
	err = s.db.ReleaseBlobs(ctx, missing, func(hash, body []byte) error {
		if err := s.local.WriteBlob(hash, body); err != nil {
			return fmt.Errorf("publish: release %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.local.Assemble(r, files)
}

// The content repository's main, shared: the objects of each commit are
// stored in the database, and main moves by compare-and-set, so of two
// copies moving it at once one wins and the other's commit is kept aside.

// PushMain shares the local commit hash, made on top of old (the main this
// copy last shared), and moves the shared main to it. It returns false,
// changing nothing shared, when main moved meanwhile.
func (s *Shared) PushMain(ctx context.Context, content *repo.Repository, old, hash string) (bool, error) {
	err := content.Objects(old, hash, func(o repo.Object) error {
		if err := s.db.PutContentObject(ctx, o.Hash, o.Kind, o.Body); err != nil {
			return fmt.Errorf("publish: sharing the content: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	moved, err := s.db.MoveMain(ctx, old, hash)
	if err != nil || !moved {
		return false, err
	}
	s.announce(ctx, "main")
	return true, nil
}

// Shares says whether commit hash is in the shared objects.
func (s *Shared) Shares(ctx context.Context, hash string) bool {
	ok, _ := s.db.HasContentObject(ctx, hash)
	return ok
}

// FetchCommit fetches the objects of the shared commit hash this copy
// lacks (repo.Repository.FetchCommit).
func (s *Shared) FetchCommit(ctx context.Context, content *repo.Repository, hash string) error {
	return content.FetchCommit(hash, func(h string) (repo.Object, error) {
		kind, body, err := s.db.ContentObject(ctx, h)
		return repo.Object{Hash: h, Kind: kind, Body: body}, err
	})
}
