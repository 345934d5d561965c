package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
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

type discardResponse struct{ header http.Header }

func (d *discardResponse) Header() http.Header         { return d.header }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}
