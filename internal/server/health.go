package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	// Below this much free space where the database lives, the server says
	// it is not ready: enquiries are about to fail.
	minFreeBytes = 64 << 20
	// After an enquiry or sign-up fails to be stored, readiness fails for
	// this long, so a burst of failed writes shows at once, not at the
	// next probe.
	writeFailureShows = 30 * time.Second
	readyCheckTimeout = 2 * time.Second
	// /readyz is public: its database write runs at most this often, and
	// callers in between share the answer, so a flood of probes cannot
	// queue writes ahead of the visitors' enquiries.
	readyCheckEvery = time.Second
)

// health is what /readyz knows beyond its own checks.
type health struct {
	dataDir          string // where the SQLite database lives; "" when there is none to watch (PostgreSQL)
	freeBytes        func(dir string) (uint64, error)
	lastWriteFailure atomic.Int64 // unix nanoseconds; 0: none

	checkMu     sync.Mutex
	checkedAt   time.Time
	checkReason string // the last check's answer: "" when ready
}

func diskFreeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// writeFailed records that storing a visitor's enquiry or sign-up failed,
// unless only because the visitor went away.
func (s *Server) writeFailed(operation string, at time.Time, err error) {
	if !errors.Is(err, context.Canceled) {
		s.health.lastWriteFailure.Store(at.UnixNano())
		s.metrics.dbErrors.WithLabelValues(operation).Inc()
	}
}

// healthz is liveness: the process answers. A supervisor restarts it when
// this fails; a database problem is not cured by a restart, so it is not
// checked here but in readyz.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is readiness: the server can take enquiries now. The database
// answers and accepts a write, there is room on its disk, and no
// enquiry failed to be stored in the last writeFailureShows.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if reason := s.notReady(r.Context()); reason != "" {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": reason})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) notReady(ctx context.Context) string {
	if s.store == nil {
		return ""
	}
	now := s.now()
	if at := s.health.lastWriteFailure.Load(); at != 0 && now.Sub(time.Unix(0, at)) < writeFailureShows {
		return "an enquiry could not be stored in the last " + writeFailureShows.String()
	}
	h := &s.health
	h.checkMu.Lock()
	defer h.checkMu.Unlock()
	if !h.checkedAt.IsZero() && now.Sub(h.checkedAt) >= 0 && now.Sub(h.checkedAt) < readyCheckEvery {
		return h.checkReason
	}
	h.checkReason = s.checkReady(ctx, now)
	h.checkedAt = now
	return h.checkReason
}

// checkReady is readiness's own checks: a write, and room on the disk.
func (s *Server) checkReady(ctx context.Context, now time.Time) string {
	ctx, cancel := context.WithTimeout(ctx, readyCheckTimeout)
	defer cancel()
	if err := s.store.CheckWrite(ctx, now); err != nil {
		s.log.Error("readyz: database write", "err", err)
		s.metrics.dbErrors.WithLabelValues("check_write").Inc()
		return "the database does not accept writes"
	}
	if s.health.dataDir != "" {
		free, err := s.health.freeBytes(s.health.dataDir)
		if err != nil {
			s.log.Error("readyz: disk space", "err", err)
			return "the free space of DATA_DIR cannot be read"
		}
		if free < minFreeBytes {
			return "DATA_DIR's disk is nearly full"
		}
	}
	return ""
}
