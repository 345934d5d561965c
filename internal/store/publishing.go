package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// Publishing shared by the copies of the server on one PostgreSQL database
// (migration 0010; internal/publish's Shared): the releases' records and
// files, content-addressed; which release is live; the content
// repository's main and its objects; which copy builds (an advisory lock).
// A change is announced on the channel studio_publishing. SQLite has no
// copies to share with, and none of these tables.

// ErrNotShared is the answer of the publishing methods on SQLite.
var ErrNotShared = errors.New("store: publishing is shared only on PostgreSQL")

// ErrNoRelease is ReleaseRecord's answer for an id the database has not.
var ErrNoRelease = errors.New("store: no such release")

const publishingChannel = "studio_publishing"

// publishing is the pool the publishing methods use: PostgreSQL's.
func (s *Store) publishing() (*sql.DB, error) {
	if s.dialect != Postgres {
		return nil, ErrNotShared
	}
	return s.write, nil
}

// PublishingState is what the copies share of a moment: the live release,
// main, and whether a build of main was asked for.
type PublishingState struct {
	Live, Main   string
	PublishAsked bool
}

// PublishingState reads the shared state.
func (s *Store) PublishingState(ctx context.Context) (PublishingState, error) {
	var st PublishingState
	db, err := s.publishing()
	if err != nil {
		return st, err
	}
	var asked sql.NullTime
	err = db.QueryRowContext(ctx, `SELECT live, main, publish_asked FROM publishing_state`).Scan(&st.Live, &st.Main, &asked)
	st.PublishAsked = asked.Valid
	return st, err
}

// Announce tells every copy listening (ListenPublishing) that what
// changed.
func (s *Store) Announce(ctx context.Context, what string) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, publishingChannel, what)
	}
	return err
}

// ListenPublishing calls notice for each announcement until ctx ends or
// the connection drops (its error). It holds a connection of the pool
// for as long, and closes it after: a connection that listened is not
// given to another query.
func (s *Store) ListenPublishing(ctx context.Context, notice func()) error {
	db, err := s.publishing()
	if err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var listenErr error
	conn.Raw(func(dc any) error {
		pg := dc.(*stdlib.Conn).Conn()
		if _, listenErr = pg.Exec(ctx, "LISTEN "+publishingChannel); listenErr == nil {
			for {
				if _, listenErr = pg.WaitForNotification(ctx); listenErr != nil {
					break
				}
				notice()
			}
		}
		return driver.ErrBadConn // closed, not put back in the pool
	})
	return listenErr
}

// SetLiveRelease records id as the live release of every copy.
func (s *Store) SetLiveRelease(ctx context.Context, id string) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `UPDATE publishing_state SET live = $1`, id)
	}
	return err
}

// AskPublish records that a build of main was asked for.
func (s *Store) AskPublish(ctx context.Context) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `UPDATE publishing_state SET publish_asked = now()`)
	}
	return err
}

// TakePublishRequest says whether a build was asked for, and clears it.
func (s *Store) TakePublishRequest(ctx context.Context) (bool, error) {
	db, err := s.publishing()
	if err != nil {
		return false, err
	}
	res, err := db.ExecContext(ctx, `UPDATE publishing_state SET publish_asked = NULL WHERE publish_asked IS NOT NULL`)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// MoveMain moves the shared main from old to main, and says whether it
// did: not when another copy moved it meanwhile.
func (s *Store) MoveMain(ctx context.Context, old, main string) (bool, error) {
	db, err := s.publishing()
	if err != nil {
		return false, err
	}
	res, err := db.ExecContext(ctx, `UPDATE publishing_state SET main = $1 WHERE main = $2`, main, old)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ReleaseRecord reads release id's record (its release.json);
// ErrNoRelease when there is none.
func (s *Store) ReleaseRecord(ctx context.Context, id string) ([]byte, error) {
	db, err := s.publishing()
	if err != nil {
		return nil, err
	}
	var b []byte
	err = db.QueryRowContext(ctx, `SELECT record FROM releases WHERE id = $1`, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoRelease
	}
	return b, err
}

// PutReleaseRecord writes release id's record, queued at queuedAt.
func (s *Store) PutReleaseRecord(ctx context.Context, id string, queuedAt time.Time, record []byte) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `INSERT INTO releases (id, queued_at, record) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO UPDATE SET record = excluded.record`, id, queuedAt, record)
	}
	return err
}

// ReleaseRecords reads every release's record, newest first.
func (s *Store) ReleaseRecords(ctx context.Context) ([][]byte, error) {
	db, err := s.publishing()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT record FROM releases ORDER BY queued_at DESC, id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		list = append(list, b)
	}
	return list, rows.Err()
}

// DeleteRelease deletes release id and its list of files. Its files' bytes
// stay until DropUnusedReleaseFiles.
func (s *Store) DeleteRelease(ctx context.Context, id string) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `DELETE FROM releases WHERE id = $1`, id)
	}
	return err
}

// DropUnusedReleaseFiles deletes the files' bytes no release holds.
func (s *Store) DropUnusedReleaseFiles(ctx context.Context) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `DELETE FROM release_blobs b WHERE NOT EXISTS (SELECT 1 FROM release_files f WHERE f.hash = b.hash)`)
	}
	return err
}

// ReleaseBlobsHeld says which of hashes (SHA-256) the database holds the
// bytes of.
func (s *Store) ReleaseBlobsHeld(ctx context.Context, hashes [][]byte) (map[string]bool, error) {
	db, err := s.publishing()
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for start := 0; start < len(hashes); start += 1000 {
		rows, err := db.QueryContext(ctx, `SELECT hash FROM release_blobs WHERE hash = ANY($1)`, hashes[start:min(start+1000, len(hashes))])
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var h []byte
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return nil, err
			}
			have[string(h)] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return have, nil
}

// PutReleaseBlob stores the bytes of a release's file by their SHA-256.
func (s *Store) PutReleaseBlob(ctx context.Context, hash, body []byte) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `INSERT INTO release_blobs (hash, body) VALUES ($1, $2) ON CONFLICT DO NOTHING`, hash, body)
	}
	return err
}

// PutReleaseFiles lists release id's files: paths[i] holds the bytes of
// hashes[i], stored before.
func (s *Store) PutReleaseFiles(ctx context.Context, id string, paths []string, hashes [][]byte) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `INSERT INTO release_files (release_id, path, hash)
			SELECT $1, p, h FROM unnest($2::text[], $3::bytea[]) AS f (p, h) ON CONFLICT DO NOTHING`, id, paths, hashes)
	}
	return err
}

// ReleaseFiles is release id's list of files: path → SHA-256.
func (s *Store) ReleaseFiles(ctx context.Context, id string) (map[string][]byte, error) {
	db, err := s.publishing()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT path, hash FROM release_files WHERE release_id = $1`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	files := map[string][]byte{}
	for rows.Next() {
		var p string
		var h []byte
		if err := rows.Scan(&p, &h); err != nil {
			return nil, err
		}
		files[p] = h
	}
	return files, rows.Err()
}

// ReleaseBlobs calls each with the bytes of each of hashes the database
// holds, a few at a time (a photograph is megabytes).
func (s *Store) ReleaseBlobs(ctx context.Context, hashes [][]byte, each func(hash, body []byte) error) error {
	db, err := s.publishing()
	if err != nil {
		return err
	}
	for start := 0; start < len(hashes); start += 32 {
		rows, err := db.QueryContext(ctx, `SELECT hash, body FROM release_blobs WHERE hash = ANY($1)`, hashes[start:min(start+32, len(hashes))])
		if err != nil {
			return err
		}
		for rows.Next() {
			var h, body []byte
			if err = rows.Scan(&h, &body); err == nil {
				err = each(h, body)
			}
			if err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// PutContentObject stores a git object of the content repository.
func (s *Store) PutContentObject(ctx context.Context, hash string, kind int, body []byte) error {
	db, err := s.publishing()
	if err == nil {
		_, err = db.ExecContext(ctx, `INSERT INTO content_objects (hash, kind, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, hash, kind, body)
	}
	return err
}

// ContentObject reads the git object hash of the content repository.
func (s *Store) ContentObject(ctx context.Context, hash string) (kind int, body []byte, err error) {
	db, err := s.publishing()
	if err != nil {
		return 0, nil, err
	}
	err = db.QueryRowContext(ctx, `SELECT kind, body FROM content_objects WHERE hash = $1`, hash).Scan(&kind, &body)
	return kind, body, err
}

// HasContentObject says whether the git object hash is shared.
func (s *Store) HasContentObject(ctx context.Context, hash string) (bool, error) {
	db, err := s.publishing()
	if err != nil {
		return false, err
	}
	var n int
	err = db.QueryRowContext(ctx, `SELECT count(*) FROM content_objects WHERE hash = $1`, hash).Scan(&n)
	return n > 0, err
}

// A BuilderLock makes one copy of the server the one that builds: a
// session lock held on a connection of the pool kept for it. When the
// copy stops, or its connection is lost, another copy takes it.
type BuilderLock struct {
	db   *sql.DB
	mu   sync.Mutex
	conn *sql.Conn // holds (or asks for) the lock
	held bool
}

// BuilderLock is the lock of the copies on this database.
func (s *Store) BuilderLock() (*BuilderLock, error) {
	db, err := s.publishing()
	if err != nil {
		return nil, err
	}
	return &BuilderLock{db: db}, nil
}

// Try takes the lock when no other copy holds it, and says whether this
// copy holds it.
func (l *BuilderLock) Try(ctx context.Context) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil && l.held {
		if err := l.conn.PingContext(ctx); err == nil {
			return true
		}
		l.drop() // the lock went with the connection
	}
	if l.conn == nil {
		conn, err := l.db.Conn(ctx)
		if err != nil {
			return false
		}
		l.conn = conn
	}
	// One lock per schema, so tests on schemas of one database do not share it.
	err := l.conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtext('studio builder ' || current_schema()))`).Scan(&l.held)
	if err != nil {
		l.drop()
	}
	return l.held
}

// Close gives the lock up.
func (l *BuilderLock) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.drop()
}

// drop closes the lock's connection, never putting it back in the pool
// (it would keep the lock). The caller holds l.mu.
func (l *BuilderLock) drop() {
	if l.conn != nil {
		l.conn.Raw(func(any) error { return driver.ErrBadConn })
		l.conn.Close()
	}
	l.conn, l.held = nil, false
}
