package mail

import (
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// An acknowledgement's Message-ID is known later from the enquiry alone:
// the same at every attempt (and after a restore, which keeps the enquiry's
// number and time), and another database's enquiry of the same number
// (received at another time) never shares it.
func TestAcknowledgementIDIsTheEnquirys(t *testing.T) {
	c := testConfig(25)
	c.LinkBase = nil
	e := visitor
	e.ID, e.CreatedAt = 12, time.Date(2026, 11, 29, 9, 30, 15, 123456789, time.UTC)
	id := func(e enquiry.Enquiry, now time.Time) string {
		t.Helper()
		raw, err := compose(c, store.PendingMail{Recipient: store.RecipientVisitor, Enquiry: e}, now)
		if err != nil {
			t.Fatal(err)
		}
		return parse(t, string(raw)).Header.Get("Message-Id")
	}
	first := id(e, time.Now())
	if !strings.HasPrefix(first, "<enquiry-12.") || !strings.HasSuffix(first, "@jharokha.test>") {
		t.Fatalf("Message-ID = %q", first)
	}
	restored := e
	restored.CreatedAt = e.CreatedAt.Truncate(time.Microsecond).In(time.FixedZone("IST", 19800)) // as PostgreSQL gives it back
	if again := id(restored, time.Now().Add(time.Hour)); again != first {
		t.Errorf("a later attempt: %q, the first %q", again, first)
	}
	other := e
	other.CreatedAt = e.CreatedAt.Add(-24 * time.Hour)
	if id(other, time.Now()) == first {
		t.Errorf("another database's enquiry #12 has the same Message-ID %q", first)
	}
}
