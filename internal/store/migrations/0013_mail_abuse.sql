-- Mails that cannot be turned against their readers (issue 44); the same
-- SQL runs on both databases.
--
-- sign_in_address: the address (scheme://host) the workspace was last
-- signed in at by an owner. Mailed links start with it when neither
-- PUBLIC_URL nor DOMAIN says the server's address, never with content's
-- baseUrl. One row.
CREATE TABLE sign_in_address (
	id           INTEGER PRIMARY KEY CHECK (id = 1),
	base_url     TEXT NOT NULL,
	signed_in_ms BIGINT NOT NULL
);

