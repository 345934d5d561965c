package store

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// shortlist is a quote request for several pieces, listed out of product
// order, so that reading them back in product or insertion-id order would
// show.
func shortlist(name string) enquiry.Enquiry {
	e := enquiry.Enquiry{Kind: enquiry.Quote, Name: name, Email: "asha@example.com", CreatedAt: t0}
	e.Items = []enquiry.Item{
		{ProductID: 3, ProductName: "Jali table", Material: "Wood", Finish: "Teak", Quantity: 2, Note: "for the lobby"},
		{ProductID: 1, ProductName: "Marwar chair", Quantity: 8},
		{ProductID: 2, ProductName: "Arched shelf", Material: "Metal", Finish: "Brass", Quantity: 1, Note: "नमस्ते, = not a formula"},
	}
	return e
}

func itemRows(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.read.QueryRow(`SELECT COUNT(*) FROM enquiry_items`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestItemsRoundTripInOrder(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		want := shortlist("Asha")
		id, err := s.CreateEnquiry(ctx, want, true)
		if err != nil {
			t.Fatal(err)
		}
		single, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Ravi"), true)
		if err != nil {
			t.Fatal(err)
		}

		got, err := s.Enquiry(ctx, id)
		if err != nil || !reflect.DeepEqual(got.Items, want.Items) {
			t.Errorf("Enquiry(%d).Items = %+v, %v\nwant %+v", id, got.Items, err, want.Items)
		}
		list, err := s.Enquiries(ctx, EnquiryFilter{})
		if err != nil || len(list) != 2 {
			t.Fatalf("Enquiries = %d, %v", len(list), err)
		}
		if list[0].ID != single || list[0].Items != nil {
			t.Errorf("the single quote #%d reads back pieces: %+v", list[0].ID, list[0].Items)
		}
		if list[1].ID != id || !reflect.DeepEqual(list[1].Items, want.Items) {
			t.Errorf("listed #%d with %+v, want #%d with %+v", list[1].ID, list[1].Items, id, want.Items)
		}
		// Both of its mails list the pieces.
		due, err := s.DueMails(ctx, t0.Add(time.Hour), 10)
		if err != nil || len(due) != 4 {
			t.Fatalf("due mails = %d, %v", len(due), err)
		}
		for _, m := range due {
			if m.Enquiry.ID == id && !reflect.DeepEqual(m.Enquiry.Items, want.Items) || m.Enquiry.ID == single && m.Enquiry.Items != nil {
				t.Errorf("%s mail of #%d has pieces %+v", m.Recipient, m.Enquiry.ID, m.Enquiry.Items)
			}
		}
	})
}

// Deleting an enquiry from the inbox takes its pieces with it (the foreign
// key's ON DELETE CASCADE), and leaves another enquiry's alone.
func TestItemsGoWithTheirEnquiry(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		gone, err := s.CreateEnquiry(ctx, shortlist("Asha"), true)
		if err != nil {
			t.Fatal(err)
		}
		kept, err := s.CreateEnquiry(ctx, shortlist("Ravi"), false)
		if err != nil {
			t.Fatal(err)
		}
		if n := itemRows(t, s); n != 6 {
			t.Fatalf("%d pieces stored, want 6", n)
		}
		if err := s.DeleteEnquiry(ctx, gone, "asha@studio.in", t0); err != nil {
			t.Fatal(err)
		}
		if n := itemRows(t, s); n != 3 {
			t.Errorf("%d pieces left after deleting #%d, want the other enquiry's 3", n, gone)
		}
		if e, err := s.Enquiry(ctx, kept); err != nil || len(e.Items) != 3 {
			t.Errorf("the other enquiry's pieces: %+v, %v", e.Items, err)
		}
	})
}

// Pieces are stored in their enquiry's transaction on the batcher's path
// (SQLite, batch.go) as on the plain one: many at once, each enquiry with
// its own pieces; a retry with the same key stores no second set.
func TestItemsStoredConcurrently(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const n = 24
		ids := make([]int64, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				e := shortlist(fmt.Sprint(i))
				e.Items = e.Items[:1+i%3]
				e.Items[0].Quantity = i + 1
				e.IdempotencyKey = fmt.Sprintf("items-key-%06d-padding", i%(n/2)) // every key twice
				id, err := s.CreateEnquiry(ctx, e, false)
				if err != nil {
					t.Error(err)
				}
				ids[i] = id
			})
		}
		wg.Wait()
		list, err := s.Enquiries(ctx, EnquiryFilter{})
		if err != nil || len(list) != n/2 {
			t.Fatalf("%d enquiries stored (%v), want %d: one per key", len(list), err, n/2)
		}
		pieces := 0
		for _, e := range list {
			var i int
			fmt.Sscan(e.Name, &i)
			if len(e.Items) != 1+i%3 || e.Items[0].Quantity != i+1 || ids[i] != e.ID {
				t.Errorf("#%d (%s) has pieces %+v", e.ID, e.Name, e.Items)
			}
			pieces += len(e.Items)
		}
		if got := itemRows(t, s); got != pieces {
			t.Errorf("%d pieces in the table, %d on the enquiries: a retry stored its pieces again", got, pieces)
		}
	})
}

// One batch of the SQLite batcher, in one transaction: each enquiry gets
// its own pieces. When a piece cannot be stored (the table's CHECK refuses
// a quantity the API never lets through), the batch falls back to one
// transaction each: that enquiry is not stored at all (never without its
// pieces), and the others are stored whole.
func TestItemsInOneBatch(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	bad := shortlist("Bad")
	bad.Items[2].Quantity = 0
	reqs := []createRequest{{e: shortlist("A"), mail: true}, {e: sample(enquiry.Contact, "B")}, {e: bad}, {e: shortlist("C")}}
	reqs[3].e.Items = reqs[3].e.Items[1:]
	for i := range reqs {
		reqs[i].ctx = context.Background()
		reqs[i].reply = make(chan createReply, 1)
	}
	s.batch.commit(reqs)
	ctx := context.Background()
	for _, r := range reqs {
		reply := <-r.reply
		if r.e.Name == "Bad" {
			if reply.err == nil {
				t.Errorf("a piece of quantity 0 was stored as #%d", reply.id)
			}
			continue
		}
		if reply.err != nil {
			t.Fatalf("%s: %v", r.e.Name, reply.err)
		}
		e, err := s.Enquiry(ctx, reply.id)
		if err != nil || !reflect.DeepEqual(e.Items, r.e.Items) {
			t.Errorf("%s: #%d has pieces %+v (%v), want %+v", r.e.Name, reply.id, e.Items, err, r.e.Items)
		}
	}
	if n, mails := countRows(t, s); n != 3 || mails != 2 || itemRows(t, s) != 5 {
		t.Errorf("%d enquiries, %d mails, %d pieces stored; want 3, 2, 5: nothing of the refused one", n, mails, itemRows(t, s))
	}
}

// The inbox's product filter finds a shortlist by any of its pieces, and
// its search finds a piece's product and note; insights count a shortlist
// once for each product it lists.
func TestItemsAreFound(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		list := shortlist("Asha")
		list.Items = append(list.Items, list.Items[1]) // the chair twice: one enquiry still
		if _, err := s.CreateEnquiry(ctx, list, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Ravi"), false); err != nil { // product 1
			t.Fatal(err)
		}
		for _, c := range []struct {
			f    EnquiryFilter
			want string
		}{
			{EnquiryFilter{ProductID: 1}, "Ravi,Asha"},
			{EnquiryFilter{ProductID: 2}, "Asha"},
			{EnquiryFilter{ProductID: 4}, ""},
			{EnquiryFilter{Search: "jali"}, "Asha"},
			{EnquiryFilter{Search: "LOBBY"}, "Asha"},
			{EnquiryFilter{Search: "marwar"}, "Ravi,Asha"},
			{EnquiryFilter{Search: "lobby", ProductID: 1}, "Asha"},
		} {
			got, err := s.Enquiries(ctx, c.f)
			if names := enquiryNames(got); err != nil || names != c.want {
				t.Errorf("%+v: %q, %v; want %q", c.f, names, err, c.want)
			}
		}
		counts, err := s.EnquiriesByProduct(ctx, time.Time{}, time.Time{})
		if want := map[int64]int64{1: 2, 2: 1, 3: 1}; err != nil || !reflect.DeepEqual(counts, want) {
			t.Errorf("EnquiriesByProduct = %v, %v; want %v", counts, err, want)
		}
	})
}
