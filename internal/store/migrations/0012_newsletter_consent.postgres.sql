-- Double opt-in and unsubscribing (issue 29): an address counts as
-- subscribed once confirmed_at is set and while unsubscribed_at is not.
-- requested_ms is when the latest confirmation was asked for (unix
-- milliseconds, compared alike in both databases): an address left
-- unconfirmed for seven days after it is dropped.
ALTER TABLE newsletter_subscribers ADD COLUMN confirmed_at TIMESTAMPTZ;
ALTER TABLE newsletter_subscribers ADD COLUMN unsubscribed_at TIMESTAMPTZ;
ALTER TABLE newsletter_subscribers ADD COLUMN requested_ms BIGINT NOT NULL DEFAULT 0;
-- The addresses already on the list signed up before double opt-in, when
-- signing up was enough: they count as confirmed from then.
UPDATE newsletter_subscribers SET confirmed_at = created_at;
