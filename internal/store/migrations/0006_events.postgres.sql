-- First-party analytics ("insights"). events holds the raw events of the
-- last weeks as the server received them; event_days their daily counts,
-- which are kept when the raw events are deleted. The two files differ only
-- in the id column and in event_days being clustered on its key in SQLite.
--
-- at is unix milliseconds; day is the day in the studio's time zone
-- (YYYY-MM-DD, compared as text); visitor is a daily-rotating salted hash;
-- empty is 0 or 1 (INTEGER reads the same in both databases).
CREATE TABLE events (
	id       BIGSERIAL PRIMARY KEY,
	at       BIGINT NOT NULL,
	day      TEXT NOT NULL,
	visitor  TEXT NOT NULL,
	name     TEXT NOT NULL,
	path     TEXT NOT NULL DEFAULT '',
	product  BIGINT NOT NULL DEFAULT 0,
	label    TEXT NOT NULL DEFAULT '',
	empty    INTEGER NOT NULL DEFAULT 0,
	device   TEXT NOT NULL DEFAULT '',
	referrer TEXT NOT NULL DEFAULT '',
	campaign TEXT NOT NULL DEFAULT ''
);
CREATE INDEX events_day ON events (day);

-- One row per day, event name, dimension and value: dim '' (value '') counts
-- all events of the name; name '*' counts the day's events whatever their
-- name. visitors is the number of distinct visitor hashes that day.
CREATE TABLE event_days (
	day      TEXT NOT NULL,
	name     TEXT NOT NULL,
	dim      TEXT NOT NULL,
	value    TEXT NOT NULL,
	events   BIGINT NOT NULL,
	visitors BIGINT NOT NULL,
	PRIMARY KEY (day, name, dim, value)
);
-- The insights page reads one name and dimension over a range of days.
CREATE INDEX event_days_by_name ON event_days (name, dim, day, value, events, visitors);
