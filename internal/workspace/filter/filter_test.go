package filter

import (
	"net/url"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// A filter's address keeps what was chosen, and each value it cannot use
// is said and left out.
func TestFilter(t *testing.T) {
	t.Parallel()
	f := FormOf(url.Values{"q": {"teak"}, "status": {"won"}, "kind": {"nope"}, "product": {"x"}, "from": {"2026-11-01"}, "to": {"soon"}})
	if got := f.URL("before", 7); got != "/studio?before=7&from=2026-11-01&kind=nope&product=x&q=teak&status=won&to=soon" {
		t.Errorf("URL = %s", got)
	}
	sf, problems := f.Filter(time.UTC)
	if len(sf.Statuses) != 1 || sf.Statuses[0] != enquiry.Won || sf.Kind != "" || sf.ProductID != 0 || sf.Search != "teak" ||
		!sf.From.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) || !sf.To.IsZero() {
		t.Errorf("Filter = %+v", sf)
	}
	if len(problems) != 3 {
		t.Errorf("problems %q, want the kind's, the product's and the to date's", problems)
	}
	if open := (Form{}).URL("after", 3); open != "/studio?after=3" {
		t.Errorf("the open list's URL = %s", open)
	}
}
