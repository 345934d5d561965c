// Package datadir names every path inside DATA_DIR, the one folder a
// server keeps its state in: each path is one method here, and every
// package asks here rather than joining names of its own.
package datadir

import "path/filepath"

// Dir is DATA_DIR as configured (DATA_DIR, default ./data).
type Dir string

func (d Dir) path(elem ...string) string {
	return filepath.Join(append([]string{string(d)}, elem...)...)
}

// Database is the SQLite database (not used with PostgreSQL).
func (d Dir) Database() string { return d.path("studio.db") }

// Lock is the file a running server holds locked (store.LockDataDir).
func (d Dir) Lock() string { return d.path("studio.lock") }

// Certificates is where the TLS certificates from ACME are kept.
func (d Dir) Certificates() string { return d.path("certs") }

// Repository is the content's bare git repository (internal/publish/repo).
func (d Dir) Repository() string { return d.path("content.git") }

// Releases holds a folder per release and the live file
// (internal/publish/releases).
func (d Dir) Releases() string { return d.path("releases") }

// BuildScratch is where each build, and each content check, gets a folder
// of its own. It is emptied at every start: nothing in it outlives a run.
func (d Dir) BuildScratch() string { return d.path("releases", ".scratch") }

// BuildCache is the builder's caches, kept between builds
// (internal/publish/build).
func (d Dir) BuildCache() string { return d.path("build-cache") }

// ContentBlobs is the content's files by their git hash, shared by the
// exports of every build (repo.Repository.Blobs).
func (d Dir) ContentBlobs() string { return d.path("build-cache", "blobs") }

// Snapshots is the drafts' trees written out for previews, the last few
// (repo.Repository.Snapshots).
func (d Dir) Snapshots() string { return d.path("build-cache", "snapshots") }

// Uploads is where the workspace stages the photographs a person uploads
// until they are saved: kept across restarts, unlike BuildScratch.
func (d Dir) Uploads() string { return d.path("uploads") }
