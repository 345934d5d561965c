-- Publishing with more than one copy of the server (issue 27): what the
-- copies on one PostgreSQL database share. SQLite has no copies to share
-- with; each server keeps these in DATA_DIR (internal/publish).
--
-- release_blobs: every file of every release, by the SHA-256 of its bytes,
-- so a file unchanged between releases (a photograph, a script) is stored
-- once. release_files: which file is at which path of a release.
CREATE TABLE release_blobs (
	hash BYTEA PRIMARY KEY,
	body BYTEA NOT NULL
);
-- releases: each release's release.json (record); its files are in the
-- database once it is ready.
CREATE TABLE releases (
	id        TEXT PRIMARY KEY,
	queued_at TIMESTAMPTZ NOT NULL,
	record    JSONB NOT NULL
);
CREATE TABLE release_files (
	release_id TEXT NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
	path       TEXT NOT NULL,
	hash       BYTEA NOT NULL REFERENCES release_blobs (hash),
	PRIMARY KEY (release_id, path)
);
CREATE INDEX release_files_hash ON release_files (hash);
-- publishing_state: one row: the live release, the content repository's
-- main, and when a build of main was last asked for (studio publish, or
-- "Publish now" on a copy that is not the one building).
CREATE TABLE publishing_state (
	one          BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
	live         TEXT NOT NULL DEFAULT '',
	main         TEXT NOT NULL DEFAULT '',
	publish_asked TIMESTAMPTZ
);
INSERT INTO publishing_state DEFAULT VALUES;
-- content_objects: the content repository's git objects (commits, trees,
-- files) by their git hash, so every copy's DATA_DIR/content.git has main.
CREATE TABLE content_objects (
	hash TEXT PRIMARY KEY,
	kind SMALLINT NOT NULL,
	body BYTEA NOT NULL
);
