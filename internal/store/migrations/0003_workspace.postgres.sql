-- The studio's workspace: named accounts, their sessions and tokens, and
-- an enquiry's status, notes and history.

-- email is stored lower-cased; password is an argon2id hash in PHC form.
CREATE TABLE accounts (
	id         BIGSERIAL PRIMARY KEY,
	email      TEXT NOT NULL UNIQUE,
	password   TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL
);

-- A session or a token is found by the SHA-256 of its secret, so the
-- database (or a backup of it) never holds a secret that opens the inbox.
-- Times are unix milliseconds, compared the same way in both databases.
CREATE TABLE sessions (
	secret_hash TEXT PRIMARY KEY,
	account_id  BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created_ms  BIGINT NOT NULL,
	seen_ms     BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE tokens (
	id          BIGSERIAL PRIMARY KEY,
	secret_hash TEXT NOT NULL UNIQUE,
	account_id  BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created_at  TIMESTAMPTZ NOT NULL,
	used_at     TIMESTAMPTZ
);

-- "Handled" becomes a status; an enquiry marked handled is archived.
ALTER TABLE enquiries ADD COLUMN status TEXT NOT NULL DEFAULT 'new';
UPDATE enquiries SET status = 'archived' WHERE handled_at IS NOT NULL;
ALTER TABLE enquiries DROP COLUMN handled_at;
CREATE INDEX enquiries_status ON enquiries (spam, status, id);

CREATE TABLE enquiry_notes (
	id         BIGSERIAL PRIMARY KEY,
	enquiry_id BIGINT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
	author     TEXT NOT NULL,
	body       TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX enquiry_notes_enquiry ON enquiry_notes (enquiry_id, id);

-- Who did what to which enquiry. No foreign key: the record of a deletion
-- outlives the enquiry (and keeps none of its text). action is status,
-- spam, note, undo or delete; undone marks a change taken back.
CREATE TABLE enquiry_events (
	id         BIGSERIAL PRIMARY KEY,
	enquiry_id BIGINT NOT NULL,
	actor      TEXT NOT NULL,
	action     TEXT NOT NULL,
	from_value TEXT NOT NULL DEFAULT '',
	to_value   TEXT NOT NULL DEFAULT '',
	undone     BOOLEAN NOT NULL DEFAULT FALSE,
	at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX enquiry_events_enquiry ON enquiry_events (enquiry_id, id);
