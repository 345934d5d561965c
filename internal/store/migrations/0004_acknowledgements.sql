-- Each enquiry that is mailed now has two mails in the outbox: the studio's
-- copy and the acknowledgement to the visitor. recipient says whom a mail
-- is for; the worker composes it by that. Rows from before are the
-- studio's copies. The same SQL runs on SQLite and PostgreSQL.
ALTER TABLE mail_outbox ADD COLUMN recipient TEXT NOT NULL DEFAULT 'studio' CHECK (recipient IN ('studio', 'visitor'));

-- The inbox asks for the mails of the enquiries on one page.
CREATE INDEX IF NOT EXISTS mail_outbox_by_enquiry ON mail_outbox (enquiry_id);
