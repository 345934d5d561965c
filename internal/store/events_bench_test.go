package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// go test ./internal/store -run '^$' -bench AddEvents -benchtime 3s
// go test ./internal/store -run '^$' -bench 'RollUpDay|InsightsQueries' -benchtime 10x
// (the second stores 1,050,000 events for each: about half a minute)
//
// Each runs on SQLite (durable: WAL, synchronous=FULL, in a temporary
// directory) and, when STUDIO_TEST_DATABASE_URL is set, on PostgreSQL.

func eachBenchStore(b *testing.B, bench func(b *testing.B, s *Store)) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := OpenSQLite(context.Background(), b.TempDir()+"/studio.db")
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		bench(b, s)
	})
	b.Run("postgres", func(b *testing.B) { bench(b, NewPostgresForTest(b)) })
}

// 64 callers, each adding batches of 20 events, as the server's handlers
// would under a burst of visitors.
func BenchmarkAddEvents(b *testing.B) {
	eachBenchStore(b, func(b *testing.B, s *Store) {
		const callers, size = 64, 20
		b.SetParallelism((callers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
		ctx := context.Background()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			g := newEventGen(rand.Uint64(), "2026-11-23", 3000)
			batch := make([]InsightEvent, size)
			for pb.Next() {
				for i := range batch {
					batch[i] = g.next()
				}
				if _, err := s.AddEvents(ctx, EventCaps{PerDay: 1 << 40, PerSender: 1 << 40}, EventBatch{ID: g.batchID(), Day: g.day, Sender: g.sender(), Events: batch}); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "events/s")
	})
}

// One day of 35,000 raw events among 29 others (1,050,000 in all), all
// rolled up; then, each time, 20 more events of today and the rollup,
// which counts today again (yesterday has nothing new and is skipped).
func BenchmarkRollUpDay(b *testing.B) {
	eachBenchStore(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		days := fillEventDays(b, s, "2026-11-30", 30, 35000)
		today := days[len(days)-1]
		start := time.Now()
		if err := s.RollUpEvents(ctx, today, 60); err != nil {
			b.Fatal(err)
		}
		b.Logf("the first rollup, of all 30 days: %v", time.Since(start).Round(time.Millisecond))
		g := newEventGen(99, today, 3000)
		more := make([]InsightEvent, 20)
		for b.Loop() {
			for i := range more {
				more[i] = g.next()
			}
			if _, err := s.AddEvents(ctx, EventCaps{}, EventBatch{ID: g.batchID(), Day: today, Events: more}); err != nil {
				b.Fatal(err)
			}
			if err := s.RollUpEvents(ctx, today, 60); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/rollup")
	})
}

// The insights page over 30 rolled-up days of 35,000 events each: visitors
// and page views per day, and the top values of eight dimensions.
func BenchmarkInsightsQueries(b *testing.B) {
	eachBenchStore(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		days := fillEventDays(b, s, "2026-11-30", 30, 35000)
		from, to := days[0], days[len(days)-1]
		if err := s.RollUpEvents(ctx, to, 60); err != nil {
			b.Fatal(err)
		}
		top := []struct{ name, dim string }{
			{"page_view", "path"}, {"view_item", "product"}, {"search", "label"}, {"search", "empty"},
			{"filter_usage", "label"}, {"*", "device"}, {"page_view", "referrer"}, {"page_view", "campaign"},
		}
		page := func() {
			for _, name := range []string{"*", "page_view"} {
				if days, err := s.EventsPerDay(ctx, name, from, to); err != nil || len(days) != 30 || days[0].Events == 0 {
					b.Fatalf("EventsPerDay(%s) = %v, %v", name, days, err)
				}
			}
			for _, t := range top {
				if list, err := s.TopValues(ctx, t.name, t.dim, from, to, 20); err != nil || len(list) == 0 {
					b.Fatalf("TopValues(%s, %s) = %v, %v", t.name, t.dim, list, err)
				}
			}
		}
		// Once before timing: PostgreSQL's first read of new rows writes
		// their hint bits (0.7 s here), which a page shown later never pays.
		page()
		for b.Loop() {
			page()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
	})
}

// fillEventDays stores perDay made-up events on each of the n days ending
// with last, one transaction per day, and returns the days.
func fillEventDays(b *testing.B, s *Store, last string, n, perDay int) []string {
	b.Helper()
	start := time.Now()
	end, _ := time.Parse(dayLayout, last)
	ctx := context.Background()
	var days []string
	for i := n - 1; i >= 0; i-- {
		day := end.AddDate(0, 0, -i).Format(dayLayout)
		days = append(days, day)
		g := newEventGen(uint64(i), day, 3000)
		events := make([]InsightEvent, perDay)
		for j := range events {
			events[j] = g.next()
		}
		if err := s.inTx(ctx, func(tx *sql.Tx) error { return s.insertEvents(ctx, tx, nil, events) }); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%s: %d events stored in %v", s.dialect, n*perDay, time.Since(start).Round(time.Millisecond))
	return days
}

// eventGen makes plausible events of one day: most are page views of a
// few hundred paths, some product views, searches (a fifth finding
// nothing), filters and chat topics, by a few thousand visitors.
type eventGen struct {
	r        *rand.Rand
	day      string
	at       time.Time
	visitors int
}

func newEventGen(seed uint64, day string, visitors int) *eventGen {
	at, _ := time.Parse(dayLayout, day)
	return &eventGen{r: rand.New(rand.NewPCG(seed, 7)), day: day, at: at, visitors: visitors}
}

var (
	genReferrers = []string{"google.com", "instagram.com", "pinterest.com", "bing.com", "facebook.com", "duckduckgo.com", "houzz.com", "architecturaldigest.in"}
	genCampaigns = []string{"newsletter / diwali", "instagram / spring", "google / brand", "pinterest / lamps"}
	genMaterials = []string{"material:Wood", "material:Metal", "material:Other", "finish:Oak", "finish:Walnut", "finish:Antique Brass"}
)

func (g *eventGen) next() InsightEvent {
	r := g.r
	e := InsightEvent{
		At:      g.at.Add(time.Duration(r.IntN(86400)) * time.Second),
		Day:     g.day,
		Visitor: fmt.Sprintf("%032x", uint64(r.IntN(g.visitors))*0x9e3779b97f4a7c15),
		Device:  "desktop",
	}
	if r.IntN(10) < 6 {
		e.Device = "phone"
	}
	switch k := r.IntN(100); {
	case k < 55:
		e.Name = "page_view"
		switch p := r.IntN(10); {
		case p < 3:
			e.Path = "/"
		case p < 7:
			e.Product = int64(1 + r.IntN(120))
			e.Path = fmt.Sprintf("/product/%d", e.Product)
		default:
			e.Path = fmt.Sprintf("/products/page/%d", 1+r.IntN(150))
		}
		if r.IntN(10) < 3 {
			e.Referrer = genReferrers[r.IntN(len(genReferrers))]
		}
		if r.IntN(20) == 0 {
			e.Campaign = genCampaigns[r.IntN(len(genCampaigns))]
		}
	case k < 75:
		e.Name = "view_item"
		e.Product = int64(1 + r.IntN(120))
		e.Path = fmt.Sprintf("/product/%d", e.Product)
	case k < 85:
		e.Name = "search"
		e.Label = fmt.Sprintf("term %d", r.IntN(800))
		e.Empty = r.IntN(5) == 0
	case k < 92:
		e.Name = "filter_usage"
		e.Label = genMaterials[r.IntN(len(genMaterials))]
		e.Path = "/products"
	case k < 97:
		e.Name = "chatbot_interaction"
		e.Label = fmt.Sprintf("topic-%d", r.IntN(12))
	default:
		e.Name = []string{"quote_request", "customize_request", "contact_attempt"}[r.IntN(3)]
		e.Product = int64(1 + r.IntN(120))
	}
	return e
}

// batchID is a fresh batch id, as the page makes one (32 characters).
func (g *eventGen) batchID() string {
	return fmt.Sprintf("%016x%016x", g.r.Uint64(), g.r.Uint64())
}

// sender is one of the day's senders, as the server hashes an address
// (22 characters of base64).
func (g *eventGen) sender() string {
	return fmt.Sprintf("%022x", uint64(g.r.IntN(g.visitors))*0x9e3779b97f4a7c15)[:22]
}
