-- Sessions a person can tell apart and end one by one, and invitations
-- that name who sent them (issue 48); the same SQL runs on both databases.
--
-- user_agent and network: the browser's User-Agent and the network it was
-- last used from (its address cut to a /24, or a /48 for IPv6: no more is
-- shown, so no more is kept), both as of its latest use.
-- ended_ms and ended_why: a session ended from another browser
-- ('elsewhere') is kept, ended, until its cookie is gone too (7 days
-- unused), so the browser that held it is told why on its next request,
-- and what it was sending is kept through the sign-in. It opens nothing.
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN network TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN ended_ms BIGINT;
ALTER TABLE sessions ADD COLUMN ended_why TEXT NOT NULL DEFAULT '';

-- invited_by: the name (or e-mail) of the owner who sent an account's
-- latest invitation, which the invitation mail names.
ALTER TABLE accounts ADD COLUMN invited_by TEXT NOT NULL DEFAULT '';
