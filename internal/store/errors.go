package store

import (
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsInputError reports whether the database refused a statement for the
// data it was given (PostgreSQL's class 22, "data exception": a NUL in
// text, bytes that are not UTF-8, a number out of range) rather than
// failing itself. The server checks input at the edge (package input), so
// this is the net under it: such an error is the request's, never a sign
// that the database is unwell.
func IsInputError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && len(pgErr.Code) == 5 && pgErr.Code[:2] == "22"
}

// RetryAfter is how long a client whose request the database did not
// answer (in time) is told to wait before trying again: the Retry-After
// of the site's and the workspace's 503s.
const RetryAfter = 5 * time.Second
