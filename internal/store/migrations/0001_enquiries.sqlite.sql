CREATE TABLE enquiries (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	kind         TEXT NOT NULL,
	name         TEXT NOT NULL,
	email        TEXT NOT NULL,
	phone        TEXT NOT NULL DEFAULT '',
	message      TEXT NOT NULL DEFAULT '',
	product_id   INTEGER,
	product_name TEXT NOT NULL DEFAULT '',
	material     TEXT NOT NULL DEFAULT '',
	finish       TEXT NOT NULL DEFAULT '',
	spam         BOOLEAN NOT NULL DEFAULT FALSE,
	created_at   TIMESTAMP NOT NULL,
	handled_at   TIMESTAMP
);
CREATE INDEX enquiries_inbox ON enquiries (spam, kind, id);

CREATE TABLE newsletter_subscribers (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	email      TEXT NOT NULL,
	email_key  TEXT NOT NULL UNIQUE,
	created_at TIMESTAMP NOT NULL
);

-- One row per e-mail the studio should get about an enquiry, written in the
-- enquiry's transaction so a restart never forgets one. Times are unix
-- milliseconds so both databases compare them the same way.
CREATE TABLE mail_outbox (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	enquiry_id      INTEGER NOT NULL REFERENCES enquiries (id),
	attempts        INTEGER NOT NULL DEFAULT 0,
	claim           INTEGER NOT NULL DEFAULT 0,
	next_attempt_ms BIGINT NOT NULL,
	last_error      TEXT NOT NULL DEFAULT '',
	sent_ms         BIGINT,
	failed_ms       BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_ms) WHERE sent_ms IS NULL AND failed_ms IS NULL;
