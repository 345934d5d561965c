package server

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/store"
)

// BenchmarkEnquiries reports how many enquiries per second the server
// accepts (201, on disk) from 16 concurrent clients over real HTTP, with
// SQLite in its durable settings (WAL, synchronous=FULL), and with
// PostgreSQL when STUDIO_TEST_DATABASE_URL names one. Run it with
// `make bench-enquiries`.
func BenchmarkEnquiries(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		st, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "studio.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkEnquiries(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		url := os.Getenv("STUDIO_TEST_DATABASE_URL")
		if url == "" {
			b.Skip("set STUDIO_TEST_DATABASE_URL to measure PostgreSQL too")
		}
		// A schema of its own, dropped after.
		schema := fmt.Sprintf("bench_%d", time.Now().UnixNano())
		admin, err := sql.Open("pgx", url)
		if err != nil {
			b.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			b.Fatal(err)
		}
		defer admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		st, err := store.OpenPostgres(context.Background(), url+sep+"search_path="+schema)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkEnquiries(b, st)
	})
}

func benchmarkEnquiries(b *testing.B, st *store.Store) {
	const clients = 16
	cat := testCatalogue(b, 1, 2)
	s, err := New(discardLog(), testBuild(), cat, WithStore(st),
		WithTrustedProxies([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}))
	if err != nil {
		b.Fatal(err)
	}
	// The request log goes nowhere, as it would cost the same in production.
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	body := []byte(`{"kind":"quote","name":"Asha Rao","email":"asha@example.com","phone":"+91 98290 41752","productId":1,"material":"Wood","finish":"Walnut","message":"Two chairs for a veranda, please.","fillMs":6000}`)
	elapsed, failed := postConcurrently(b, srv.URL+"/api/enquiries", func(int64) []byte { return body }, nil, clients, b.N, http.StatusCreated)
	if failed > 0 {
		b.Fatalf("%d of %d enquiries failed", failed, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "enquiries/s")
}

// postConcurrently sends total POSTs of body(n) (JSON; n counts from 1)
// to url from clients at once, each from a visitor of its own so that the per-visitor limit
// does not apply, with the given extra headers. It times only the sending,
// and counts the requests that failed or did not answer want.
func postConcurrently(b *testing.B, url string, body func(n int64) []byte, header http.Header, clients, total, want int) (elapsed time.Duration, failed int64) {
	b.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	var next, failures atomic.Int64
	b.ResetTimer()
	began := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				n := next.Add(1)
				if n > int64(total) {
					return
				}
				req, _ := http.NewRequest("POST", url, bytes.NewReader(body(n)))
				for k, v := range header {
					req.Header[k] = v
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != want {
					failures.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed = time.Since(began)
	b.StopTimer()
	return elapsed, failures.Load()
}
