-- One row the readiness check rewrites: proof that the database still
-- accepts writes (a full disk or a read-only file makes it fail).
CREATE TABLE readiness (id INTEGER PRIMARY KEY, checked_at BIGINT NOT NULL);
