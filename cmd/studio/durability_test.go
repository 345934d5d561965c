package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"studio/internal/store"
)

// TestAcknowledgedEnquiriesSurviveSIGKILL runs the server as a child
// process, sends enquiries from several clients at once, and kills the
// server with SIGKILL at random moments, restarting it each time. Every
// enquiry that was answered 201 must be in the database afterwards,
// exactly once, under the id the answer gave. Each client sends an
// enquiry again, with the same idempotency key, until it is answered, so
// an enquiry committed just before a kill is retried: it must not be
// stored twice.
func TestAcknowledgedEnquiriesSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills and restarts a server many times")
	}
	const (
		clients   = 8
		wantAcked = 1000 // docs/testing.md's figure
		minKills  = 20
	)
	dataDir := t.TempDir()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	// Each request names its own visitor through X-Forwarded-For, which the
	// server believes from loopback, so the per-visitor limit stays out of
	// the way of this many enquiries.
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+dataDir, "TRUSTED_PROXIES=127.0.0.1,::1",
		"DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=")

	start := func() *exec.Cmd { return launch(t, base, env) }

	var (
		mu      sync.Mutex
		acked   = map[string]int64{} // marker → id
		nAcked  atomic.Int64
		stop    atomic.Bool
		ipSeq   atomic.Uint32
		clientW sync.WaitGroup
	)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var resent atomic.Int64 // attempts sent again after their answer was lost
	for c := 0; c < clients; c++ {
		clientW.Go(func() {
			for seq := 0; !stop.Load(); seq++ {
				// Each enquiry carries an idempotency key and is sent again,
				// as it is, until it is answered: an attempt whose answer was
				// lost (the server was killed, perhaps mid-commit) may be
				// stored, and its retry must then answer its id, not store it
				// twice.
				marker := fmt.Sprintf("durability c%d s%d", c, seq)
				body, _ := json.Marshal(map[string]any{"kind": "contact", "name": "Durable", "email": "d@example.com", "message": marker,
					"idempotencyKey": fmt.Sprintf("durability-c%d-s%d", c, seq)})
				for attempt := 0; !stop.Load(); attempt++ {
					if attempt > 0 {
						resent.Add(1)
					}
					req, _ := http.NewRequest("POST", base+"/api/enquiries", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					n := ipSeq.Add(1)
					req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
					resp, err := client.Do(req)
					if err != nil {
						time.Sleep(2 * time.Millisecond) // the server is down: try again soon
						continue
					}
					var got struct{ ID int64 }
					json.NewDecoder(resp.Body).Decode(&got)
					resp.Body.Close()
					if resp.StatusCode == http.StatusCreated {
						mu.Lock()
						acked[marker] = got.ID
						mu.Unlock()
						nAcked.Add(1)
						break
					}
					if resp.StatusCode != http.StatusServiceUnavailable {
						t.Errorf("%s: status %d", marker, resp.StatusCode)
						break
					}
				}
			}
		})
	}

	cmd := start()
	kills := 0
	// No time limit on the run itself: only a server that stops
	// acknowledging anything for a long while fails it.
	progress, progressAt := nAcked.Load(), time.Now()
	for nAcked.Load() < wantAcked || kills < minKills {
		if n := nAcked.Load(); n > progress {
			progress, progressAt = n, time.Now()
		} else if time.Since(progressAt) > time.Minute {
			break
		}
		time.Sleep(time.Duration(20+rand.IntN(150)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		kills++
		cmd = start()
	}
	stop.Store(true)
	clientW.Wait()
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	if n := nAcked.Load(); n < wantAcked || kills < minKills {
		t.Fatalf("stuck at %d acknowledged enquiries across %d kills: nothing acknowledged for a minute; want %d across %d", n, kills, wantAcked, minKills)
	}

	st, err := store.OpenSQLite(context.Background(), filepath.Join(dataDir, "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Enquiries(context.Background(), store.EnquiryFilter{AllSpam: true})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]int64{}
	for _, e := range all {
		if strings.HasPrefix(e.Message, "durability ") {
			stored[e.Message] = append(stored[e.Message], e.ID)
		}
	}
	lost, doubled := 0, 0
	for marker, id := range acked {
		ids := stored[marker]
		switch {
		case len(ids) == 0:
			lost++
			if lost <= 5 {
				t.Errorf("%s was acknowledged as #%d but is not stored", marker, id)
			}
		case len(ids) > 1 || ids[0] != id:
			doubled++
			t.Errorf("%s was acknowledged as #%d but is stored as %v", marker, id, ids)
		}
	}
	// An enquiry still unanswered when the clients stopped may be stored,
	// but once at most.
	for marker, ids := range stored {
		if _, ok := acked[marker]; !ok && len(ids) > 1 {
			doubled++
			t.Errorf("%s (unanswered) is stored as %v", marker, ids)
		}
	}
	t.Logf("%d enquiries acknowledged across %d SIGKILLs, %d attempts sent again after a lost answer; %d stored; %d lost, %d wrong",
		len(acked), kills, resent.Load(), len(all), lost, doubled)
}
