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
	id              BIGSERIAL PRIMARY KEY,
	enquiry_id      BIGINT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
	author          TEXT NOT NULL,
	author_name     TEXT NOT NULL DEFAULT '',
	to_address      TEXT NOT NULL,
	subject         TEXT NOT NULL,
	body            TEXT NOT NULL,
	form_key        TEXT NOT NULL UNIQUE,
	attachment_name TEXT NOT NULL DEFAULT '',
	attachment      BYTEA,
	created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX enquiry_replies_enquiry ON enquiry_replies (enquiry_id, id);

-- The outbox takes every kind of mail: enquiry_id is empty for a mail that
-- is about no enquiry, ref_id names the row it is about (the reply, the
-- account, the subscriber), queued_ms is when it was queued (a mailed
-- link's validity counts from it). recipient is checked by the worker, so
-- a new kind needs no new table.
ALTER TABLE mail_outbox DROP CONSTRAINT IF EXISTS mail_outbox_recipient_check;
ALTER TABLE mail_outbox ALTER COLUMN enquiry_id DROP NOT NULL;
ALTER TABLE mail_outbox ADD COLUMN ref_id BIGINT;
ALTER TABLE mail_outbox ADD COLUMN queued_ms BIGINT NOT NULL DEFAULT 0;
UPDATE mail_outbox SET queued_ms = next_attempt_ms;
