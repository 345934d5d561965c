-- The pieces of a shortlist's quote request, in the visitor's order
-- (position 0 first). product_name is the product's name when the request
-- was sent. Deleting an enquiry takes its pieces (ON DELETE CASCADE; SQLite
-- is opened with foreign_keys on). No id column of its own, so the same SQL
-- runs on SQLite and PostgreSQL.
CREATE TABLE enquiry_items (
	enquiry_id   BIGINT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
	position     INTEGER NOT NULL,
	product_id   INTEGER NOT NULL,
	product_name TEXT NOT NULL,
	material     TEXT NOT NULL DEFAULT '',
	finish       TEXT NOT NULL DEFAULT '',
	quantity     INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
	note         TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (enquiry_id, position)
);
-- The inbox's product filter finds an enquiry by any of its pieces.
CREATE INDEX enquiry_items_product ON enquiry_items (product_id, enquiry_id);
