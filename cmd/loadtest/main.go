// Command loadtest mixes page requests and enquiry posts against a running
// bin/studio from many connections for a fixed time, then prints the
// figures: requests, errors, non-2xx answers by status, 5xx, p50/p99
// latency. It exits 1 on any transport error or 5xx. Loopback only: it
// refuses any other address.
//
//	go run ./cmd/loadtest -url http://127.0.0.1:8080 -duration 30s -connections 256
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"sync"
	"time"
)

var pages = []string{"/", "/products", "/products?category=Tables&page=1", "/product/1", "/product/4", "/about", "/contact-us", "/shipping-policy", "/sitemap.xml"}

type result struct {
	latencies []time.Duration
	statuses  map[int]int
	errors    int
	lastError error
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server, on loopback")
	duration := flag.Duration("duration", 30*time.Second, "how long to send")
	connections := flag.Int("connections", 256, "concurrent connections")
	postEvery := flag.Int("post-every", 10, "one request in this many is an enquiry post")
	flag.Parse()

	u, err := url.Parse(*base)
	if err != nil || !isLoopback(u.Hostname()) {
		fmt.Fprintln(os.Stderr, "loadtest: -url must be a loopback address (127.0.0.0/8 or ::1)")
		os.Exit(2)
	}
	transport := &http.Transport{MaxIdleConnsPerHost: *connections, MaxConnsPerHost: *connections, DisableCompression: false}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()

	results := make([]result, *connections)
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < *connections; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := &results[c]
			r.statuses = map[int]int{}
			for i := 0; ctx.Err() == nil; i++ {
				req := pageRequest(*base, pages[(c+i)%len(pages)])
				if i%*postEvery == *postEvery-1 {
					req = enquiryRequest(*base, c, i)
				}
				t0 := time.Now()
				resp, err := client.Do(req.WithContext(context.WithoutCancel(ctx)))
				if err != nil {
					r.errors++
					r.lastError = err
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				r.latencies = append(r.latencies, time.Since(t0))
				r.statuses[resp.StatusCode]++
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)

	var all []time.Duration
	statuses := map[int]int{}
	errors := 0
	var lastError error
	for _, r := range results {
		all = append(all, r.latencies...)
		for s, n := range r.statuses {
			statuses[s] += n
		}
		errors += r.errors
		if r.lastError != nil {
			lastError = r.lastError
		}
	}
	slices.Sort(all)
	non2xx, server5xx := 0, 0
	codes := make([]int, 0, len(statuses))
	for s, n := range statuses {
		codes = append(codes, s)
		if s < 200 || s > 299 {
			non2xx += n
		}
		if s >= 500 {
			server5xx += n
		}
	}
	sort.Ints(codes)
	fmt.Printf("requests: %d in %s (%.0f/s) from %d connections, 1 in %d an enquiry post\n", len(all)+errors, elapsed.Round(time.Millisecond), float64(len(all))/elapsed.Seconds(), *connections, *postEvery)
	fmt.Printf("errors: %d\n", errors)
	if lastError != nil {
		fmt.Printf("  last: %v\n", lastError)
	}
	fmt.Printf("non-2xx: %d   5xx: %d\n", non2xx, server5xx)
	for _, s := range codes {
		fmt.Printf("  %d: %d\n", s, statuses[s])
	}
	if len(all) > 0 {
		fmt.Printf("latency p50: %s   p99: %s   max: %s\n", percentile(all, 0.50), percentile(all, 0.99), all[len(all)-1].Round(time.Microsecond))
	}
	if errors > 0 || server5xx > 0 {
		os.Exit(1)
	}
}

func pageRequest(base, path string) *http.Request {
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	return req
}

// enquiryRequest is a contact enquiry from a visitor of its own (through
// X-Forwarded-For, which the server believes only with TRUSTED_PROXIES), so
// the per-visitor limit lets it through as it would real visitors.
func enquiryRequest(base string, c, i int) *http.Request {
	body := fmt.Sprintf(`{"kind":"contact","name":"Load %d-%d","email":"load%d@example.com","message":"A load test enquiry.","fillMs":5000}`, c, i, c)
	req, _ := http.NewRequest("POST", base+"/api/enquiries", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.18.%d.%d", (c*7919+i)/250%250, (c*7919+i)%250+1))
	return req
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[int(float64(len(sorted)-1)*p)].Round(time.Microsecond)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
