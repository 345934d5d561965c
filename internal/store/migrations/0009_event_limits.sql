-- Analytics with a ceiling (issue 25); the same SQL runs on both databases.
--
-- event_batches: the page's batchId of each batch stored, so a batch sent
-- again (a retry) is stored once: its insert is ON CONFLICT DO NOTHING in
-- the transaction of the batch's events. day is the day it was stored
-- (YYYY-MM-DD, the studio's time zone).
CREATE TABLE event_batches (
	id  TEXT PRIMARY KEY,
	day TEXT NOT NULL
);
CREATE INDEX event_batches_day ON event_batches (day);

-- event_quotas: the events stored each day, in all (scope '*') and per
-- sender (scope 'a:' and a keyed hash of the address, never the address),
-- counted by an upsert in the transaction of the events, so the daily caps
-- hold across copies of the server on one database. The rollup deletes
-- the rows of past days (store.RollUpEvents).
CREATE TABLE event_quotas (
	day    TEXT NOT NULL,
	scope  TEXT NOT NULL,
	events BIGINT NOT NULL,
	PRIMARY KEY (day, scope)
);
