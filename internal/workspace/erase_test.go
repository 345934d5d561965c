package workspace

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

func TestEraseAPersonWithConfirmation(t *testing.T) {
	h, st := setup(t)
	ctx := context.Background()
	first := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera Rao", Email: "Meera@example.com", Phone: "+91 1", Message: "my private words"})
	second := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com", Message: "more words"})
	other := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Kiran", Email: "kiran@example.com", Message: "keep me"})
	if _, err := st.Subscribe(ctx, "meera@example.com", false, time.Now()); err != nil {
		t.Fatal(err)
	}
	c := signIn(t, h, asha, ashaPassword)

	// The question changes nothing, and names the person.
	w := do(h, "GET", "/studio/customers/erase?email=meera%40example.com&return=%2Fstudio%2Fcustomers%3Femail%3Dmeera%2540example.com", nil, withCookie(c))
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "Erase meera@example.com’s data?") || !strings.Contains(body, "This cannot be undone.") ||
		!strings.Contains(body, `<button class="danger">Erase meera@example.com’s data for good</button>`) ||
		!strings.Contains(body, `href="/studio/customers?email=meera%40example.com">Keep it</a>`) {
		t.Fatalf("the question: %d\n%s", w.Code, body)
	}
	if e, _ := st.Enquiry(ctx, first); e.Name != "Meera Rao" {
		t.Fatal("asking erased it")
	}
	// Another site's form cannot do it.
	if w := do(h, "POST", "/studio/customers/erase", url.Values{"email": {"meera@example.com"}}, withCookie(c),
		func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != http.StatusForbidden {
		t.Errorf("a cross-site erase: %d", w.Code)
	}
	// No address: a clear refusal, nothing done.
	if w := do(h, "POST", "/studio/customers/erase", url.Values{"email": {"  "}}, withCookie(c)); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "Nothing was erased") {
		t.Errorf("no address: %d", w.Code)
	}
	if e, _ := st.Enquiry(ctx, first); e.Name != "Meera Rao" {
		t.Fatal("a refused erase erased")
	}

	w = do(h, "POST", "/studio/customers/erase", url.Values{"email": {"MEERA@example.com"}}, withCookie(c))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio?erased=2" {
		t.Fatalf("erase: %d → %s", w.Code, w.Header().Get("Location"))
	}
	page := do(h, "GET", w.Header().Get("Location"), nil, withCookie(c)).Body.String()
	if !strings.Contains(page, `<p class="notice" role="status">Erased 2 enquiries of that person.</p>`) {
		t.Errorf("the inbox does not say what was erased:\n%s", page)
	}
	for _, id := range []int64{first, second} {
		e, err := st.Enquiry(ctx, id)
		if err != nil || e.Name != store.ErasedName || e.Email != "" || e.Message != "" || e.Phone != "" {
			t.Errorf("enquiry %d: %+v, %v", id, e, err)
		}
		history, _ := st.History(ctx, id)
		if last := history[len(history)-1]; last.Action != store.ActionErase || last.Actor != asha {
			t.Errorf("the erasure is not recorded with who did it: %+v", last)
		}
	}
	if body := do(h, "GET", "/studio/enquiries/"+itoa(first), nil, withCookie(c)).Body.String(); !strings.Contains(body, "erased the person&#39;s data") {
		t.Errorf("the enquiry's history does not say it was erased:\n%s", body)
	}
	if e, _ := st.Enquiry(ctx, other); e.Name != "Kiran" || e.Message != "keep me" {
		t.Errorf("another person's enquiry changed: %+v", e)
	}
	if subs, _ := st.Subscribers(ctx); len(subs) != 0 {
		t.Errorf("the subscription is kept: %+v", subs)
	}
	if strings.Contains(page, "Meera") {
		t.Error("the inbox still shows the erased name")
	}
}
