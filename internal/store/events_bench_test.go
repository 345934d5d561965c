package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

// go test ./internal/store -run '^$' -bench AddEvents -benchtime 3s
// go test ./internal/store -run '^$' -bench EventBytes -benchtime 1x
// (the room an event takes on disk: docs/security-and-limits.md's ceiling is made from it)
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

// BenchmarkEventBytes stores events in batches, each batch with its id and
// its sender's count, and reports the bytes on disk per event: in events
// with its index (kept INSIGHTS_KEEP_DAYS), and in event_batches and
// event_quotas with their indexes (kept until the day after,
// store.RollUpEvents), measured on the database's own pages (SQLite's
// dbstat, PostgreSQL's pg_total_relation_size), and the growth of the
// SQLite file.
//
//   - typical: eventGen's events, 100,000 in batches of 20 from 3,000 senders;
//   - largest: events with the most text the server keeps of one
//     (server/events.go): a page view's referring host of 200 characters and
//     its campaign, two parameters of 200 four-byte characters and " / "
//     (1,603 bytes), which with their keys take 1,836 of the 2 KiB an
//     event's parameters may take, on the longest page path; each one's
//     different;
//   - alone: 20,000 batches of one event, each from a sender of its own,
//     the most rows of ids and counts an event can bring.
//
// And, after the day is rolled up, the bytes per event of its counts in
// event_days, which are kept for good.
func BenchmarkEventBytes(b *testing.B) {
	largest := func(g *eventGen) InsightEvent {
		e := g.next()
		e.Name, e.Product, e.Label, e.Empty = "page_view", 0, "", false
		e.Path = "/products/partition-storage-shelves/material/other/finish/antique-brass/page/12"
		// Each one different, as a sender filling the disk would make them.
		unique := g.batchID()
		e.Referrer = unique + strings.Repeat("r", 200-len(unique))
		e.Campaign = unique + strings.Repeat("🪔", 192) + " / " + strings.Repeat("🪔", 200)
		return e
	}
	kinds := []struct {
		name            string
		total, perBatch int
		event           func(g *eventGen) InsightEvent
		sender          func(g *eventGen) string
	}{
		{"typical", 100_000, 20, (*eventGen).next, (*eventGen).sender},
		{"largest", 100_000, 20, largest, (*eventGen).sender},
		{"alone", 20_000, 1, (*eventGen).next, (*eventGen).batchID},
	}
	for _, kind := range kinds {
		b.Run(kind.name, func(b *testing.B) {
			eachBenchStore(b, func(b *testing.B, s *Store) {
				ctx := context.Background()
				fileBefore := sqliteFileBytes(b, s)
				for b.Loop() {
					g := newEventGen(1, "2026-11-23", 3000)
					for range kind.total / kind.perBatch {
						batch := make([]InsightEvent, kind.perBatch)
						for i := range batch {
							batch[i] = kind.event(g)
						}
						if _, err := s.AddEvents(ctx, EventCaps{}, EventBatch{ID: g.batchID(), Day: g.day, Sender: kind.sender(g)[:22], Events: batch}); err != nil {
							b.Fatal(err)
						}
					}
				}
				n := float64(rawEventCount(b, s))
				b.ReportMetric(float64(tableBytes(b, s, "events"))/n, "event-bytes/event")
				b.ReportMetric(float64(tableBytes(b, s, "event_batches")+tableBytes(b, s, "event_quotas"))/n, "batch-bytes/event")
				if s.dialect == SQLite {
					b.ReportMetric(float64(sqliteFileBytes(b, s)-fileBefore)/n, "file-bytes/event")
				}
				// The day's counts, which are kept for good.
				if err := s.RollUpEvents(ctx, "2026-11-23", 90); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(tableBytes(b, s, "event_days"))/n, "count-bytes/event")
			})
		})
	}
}

func rawEventCount(b *testing.B, s *Store) int64 {
	var n int64
	if err := s.read.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// tableBytes is the room a table takes with its indexes.
func tableBytes(b *testing.B, s *Store, table string) int64 {
	b.Helper()
	query := `SELECT pg_total_relation_size('` + table + `')`
	if s.dialect == SQLite {
		query = `SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = '` + table + `' OR name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = '` + table + `')`
	}
	var n int64
	if err := s.read.QueryRow(query).Scan(&n); err != nil {
		b.Fatalf("size of %s: %v", table, err)
	}
	return n
}

// sqliteFileBytes is the SQLite file's size once the WAL is written back
// into it; 0 on PostgreSQL.
func sqliteFileBytes(b *testing.B, s *Store) int64 {
	b.Helper()
	if s.dialect != SQLite {
		return 0
	}
	if _, err := s.write.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	var size int64
	if err := s.read.QueryRow(`SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&size); err != nil {
		b.Fatal(err)
	}
	return size
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
