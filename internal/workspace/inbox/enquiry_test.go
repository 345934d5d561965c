package inbox

import (
	"net/url"
	"strings"
	"studio/internal/enquiry"
	"testing"
	"time"
)

func TestReplyAndWhatsAppLinks(t *testing.T) {
	t.Parallel()
	e := enquiry.Enquiry{ID: 7, Kind: enquiry.Quote, Name: "Meera Rao", Email: "meera@example.com", ProductName: "Marwar chair",
		Message: "Walnut & oak?\nTwo, please", CreatedAt: time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	u, err := url.Parse(string(replyURL(e, "Jharokha Studio", kolkata)))
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery(u.RawQuery)
	if u.Scheme != "mailto" || u.Opaque != "meera@example.com" || q.Get("subject") != "Re: Jharokha Studio: we have your quote request (#7)" ||
		!strings.Contains(q.Get("body"), "On 2 Mar 2026 at 11:30, Meera Rao wrote:\n> Walnut & oak?\n> Two, please") {
		t.Errorf("reply link = %s (%q)", u, q)
	}
	if strings.Contains(u.RawQuery, "+") {
		t.Error("spaces written as +, which mail programs show as +")
	}
	for phone, want := range map[string]string{
		"+91 98290 41752":   "https://wa.me/919829041752",
		"98290 41752":       "https://wa.me/919829041752", // the studio's country
		"098290-41752":      "https://wa.me/919829041752",
		"0044 20 7946 0958": "https://wa.me/442079460958",
		"+1 (415) 555-0100": "https://wa.me/14155550100",
		"":                  "",
		"12":                "",
	} {
		if got := string(whatsAppURL(phone, "+919829041752")); got != want {
			t.Errorf("whatsAppURL(%q) = %q, want %q", phone, got, want)
		}
	}
}
