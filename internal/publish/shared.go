package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// Shared is what the copies of the server on one PostgreSQL database share
// (the tables of internal/store's migration 0010): the releases' records and
// files, content-addressed (a file unchanged between releases is stored
// once); which release is live; the content repository's main and its
// objects; which copy builds (an advisory lock). A change is announced on
// the channel studio_publishing, and every copy also looks every
// sharedPoll, so a copy that missed a notice still follows within 5 s.
//
// Each copy keeps the releases it serves in its own DATA_DIR/releases, their
// files hard links into DATA_DIR/releases/.blobs, so a photograph common to
// two releases is fetched and kept once.
type Shared struct {
	db    *sql.DB
	url   string
	local *Releases
	log   *slog.Logger

	notices chan struct{} // a notice arrived: look now
	mu      sync.Mutex
	lock    *pgx.Conn // the connection that holds (or asks for) the builder's advisory lock
	locked  bool      // it holds it: this copy builds
}

const (
	noticeChannel = "studio_publishing"
	sharedPoll    = 2 * time.Second
)

// OpenShared connects to the PostgreSQL database at url (its tables made by
// the store's migrations) and listens for notices until ctx ends.
func OpenShared(ctx context.Context, url string, local *Releases, log *slog.Logger) (*Shared, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	db.SetMaxOpenConns(4)
	s := &Shared{db: db, url: url, local: local, log: log, notices: make(chan struct{}, 1)}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("publish: the database: %w", err)
	}
	go s.listen(ctx)
	return s, nil
}

// Close ends this copy's connections, and with them its builder's lock.
func (s *Shared) Close() error {
	s.mu.Lock()
	if s.lock != nil {
		s.lock.Close(context.Background())
		s.lock = nil
	}
	s.mu.Unlock()
	return s.db.Close()
}

// listen passes on the channel's notices, connecting again when the
// connection drops (the poll covers the time without one).
func (s *Shared) listen(ctx context.Context) {
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, s.url)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+noticeChannel)
			for err == nil {
				if _, err = conn.WaitForNotification(ctx); err == nil {
					select {
					case s.notices <- struct{}{}:
					default:
					}
				}
			}
			conn.Close(context.Background())
		}
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
	if _, err := s.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, noticeChannel, what); err != nil {
		s.log.Warn("publish: announcing a change to the other copies", "what", what, "err", err)
	}
}

// TryBuild takes the builder's lock when no other copy holds it, and says
// whether this copy holds it. The lock is a session lock on a connection of
// its own: when the copy stops, or its connection is lost, another takes it.
func (s *Shared) TryBuild(ctx context.Context) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock != nil && s.locked {
		if err := s.lock.Ping(ctx); err == nil {
			return true
		}
	}
	if s.lock != nil && (s.locked || s.lock.IsClosed()) {
		s.lock.Close(context.Background()) // the lock went with the connection
		s.lock, s.locked = nil, false
	}
	if s.lock == nil {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return false
		}
		s.lock = conn
	}
	// One lock per schema, so tests on schemas of one database do not share it.
	err := s.lock.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext('studio builder ' || current_schema()))`).Scan(&s.locked)
	if err != nil {
		s.lock.Close(context.Background())
		s.lock, s.locked = nil, false
	}
	return s.locked
}

// State is what the copies share of a moment: the live release, main, and
// whether a build of main was asked for.
type State struct {
	Live, Main   string
	PublishAsked bool
}

func (s *Shared) State(ctx context.Context) (State, error) {
	var st State
	var asked sql.NullTime
	err := s.db.QueryRowContext(ctx, `SELECT live, main, publish_asked FROM publishing_state`).Scan(&st.Live, &st.Main, &asked)
	st.PublishAsked = asked.Valid
	return st, err
}

// SetLive makes id the live release of every copy.
func (s *Shared) SetLive(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE publishing_state SET live = $1`, id); err != nil {
		return fmt.Errorf("publish: recording the live release: %w", err)
	}
	s.announce(ctx, "live")
	return nil
}

// AskPublish asks the copy that builds to build main now.
func (s *Shared) AskPublish(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE publishing_state SET publish_asked = now()`); err != nil {
		return err
	}
	s.announce(ctx, "publish")
	return nil
}

// TakePublishRequest says whether a build was asked for, and clears it.
func (s *Shared) TakePublishRequest(ctx context.Context) bool {
	res, err := s.db.ExecContext(ctx, `UPDATE publishing_state SET publish_asked = NULL WHERE publish_asked IS NOT NULL`)
	if err != nil {
		return false
	}
	n, _ := res.RowsAffected()
	return n > 0
}

// The records: release.json of each release, as Releases keeps them on disk.

func (s *Shared) Get(id string) (Release, error) {
	var b []byte
	err := s.db.QueryRow(`SELECT record FROM releases WHERE id = $1`, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return Release{}, fmt.Errorf("publish: no release %q", id)
	}
	if err != nil {
		return Release{}, err
	}
	var r Release
	return r, json.Unmarshal(b, &r)
}

func (s *Shared) Put(r Release) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(`INSERT INTO releases (id, queued_at, record) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET record = excluded.record`, r.ID, r.QueuedAt, b)
	if err == nil {
		s.announce(context.Background(), "release")
	}
	return err
}

func (s *Shared) List() ([]Release, error) {
	rows, err := s.db.Query(`SELECT record FROM releases ORDER BY queued_at DESC, id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []Release
	for rows.Next() {
		var b []byte
		var r Release
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

// Remove deletes release id from the database and from this copy. Its
// files stay until DropUnusedFiles: an upload under way may be about to
// name them.
func (s *Shared) Remove(id string) error {
	if _, err := s.db.Exec(`DELETE FROM releases WHERE id = $1`, id); err != nil {
		return err
	}
	return s.local.Remove(id)
}

// DropUnusedFiles deletes the files no release holds any more, from the
// database and from this copy's blobs. The copy that builds calls it after
// a build, when no upload is under way.
func (s *Shared) DropUnusedFiles() error {
	_, err := s.db.Exec(`DELETE FROM release_blobs b WHERE NOT EXISTS (SELECT 1 FROM release_files f WHERE f.hash = b.hash)`)
	s.local.dropUnusedBlobs()
	return err
}

// Upload stores the files of release id (its directory on this copy) in
// the database, each file's bytes once whatever the number of releases
// holding it, and links them into this copy's blobs.
func (s *Shared) Upload(ctx context.Context, id string) error {
	dir := s.local.Dir(id)
	var paths []string
	var hashes [][]byte
	for _, half := range []string{"client", "content"} {
		err := filepath.WalkDir(filepath.Join(dir, half), func(name string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			hash, err := fileHash(name)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, name)
			paths, hashes = append(paths, filepath.ToSlash(rel)), append(hashes, hash)
			return s.keepBlob(name, hash)
		})
		if err != nil {
			return fmt.Errorf("publish: reading release %s: %w", id, err)
		}
	}
	// The list of its files too, so each copy checks its own (verify.go).
	hash, err := fileHash(filepath.Join(dir, manifestFile))
	if err == nil {
		paths, hashes = append(paths, manifestFile), append(hashes, hash)
		err = s.keepBlob(filepath.Join(dir, manifestFile), hash)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("publish: reading release %s: %w", id, err)
	}
	have := map[string]bool{}
	for start := 0; start < len(hashes); start += 1000 {
		rows, err := s.db.QueryContext(ctx, `SELECT hash FROM release_blobs WHERE hash = ANY($1)`, hashes[start:min(start+1000, len(hashes))])
		if err != nil {
			return err
		}
		for rows.Next() {
			var h []byte
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return err
			}
			have[string(h)] = true
		}
		rows.Close()
	}
	for i, h := range hashes {
		if have[string(h)] {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(paths[i])))
		if err != nil {
			return err
		}
		if sum := sha256.Sum256(body); !bytes.Equal(sum[:], h) {
			return fmt.Errorf("publish: release %s: %s changed while it was stored", id, paths[i])
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO release_blobs (hash, body) VALUES ($1, $2) ON CONFLICT DO NOTHING`, h, body); err != nil {
			return fmt.Errorf("publish: storing a file of release %s: %w", id, err)
		}
		have[string(h)] = true
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO release_files (release_id, path, hash)
		SELECT $1, p, h FROM unnest($2::text[], $3::bytea[]) AS f (p, h) ON CONFLICT DO NOTHING`, id, paths, hashes)
	if err != nil {
		return fmt.Errorf("publish: storing release %s: %w", id, err)
	}
	return nil
}

// Fetch makes release id's directory on this copy from the database, unless
// it is there already: the files this copy lacks are fetched, the others
// linked from its blobs. The directory appears whole or not at all.
func (s *Shared) Fetch(ctx context.Context, id string) error {
	if _, err := os.Stat(filepath.Join(s.local.Dir(id), "client")); err == nil {
		return nil // built here, or fetched before
	}
	r, err := s.Get(id)
	if err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT path, hash FROM release_files WHERE release_id = $1`, id)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for rows.Next() {
		var p string
		var h []byte
		if err := rows.Scan(&p, &h); err != nil {
			rows.Close()
			return err
		}
		files[p] = h
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("publish: release %s has no files in the database", id)
	}
	if err := os.MkdirAll(filepath.Join(s.local.dir, ".blobs"), 0o755); err != nil {
		return err
	}
	// The blobs this copy has are used only while their bytes still hash to
	// their names: a release's file written into would be another's too.
	var missing [][]byte
	seen := map[string]bool{}
	for _, h := range files {
		if seen[string(h)] {
			continue
		}
		seen[string(h)] = true
		if intact, err := s.blobIntact(h); !intact {
			if !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("publish: a shared blob was damaged; it is fetched again", damage(s.local.blobPath(h), err)...)
			}
			missing = append(missing, h)
		}
	}
	for start := 0; start < len(missing); start += 32 {
		rows, err := s.db.QueryContext(ctx, `SELECT hash, body FROM release_blobs WHERE hash = ANY($1)`, missing[start:min(start+32, len(missing))])
		if err != nil {
			return err
		}
		for rows.Next() {
			var h, body []byte
			if err := rows.Scan(&h, &body); err != nil {
				rows.Close()
				return err
			}
			if sum := sha256.Sum256(body); !bytes.Equal(sum[:], h) {
				rows.Close()
				return fmt.Errorf("publish: release %s: the database's copy of file %x does not hash to its name", id, h)
			}
			if err := writeAtomic(s.local.blobPath(h), body); err != nil {
				rows.Close()
				return err
			}
			if err := os.Chmod(s.local.blobPath(h), 0o444); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
	}
	tmp, err := os.MkdirTemp(s.local.dir, ".fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for p, h := range files {
		if !fs.ValidPath(p) {
			return fmt.Errorf("publish: release %s: a file outside the release: %q", id, p)
		}
		name := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.Link(s.local.blobPath(h), name); err != nil {
			return fmt.Errorf("publish: release %s: %s: %w", id, p, err)
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "release.json"), b, 0o644); err != nil {
		return err
	}
	os.RemoveAll(s.local.Dir(id)) // a directory left without its release.json
	return os.Rename(tmp, s.local.Dir(id))
}

func fileHash(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// The content repository's main, shared: the objects of each commit are
// stored in content_objects, and main moves by compare-and-set, so of two
// copies moving it at once one wins and the other's commit is kept aside.

// PushMain shares the local commit hash, made on top of old (the main this
// copy last shared), and moves the shared main to it. It returns false,
// changing nothing shared, when main moved meanwhile.
func (s *Shared) PushMain(ctx context.Context, repo *Repository, old, hash string) (bool, error) {
	repo.mu.Lock()
	defer repo.mu.Unlock()
	var ignore []plumbing.Hash
	if old != "" {
		ignore = append(ignore, plumbing.NewHash(old))
	}
	objects, err := revlist.Objects(repo.repo.Storer, []plumbing.Hash{plumbing.NewHash(hash)}, ignore)
	if err != nil {
		return false, fmt.Errorf("publish: the objects of commit %s: %w", hash, err)
	}
	for _, h := range objects {
		obj, err := repo.repo.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return false, err
		}
		rd, err := obj.Reader()
		if err != nil {
			return false, err
		}
		body, err := io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return false, err
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO content_objects (hash, kind, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			h.String(), int(obj.Type()), body); err != nil {
			return false, fmt.Errorf("publish: sharing the content: %w", err)
		}
	}
	res, err := s.db.ExecContext(ctx, `UPDATE publishing_state SET main = $1 WHERE main = $2`, hash, old)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	s.announce(ctx, "main")
	return true, nil
}

// Shares says whether commit hash is in the shared objects.
func (s *Shared) Shares(ctx context.Context, hash string) bool {
	var n int
	s.db.QueryRowContext(ctx, `SELECT count(*) FROM content_objects WHERE hash = $1`, hash).Scan(&n)
	return n > 0
}

// FetchCommit fetches the objects of the shared commit hash this copy
// lacks. An object is stored only after every object it names, so a fetch
// stopped halfway leaves nothing dangling.
func (s *Shared) FetchCommit(ctx context.Context, repo *Repository, hash string) error {
	repo.mu.Lock()
	defer repo.mu.Unlock()
	st := repo.repo.Storer
	var later []plumbing.EncodedObject // commits and trees, stored last, the first found last
	want := []plumbing.Hash{plumbing.NewHash(hash)}
	seen := map[plumbing.Hash]bool{}
	for len(want) > 0 {
		h := want[len(want)-1]
		want = want[:len(want)-1]
		if seen[h] || st.HasEncodedObject(h) == nil {
			continue
		}
		seen[h] = true
		var kind int
		var body []byte
		err := s.db.QueryRowContext(ctx, `SELECT kind, body FROM content_objects WHERE hash = $1`, h.String()).Scan(&kind, &body)
		if err != nil {
			return fmt.Errorf("publish: the shared content's object %s: %w", h, err)
		}
		obj := st.NewEncodedObject()
		obj.SetType(plumbing.ObjectType(kind))
		w, err := obj.Writer()
		if err != nil {
			return err
		}
		if _, err := w.Write(body); err != nil {
			return err
		}
		w.Close()
		switch obj.Type() {
		case plumbing.BlobObject:
			if _, err := st.SetEncodedObject(obj); err != nil {
				return err
			}
			continue
		case plumbing.CommitObject:
			c, err := object.DecodeCommit(st, obj)
			if err != nil {
				return err
			}
			want = append(append(want, c.TreeHash), c.ParentHashes...)
		case plumbing.TreeObject:
			t, err := object.DecodeTree(st, obj)
			if err != nil {
				return err
			}
			for _, e := range t.Entries {
				if e.Mode.IsFile() || e.Mode == filemode.Dir {
					want = append(want, e.Hash)
				}
			}
		}
		later = append(later, obj)
	}
	for i := len(later) - 1; i >= 0; i-- {
		if _, err := st.SetEncodedObject(later[i]); err != nil {
			return err
		}
	}
	return nil
}

// KeepAside names commit hash refs/heads/unshared-<time> in repo, so a
// commit that lost the race for main is not lost.
func KeepAside(repo *Repository, hash string) (string, error) {
	repo.mu.Lock()
	defer repo.mu.Unlock()
	name := plumbing.ReferenceName("refs/heads/unshared-" + time.Now().UTC().Format("20060102-150405"))
	return name.Short(), repo.repo.Storer.SetReference(plumbing.NewHashReference(name, plumbing.NewHash(hash)))
}

// The blobs of this copy: DATA_DIR/releases/.blobs/<sha256>, the files of
// its releases hard-linked to them.

func (rs *Releases) blobPath(hash []byte) string {
	return filepath.Join(rs.dir, ".blobs", hex.EncodeToString(hash))
}

// keepBlob links file, whose SHA-256 is hash, into the blobs, read-only,
// when they lack its bytes; a blob whose bytes no longer hash to its name
// is replaced (the releases holding it keep the damaged bytes).
func (s *Shared) keepBlob(file string, hash []byte) error {
	blob := s.local.blobPath(hash)
	intact, err := s.blobIntact(hash)
	if intact {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("publish: a shared blob was damaged; it is replaced", damage(blob, err)...)
	}
	if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(file, 0o444); err != nil {
		return err
	}
	// Linked under a temporary name, then renamed over a damaged blob.
	tmp := filepath.Join(filepath.Dir(blob), fmt.Sprintf(".tmp-%x-%d", hash, time.Now().UnixNano()))
	if err := os.Link(file, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, blob); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// blobIntact says whether this copy's blob of hash holds bytes whose
// SHA-256 is hash, and why not when it cannot be read.
func (s *Shared) blobIntact(hash []byte) (bool, error) {
	sum, err := fileHash(s.local.blobPath(hash))
	if err != nil {
		return false, err
	}
	return bytes.Equal(sum, hash), nil
}

// dropUnusedBlobs deletes the blobs no release of this copy links to.
func (rs *Releases) dropUnusedBlobs() {
	entries, _ := os.ReadDir(filepath.Join(rs.dir, ".blobs"))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink == 1 && !strings.HasPrefix(e.Name(), ".tmp-") {
				os.Remove(filepath.Join(rs.dir, ".blobs", e.Name()))
			}
		}
	}
}
