-- Failed sign-ins (and the tries being checked: each is written here as a
-- failure before its password is checked, and deleted when it was right),
-- so that the limits hold across concurrent requests and every copy of the
-- server on one database. account is the e-mail as tried (store.AccountKey),
-- whether or not an account has it; address is the visitor's (an IPv6 one
-- by its /64); at_ms is unix milliseconds. Rows past the time they are
-- shown to the account's holder are deleted as new ones come. No id
-- column, so the same SQL runs on SQLite and PostgreSQL.
CREATE TABLE sign_in_failures (
	account TEXT NOT NULL,
	address TEXT NOT NULL,
	at_ms   BIGINT NOT NULL
);
-- The pair's count (and, by its prefix, an account's for unlock and for
-- the inbox), the address's count, and the clearing of old rows.
CREATE INDEX sign_in_failures_pair ON sign_in_failures (account, address, at_ms);
CREATE INDEX sign_in_failures_address ON sign_in_failures (address, at_ms);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at_ms);
