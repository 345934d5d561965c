-- Exactly-once enquiries: a client may send an idempotency key with an
-- enquiry, and a retry with a key already stored stores nothing new (the
-- first enquiry's id is the answer). NULL for none: both SQLite and
-- PostgreSQL let a unique index hold any number of NULLs. The same SQL
-- runs on both.
ALTER TABLE enquiries ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX enquiries_idempotency_key ON enquiries (idempotency_key);

-- Random keys the copies of the server on this database share, made once
-- (store.Key): form_start signs the time a visitor started a form, so the
-- spam timer cannot be claimed by the client. secret is hex; created_ms is
-- unix milliseconds.
CREATE TABLE server_keys (
	name       TEXT PRIMARY KEY,
	secret     TEXT NOT NULL,
	created_ms BIGINT NOT NULL
);
