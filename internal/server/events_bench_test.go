package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"studio/internal/store"
)

// BenchmarkEvents reports how many analytics events per second the server
// keeps (204, committed to disk) from 64 concurrent clients over real HTTP,
// each request a batch of 20, with SQLite in its durable settings. Run it
// with `make bench-events`.
func BenchmarkEvents(b *testing.B) {
	const clients, perBatch = 64, 20
	st, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "studio.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	// Caps far above what is sent: every event is stored, and each batch
	// still pays for its id and its counts.
	s, err := New(discardLog(), testBuild(), testCatalogue(b, 1, 2), WithStore(st), WithEvents(st),
		WithTrustedProxies([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}), WithEventCaps(1<<40, 1<<40, bytes.Repeat([]byte{1}, 32)))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	// A visit's worth of events, as the page sends them.
	kinds := []string{
		`{"name":"page_view","path":"/products","params":{"page_path":"/products","referrer":"google.com"}}`,
		`{"name":"view_item","path":"/product/1","params":{"currency":"INR","items":[{"item_id":"1","item_name":"P","item_category":"Seatings"}]}}`,
		`{"name":"search","path":"/","params":{"search_term":"brass lamp","result_count":0,"location":"navbar"}}`,
		`{"name":"filter_usage","path":"/products","params":{"filter_type":"material","filter_value":"Wood","action":"add","result_count":4}}`,
		`{"name":"scroll_depth","path":"/product/1","params":{"percent":50,"page_path":"/product/1"}}`,
	}
	events := make([]string, perBatch)
	for i := range events {
		events[i] = kinds[i%len(kinds)]
	}
	body := func(n int64) []byte {
		return []byte(fmt.Sprintf(`{"batchId":"bench-batch-%016d","events":[%s]}`, n, strings.Join(events, ",")))
	}

	batches := (b.N + perBatch - 1) / perBatch
	elapsed, failed := postConcurrently(b, srv.URL+"/api/events", body, http.Header{"User-Agent": {browserAgent}}, clients, batches, http.StatusNoContent)
	if failed > 0 {
		b.Fatalf("%d of %d batches failed", failed, batches)
	}
	if n := testutil.ToFloat64(s.metrics.analyticsEvents); int(n) != batches*perBatch {
		b.Fatalf("%v events stored of %d sent", n, batches*perBatch)
	}
	b.ReportMetric(float64(batches*perBatch)/elapsed.Seconds(), "events/s")
}
