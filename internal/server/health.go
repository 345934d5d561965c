package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"studio/internal/store"
)

const (
	// Below this much free space where the database lives, the server says
	// it is not ready: enquiries are about to fail.
	minFreeBytes      = store.MinFreeBytes
	readyCheckTimeout = 2 * time.Second
	// /readyz is public: its database write runs at most this often, and
	// callers in between share the answer, so a flood of probes cannot
	// queue writes ahead of the visitors' enquiries. It is also how soon
	// readiness comes back once the database answers again.
	readyCheckEvery = time.Second
)

// writeFailed records that a request's database work failed: counted in
// /metrics, and the next /readyz checks the database at once. A visitor
// who went away, or input the database refused, says nothing of it.
func (s *Server) writeFailed(operation string, err error) {
	if errors.Is(err, context.Canceled) || store.IsInputError(err) {
		return
	}
	s.metrics.dbErrors.WithLabelValues(operation).Inc()
	s.health.recheck.Store(true)
}

// healthz is liveness: the process answers. A supervisor restarts it when
// this fails; a database problem is not cured by a restart, so it is not
// checked here but in readyz.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is readiness: the server can take enquiries now. The database
// answers and accepts a write, and there is room on its disk. The reason
// of a 503 names which. Either way the body names the live release.
// A publishing problem the publisher reported (a damaged release, and what
// serves instead) is said as "publishing"; while it holds the pages (no
// release can be served) the server is not ready.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request, rel *release) {
	body := map[string]string{"status": "ok", "release": rel.id}
	if rep := s.report.Load(); rep != nil {
		body["publishing"] = rep.problem
		if rep.hold {
			body["status"], body["reason"] = "unavailable", "publishing: "+rep.problem
			writeJSON(w, http.StatusServiceUnavailable, body)
			return
		}
	}
	if reason := s.notReady(r.Context()); reason != "" {
		body["status"], body["reason"] = "unavailable", reason
		writeJSON(w, http.StatusServiceUnavailable, body)
		return
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) notReady(ctx context.Context) string {
	if s.store == nil {
		return ""
	}
	now := s.now()
	h := &s.health
	h.checkMu.Lock()
	defer h.checkMu.Unlock()
	fresh := !h.checkedAt.IsZero() && now.Sub(h.checkedAt) >= 0 && now.Sub(h.checkedAt) < readyCheckEvery
	if fresh && !h.recheck.Swap(false) {
		return h.checkReason
	}
	h.checkReason = s.checkReady(ctx, now)
	h.checkedAt = now
	return h.checkReason
}

// checkReady is readiness's own checks: a write, and room on the disk.
func (s *Server) checkReady(ctx context.Context, now time.Time) string {
	// The probe's own deadline: a load balancer that hangs up does not
	// leave the answer unknown for the probes sharing it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyCheckTimeout)
	defer cancel()
	if err := s.store.CheckWrite(ctx, now); err != nil {
		s.log.Error("readyz: database write", "err", err)
		s.metrics.dbErrors.WithLabelValues("check_write").Inc()
		if errors.Is(err, context.DeadlineExceeded) {
			return "database: no answer to a write within " + readyCheckTimeout.String()
		}
		return "database: a write was refused"
	}
	if s.health.dataDir != "" {
		free, err := s.health.freeBytes(s.health.dataDir)
		if err != nil {
			s.log.Error("readyz: disk space", "err", err)
			return "disk: the free space of DATA_DIR cannot be read"
		}
		if free < minFreeBytes {
			return fmt.Sprintf("disk: DATA_DIR's disk has %d MiB free, less than %d MiB", free>>20, minFreeBytes>>20)
		}
	}
	return ""
}
