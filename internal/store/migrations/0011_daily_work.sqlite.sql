-- The studio's daily work (issue 29): replies sent from the inbox, roles
-- and names on accounts, and mails that are not about an enquiry (an
-- invitation, a password reset, a newsletter confirmation).

-- An account's name signs its replies; its role is owner (everything) or
-- staff (the inbox and content drafts). Existing accounts are owners.
ALTER TABLE accounts ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'owner';

-- A reply the studio wrote in the inbox: what was sent, by whom, to whom.
-- Its delivery is its row in mail_outbox (recipient 'reply', ref_id).
-- form_key is the reply form's own key: a form sent twice (a double
-- click, a reload) is one reply.
CREATE TABLE enquiry_replies (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	enquiry_id      INTEGER NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
	author          TEXT NOT NULL,
	author_name     TEXT NOT NULL DEFAULT '',
	to_address      TEXT NOT NULL,
	subject         TEXT NOT NULL,
	body            TEXT NOT NULL,
	form_key        TEXT NOT NULL UNIQUE,
	attachment_name TEXT NOT NULL DEFAULT '',
	attachment      BLOB,
	created_at      TIMESTAMP NOT NULL
);
CREATE INDEX enquiry_replies_enquiry ON enquiry_replies (enquiry_id, id);

-- The outbox takes every kind of mail: enquiry_id is empty for a mail that
-- is about no enquiry, ref_id names the row it is about (the reply, the
-- account, the subscriber), queued_ms is when it was queued (a mailed
-- link's validity counts from it). recipient is checked by the worker, so
-- a new kind needs no new table. SQLite cannot drop a NOT NULL or a
-- CHECK: the table is made again.
CREATE TABLE mail_outbox_new (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	enquiry_id      INTEGER REFERENCES enquiries (id),
	recipient       TEXT NOT NULL DEFAULT 'studio',
	ref_id          INTEGER,
	queued_ms       BIGINT NOT NULL DEFAULT 0,
	attempts        INTEGER NOT NULL DEFAULT 0,
	claim           INTEGER NOT NULL DEFAULT 0,
	next_attempt_ms BIGINT NOT NULL,
	last_error      TEXT NOT NULL DEFAULT '',
	sent_ms         BIGINT,
	failed_ms       BIGINT
);
INSERT INTO mail_outbox_new (id, enquiry_id, recipient, queued_ms, attempts, claim, next_attempt_ms, last_error, sent_ms, failed_ms)
	SELECT id, enquiry_id, recipient, next_attempt_ms, attempts, claim, next_attempt_ms, last_error, sent_ms, failed_ms FROM mail_outbox;
DROP TABLE mail_outbox;
ALTER TABLE mail_outbox_new RENAME TO mail_outbox;
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_ms) WHERE sent_ms IS NULL AND failed_ms IS NULL;
CREATE INDEX mail_outbox_by_enquiry ON mail_outbox (enquiry_id);
