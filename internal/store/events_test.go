package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// ev makes an event of day for visitor; the rest is set by the caller.
func ev(day, visitor, name string) InsightEvent {
	at, _ := time.Parse(dayLayout, day)
	return InsightEvent{At: at.Add(10 * time.Hour), Day: day, Visitor: visitor, Name: name, Device: "desktop"}
}

func rawEvents(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.read.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// addEvents stores events as one batch of the first one's day, without an
// id or caps, as the store's tests before batches had them.
func addEvents(t testing.TB, s *Store, events ...InsightEvent) {
	t.Helper()
	if _, err := s.AddEvents(context.Background(), EventCaps{}, EventBatch{Day: events[0].Day, Events: events}); err != nil {
		t.Fatal(err)
	}
}

// insightEvents: the 20th has seven events from three visitors, the 21st
// none, the 22nd one.
func insightEvents() []InsightEvent {
	home := ev("2026-11-20", "v1", "page_view")
	home.Path, home.Device, home.Referrer, home.Campaign = "/", "phone", "google.com", "newsletter / spring"
	p1 := ev("2026-11-20", "v1", "page_view")
	p1.Path, p1.Product, p1.Device = "/product/3", 3, "phone"
	p2 := ev("2026-11-20", "v2", "page_view")
	p2.Path, p2.Product = "/product/3", 3
	found := ev("2026-11-20", "v2", "search")
	found.Label = "jhula"
	none := ev("2026-11-20", "v3", "search")
	none.Label, none.Empty = "swing", true
	unlabelled := ev("2026-11-20", "v1", "search")
	unlabelled.Empty = true
	later := ev("2026-11-22", "v4", "page_view")
	later.Path = "/"
	return []InsightEvent{home, p1, p2, found, none, none, unlabelled, later}
}

func TestInsightsRollUpAndQueries(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		addEvents(t, s, insightEvents()...)
		// The 20th has no counts yet: it is rolled up with today and yesterday.
		if err := s.RollUpEvents(ctx, "2026-11-22", 30); err != nil {
			t.Fatal(err)
		}
		check := func(t *testing.T, onThe22nd DayCount) {
			t.Helper()
			all, err := s.EventsPerDay(ctx, "*", "2026-11-19", "2026-11-23")
			want := []DayCount{{"2026-11-19", 0, 0}, {"2026-11-20", 7, 3}, {"2026-11-21", 0, 0}, onThe22nd, {"2026-11-23", 0, 0}}
			if err != nil || !reflect.DeepEqual(all, want) {
				t.Errorf("EventsPerDay(*) = %v, %v; want %v", all, err, want)
			}
			views, err := s.EventsPerDay(ctx, "page_view", "2026-11-20", "2026-11-21")
			if want := []DayCount{{"2026-11-20", 3, 2}, {"2026-11-21", 0, 0}}; err != nil || !reflect.DeepEqual(views, want) {
				t.Errorf("EventsPerDay(page_view) = %v, %v; want %v", views, err, want)
			}
			for _, c := range []struct {
				name, dim string
				limit     int
				want      []ValueCount
			}{
				// "/" ties with "/product/3" on events and comes first by value.
				{"page_view", "path", 0, []ValueCount{{"/", 2, 2}, {"/product/3", 2, 2}}},
				{"page_view", "path", 1, []ValueCount{{"/", 2, 2}}},
				{"page_view", "product", 0, []ValueCount{{"3", 2, 2}}},
				{"search", "label", 0, []ValueCount{{"swing", 2, 1}, {"jhula", 1, 1}}},
				{"search", "empty", 0, []ValueCount{{"swing", 2, 1}}},
				{"page_view", "device", 0, []ValueCount{{"desktop", 2, 2}, {"phone", 2, 1}}},
				// Every event of the 22nd is from a desktop.
				{"*", "device", 0, []ValueCount{{"desktop", 5 + onThe22nd.Events, 3 + onThe22nd.Visitors}, {"phone", 2, 1}}},
				{"page_view", "referrer", 0, []ValueCount{{"google.com", 1, 1}}},
				{"page_view", "campaign", 0, []ValueCount{{"newsletter / spring", 1, 1}}},
				{"search", "", 0, []ValueCount{{"", 4, 3}}},
				{"view_item", "path", 0, nil},
			} {
				got, err := s.TopValues(ctx, c.name, c.dim, "2026-11-01", "2026-11-30", c.limit)
				if err != nil || !reflect.DeepEqual(got, c.want) {
					t.Errorf("TopValues(%s, %s, %d) = %v, %v; want %v", c.name, c.dim, c.limit, got, err, c.want)
				}
			}
		}
		check(t, DayCount{"2026-11-22", 1, 1})

		// Again: the same numbers.
		if err := s.RollUpEvents(ctx, "2026-11-22", 30); err != nil {
			t.Fatal(err)
		}
		check(t, DayCount{"2026-11-22", 1, 1})

		// A new event of today is counted by the next rollup.
		more := ev("2026-11-22", "v5", "view_item")
		addEvents(t, s, more)
		if err := s.RollUpEvents(ctx, "2026-11-22", 30); err != nil {
			t.Fatal(err)
		}
		check(t, DayCount{"2026-11-22", 2, 2})

		// A month later the raw events are gone and their counts stay.
		if err := s.RollUpEvents(ctx, "2026-12-25", 30); err != nil {
			t.Fatal(err)
		}
		if n := rawEvents(t, s); n != 0 {
			t.Errorf("%d raw events left after their days passed keepDays", n)
		}
		check(t, DayCount{"2026-11-22", 2, 2})
		// And a clock set back does not wipe them.
		if err := s.RollUpEvents(ctx, "2026-11-22", 30); err != nil {
			t.Fatal(err)
		}
		check(t, DayCount{"2026-11-22", 2, 2})
	})
}

func TestInsightsRetentionKeepsRecentDays(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var events []InsightEvent
		for _, day := range []string{"2026-10-01", "2026-10-02", "2026-10-03"} {
			events = append(events, ev(day, "a", "page_view"), ev(day, "b", "page_view"))
		}
		addEvents(t, s, events...)
		// Kept: the days from today minus keepDays.
		if err := s.RollUpEvents(ctx, "2026-10-05", 3); err != nil {
			t.Fatal(err)
		}
		var kept []string
		rows, err := s.read.Query(`SELECT DISTINCT day FROM events ORDER BY day`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var d string
			rows.Scan(&d)
			kept = append(kept, d)
		}
		rows.Close()
		if want := []string{"2026-10-02", "2026-10-03"}; !reflect.DeepEqual(kept, want) {
			t.Errorf("raw events kept of %v, want %v", kept, want)
		}
		got, err := s.EventsPerDay(ctx, "page_view", "2026-10-01", "2026-10-03")
		want := []DayCount{{"2026-10-01", 2, 2}, {"2026-10-02", 2, 2}, {"2026-10-03", 2, 2}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EventsPerDay = %v, %v; want %v", got, err, want)
		}
	})
}

// The server was off for a week: the days it had not rolled up are,
// whatever their age, before their raw events go.
func TestInsightsRollUpCatchesUp(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		addEvents(t, s, ev("2026-11-01", "a", "search"), ev("2026-11-02", "a", "search"), ev("2026-11-02", "b", "search"))
		if err := s.RollUpEvents(ctx, "2026-11-09", 30); err != nil {
			t.Fatal(err)
		}
		got, err := s.EventsPerDay(ctx, "search", "2026-11-01", "2026-11-02")
		if want := []DayCount{{"2026-11-01", 1, 1}, {"2026-11-02", 2, 2}}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after a week off: %v, %v; want %v", got, err, want)
		}
		// Older than keepDays too: counted, then deleted.
		addEvents(t, s, ev("2026-08-01", "c", "search"))
		if err := s.RollUpEvents(ctx, "2026-11-09", 30); err != nil {
			t.Fatal(err)
		}
		got, err = s.EventsPerDay(ctx, "search", "2026-08-01", "2026-08-01")
		if want := []DayCount{{"2026-08-01", 1, 1}}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("an old day: %v, %v; want %v", got, err, want)
		}
		if n := rawEvents(t, s); n != 3 {
			t.Errorf("%d raw events, want the 3 of November", n)
		}
	})
}

func TestInsightsBadDays(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if err := s.RollUpEvents(ctx, "22/11/2026", 30); err == nil {
			t.Error("RollUpEvents took a day that is not YYYY-MM-DD")
		}
		if _, err := s.EventsPerDay(ctx, "*", "2026-11-01", "soon"); err == nil {
			t.Error("EventsPerDay took a day that is not YYYY-MM-DD")
		}
		if got, err := s.EventsPerDay(ctx, "*", "2026-11-02", "2026-11-01"); err != nil || len(got) != 0 {
			t.Errorf("EventsPerDay of an empty range = %v, %v", got, err)
		}
	})
}

func TestAddEventsConcurrently(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const callers, calls, size = 32, 20, 7
		var wg sync.WaitGroup
		for c := range callers {
			wg.Go(func() {
				for i := range calls {
					batch := make([]InsightEvent, size)
					for j := range batch {
						batch[j] = ev("2026-11-23", fmt.Sprintf("v%d", c), "page_view")
						batch[j].Label = fmt.Sprintf("%d-%d-%d", c, i, j)
					}
					if _, err := s.AddEvents(ctx, EventCaps{}, EventBatch{ID: fmt.Sprintf("batch-%d-%d", c, i), Day: "2026-11-23", Events: batch}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		var n, labels int
		if err := s.read.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT label) FROM events`).Scan(&n, &labels); err != nil {
			t.Fatal(err)
		}
		if want := callers * calls * size; n != want || labels != want {
			t.Errorf("stored %d events (%d distinct), want %d", n, labels, want)
		}

		// A batch larger than one statement lands whole.
		big := make([]InsightEvent, 2*eventRows+3)
		for i := range big {
			big[i] = ev("2026-11-24", "big", "search")
		}
		addEvents(t, s, big...)
		if got := rawEvents(t, s); got != n+len(big) {
			t.Errorf("after a batch of %d: %d events, want %d", len(big), got, n+len(big))
		}
	})
}

func TestAddEventsRespectsContextAndClose(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.AddEvents(ctx, EventCaps{}, EventBatch{Day: "2026-11-23", Events: []InsightEvent{ev("2026-11-23", "gone", "page_view")}}); !errors.Is(err, context.Canceled) {
			t.Errorf("with a cancelled context: %v, want context.Canceled", err)
		}
		if n := rawEvents(t, s); n != 0 {
			t.Errorf("%d events stored with a cancelled context", n)
		}
		s.Close()
		done := make(chan error, 1)
		go func() {
			_, err := s.AddEvents(context.Background(), EventCaps{}, EventBatch{Day: "2026-11-23", Events: []InsightEvent{ev("2026-11-23", "late", "page_view")}})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Error("stored into a closed store")
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("AddEvents on a closed store hangs")
		}
	})
}

func TestEnquiriesByProduct(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		create := func(kind enquiry.Kind, product int, at time.Time, spam bool) int64 {
			t.Helper()
			e := sample(kind, "A")
			if product != 0 {
				e.ProductID = product
			}
			e.CreatedAt, e.Spam = at, spam
			id, err := s.CreateEnquiry(ctx, e, false)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		create(enquiry.Quote, 1, t0, false)
		create(enquiry.Customize, 1, t0.Add(time.Minute), false)
		create(enquiry.Quote, 2, t0.Add(2*time.Minute), false)
		create(enquiry.Contact, 0, t0.Add(3*time.Minute), false)
		create(enquiry.Quote, 1, t0.Add(4*time.Minute), true) // caught as spam on arrival
		marked := create(enquiry.Quote, 2, t0.Add(5*time.Minute), false)
		if err := s.SetSpam(ctx, marked, true, "studio", t0); err != nil {
			t.Fatal(err)
		}
		deleted := create(enquiry.Quote, 3, t0.Add(6*time.Minute), false)
		if err := s.DeleteEnquiry(ctx, deleted, "studio", t0); err != nil {
			t.Fatal(err)
		}
		create(enquiry.Quote, 1, t0.Add(-time.Second), false) // before from
		create(enquiry.Quote, 1, t0.Add(time.Hour), false)    // at to, which is left out

		got, err := s.EnquiriesByProduct(ctx, t0, t0.Add(time.Hour))
		if want := map[int64]int64{1: 2, 2: 1}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EnquiriesByProduct = %v, %v; want %v", got, err, want)
		}
		got, err = s.EnquiriesByProduct(ctx, time.Time{}, time.Time{})
		if want := map[int64]int64{1: 4, 2: 1}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EnquiriesByProduct, open ends = %v, %v; want %v", got, err, want)
		}
		// Every kind counts, the contact message too, each once; spam
		// and the deleted one do not.
		if n, err := s.CountEnquiries(ctx, t0, t0.Add(time.Hour)); err != nil || n != 4 {
			t.Errorf("CountEnquiries = %d, %v; want 4", n, err)
		}
	})
}

// Events of yesterday that came after its last rollup are counted by the
// next one; two rollups at once (two copies of the server) both succeed.
func TestInsightsRollUpYesterdayAndAtOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		addEvents(t, s, ev("2026-11-22", "a", "page_view"))
		if err := s.RollUpEvents(ctx, "2026-11-22", 30); err != nil {
			t.Fatal(err)
		}
		addEvents(t, s, ev("2026-11-22", "b", "page_view"))
		errs := make(chan error, 4)
		for range 4 {
			go func() { errs <- s.RollUpEvents(ctx, "2026-11-23", 30) }()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
		got, err := s.EventsPerDay(ctx, "page_view", "2026-11-22", "2026-11-22")
		if want := []DayCount{{"2026-11-22", 2, 2}}; err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("yesterday = %v, %v; want %v", got, err, want)
		}
	})
}

// A day's counts keep the most frequent MaxDayValues values of each
// free-text dimension, so a sender who makes every event's text different
// cannot grow the counts (kept for good) without end; the event's total
// still counts every event, and the bounded dimensions keep every value.
func TestDayCountsKeepTheMostFrequentValues(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const day = "2026-11-20"
		var events []InsightEvent
		for i := range MaxDayValues + 50 {
			e := ev(day, fmt.Sprint("v", i), "search")
			e.Label, e.Path = fmt.Sprintf("term %03d", i), "/products"
			events = append(events, e)
		}
		last := fmt.Sprintf("term %03d", MaxDayValues+49)
		for range 3 {
			e := ev(day, "fan", "search")
			e.Label = last // made the most frequent
			events = append(events, e)
		}
		addEvents(t, s, events...)
		if err := s.RollUpEvents(ctx, day, 90); err != nil {
			t.Fatal(err)
		}
		labels, err := s.TopValues(ctx, "search", "label", day, day, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		if len(labels) != MaxDayValues || labels[0].Value != last || labels[0].Events != 4 {
			t.Errorf("%d labels kept, the first %+v; want %d, the most frequent first", len(labels), labels[0], MaxDayValues)
		}
		total, err := s.EventsPerDay(ctx, "search", day, day)
		if err != nil || total[0].Events != int64(len(events)) {
			t.Errorf("the day's searches = %v, %v; want all %d", total, err, len(events))
		}
		paths, err := s.TopValues(ctx, "search", "path", day, day, 10)
		if err != nil || len(paths) != 1 || paths[0].Events != int64(MaxDayValues+50) {
			t.Errorf("paths = %v, %v", paths, err)
		}
	})
}
