package server

import (
	"log/slog"
)

// discardLog is a logger for tests that do not read the log.
func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }
