package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// BenchmarkServePage measures the handler's own cost for one page request
// (routing, headers, encoding choice, the request log), without the network:
//
//	go test ./internal/server -run '^$' -bench ServePage
func BenchmarkServePage(b *testing.B) {
	s, err := New(discardLog(), testBuild(), testCatalogue(b, 1, 2))
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	req := httptest.NewRequest("GET", "/product/1", nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	w := &discardResponse{header: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.header)
		h.ServeHTTP(w, req)
	}
}

// BenchmarkServeProductPage is /product/1 as bin/studio serves it under
// make bench-serve: the whole middleware, the request log written as JSON
// lines (to io.Discard, as bin/studio's goes to its log writer) and the
// metrics counted, from two goroutines at once:
//
//	go test ./internal/server -run '^$' -bench ServeProductPage -benchmem
func BenchmarkServeProductPage(b *testing.B) {
	// A product page as the build writes it: inline scripts (hashed into
	// its Content-Security-Policy) and gzip and brotli variants.
	build := testBuild()
	page := `<html><script>window.__ctx={}</script><h1>product 1</h1><script type="module">import("/assets/app-abc123.js")</script></html>`
	build["product/1/index.html"] = &fstest.MapFile{Data: []byte(page)}
	build["product/1/index.html.gz"] = &fstest.MapFile{Data: gzipped(page)}
	build["product/1/index.html.br"] = &fstest.MapFile{Data: []byte("BR-product-1")}
	s, err := New(slog.New(slog.NewJSONHandler(io.Discard, nil)), build, testCatalogue(b, 1, 2))
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest("GET", "/product/1", nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		w := &discardResponse{header: http.Header{}}
		for pb.Next() {
			clear(w.header)
			h.ServeHTTP(w, req)
		}
	})
	if testutil.ToFloat64(s.metrics.requests.WithLabelValues("GET /product/{id}", "200")) == 0 {
		b.Fatal("the requests were not counted")
	}
}

type discardResponse struct{ header http.Header }

func (d *discardResponse) Header() http.Header         { return d.header }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}
