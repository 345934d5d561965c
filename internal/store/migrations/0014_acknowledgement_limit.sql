-- At most store.AcknowledgementsPerDay acknowledgements to one address
-- (issue 44): queueMails counts them, in the enquiry's transaction, from
-- the outbox and the enquiries to that address, found by this index. The
-- same SQL runs on both databases.
CREATE INDEX enquiries_by_address ON enquiries (LOWER(email));
