// Command bareserve is the ceiling make bench-serve measures bin/studio
// against (scripts/bench-serve.sh): a bare net/http handler that sends the
// brotli file of each page the build wrote, from memory, with the headers
// bin/studio sends for it, and nothing else: no log, no metrics, no
// routing but one map lookup.
//
//	go run ./scripts/bareserve -addr 127.0.0.1:18082 -root web/build/client -like http://127.0.0.1:18080 / /product/1
//
// With -like, each page's headers are bin/studio's own (all but Date,
// which net/http writes), and its body is checked to be the same bytes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path"
	"strings"
	"time"
)

type page struct {
	header http.Header
	body   []byte
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18082", "where to listen")
	root := flag.String("root", "web/build/client", "the client build")
	like := flag.String("like", "", "a running bin/studio whose headers to copy (its URL)")
	timeouts := flag.Bool("timeouts", false, "serve with bin/studio's read, write and idle timeouts (cmd/studio/listen.go)")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("bareserve: name the pages to serve: / /product/1 ...")
	}
	pages := make(map[string]*page)
	for _, p := range flag.Args() {
		pg, err := load(*root, *like, p)
		if err != nil {
			log.Fatalf("bareserve: %s: %v", p, err)
		}
		pages[p] = pg
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pg, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		for k, v := range pg.header {
			h[k] = v
		}
		w.Write(pg.body)
	})
	srv := &http.Server{Addr: *addr, Handler: handler}
	if *timeouts {
		srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout = 5*time.Second, 15*time.Second, 30*time.Second, 120*time.Second
	}
	log.Fatal(srv.ListenAndServe())
}

// load reads a page's brotli file and, from bin/studio at like, the
// headers it sends with the same bytes.
func load(root, like, urlPath string) (*page, error) {
	name := path.Join(root, strings.TrimPrefix(urlPath, "/"), "index.html.br")
	body, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	pg := &page{body: body, header: http.Header{
		"Content-Type":     {"text/html; charset=utf-8"},
		"Content-Encoding": {"br"},
		"Content-Length":   {fmt.Sprint(len(body))},
	}}
	if like == "" {
		return pg, nil
	}
	req, err := http.NewRequest("GET", like+urlPath, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept-Encoding", "br, gzip")
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
		return nil, fmt.Errorf("%s answered %d with %d bytes, not the %d of %s", like, resp.StatusCode, len(got), len(body), name)
	}
	pg.header = resp.Header.Clone()
	pg.header.Del("Date")
	return pg, nil
}
