package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
	"studio/internal/workspace"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
)

const (
	staffEmail    = "owner@studio.example"
	staffPassword = "the owner's long password"
)

// newFullServer is the whole site on st: the API, analytics and the
// workspace with one account.
func newFullServer(t *testing.T, st *store.Store) http.Handler {
	t.Helper()
	hash, err := accounts.HashPassword(staffPassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAccount(context.Background(), staffEmail, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	log := discardLog()
	ws := workspace.New(st, log, workspace.Options{Visitor: page.Visitor{
		IP:      func(r *http.Request) string { return VisitorKey(r, nil) },
		IsHTTPS: func(r *http.Request) bool { return false },
	}})
	s, err := New(log, testBuild(), testCatalogue(t, 1, 2), WithStore(st), WithEvents(st), WithWorkspace(ws))
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler()
}

// signIn returns the session cookie of the account.
func signIn(t *testing.T, h http.Handler) *http.Cookie {
	t.Helper()
	w := postForm(h, "/studio/sign-in", url.Values{"email": {staffEmail}, "password": {staffPassword}})
	for _, c := range w.Result().Cookies() {
		if c.Value != "" {
			return c
		}
	}
	t.Fatalf("sign-in = %d, no cookie", w.Code)
	return nil
}

// A NUL (which PostgreSQL refuses in text, and SQLite cuts text at) or
// bytes that are not UTF-8, in any field of any endpoint, are the
// sender's mistake: a 400 naming the field (a search finds nothing),
// never a 5xx, nothing stored, and readiness untouched.
func TestTextTheDatabaseCannotKeep(t *testing.T) {
	testdb.Each(t, func(t *testing.T, st *store.Store) {
		h := newFullServer(t, st)
		ctx := context.Background()
		cookie := signIn(t, h)
		withCookie := func(r *http.Request) { r.AddCookie(cookie) }
		if w := post(h, "/api/enquiries", `{"kind":"contact","name":"Asha Rathore","email":"asha@example.com","message":"Hello","fillMs":5000}`); w.Code != 201 {
			t.Fatalf("a good enquiry = %d %s", w.Code, w.Body)
		}
		stored, err := st.Enquiries(ctx, store.EnquiryFilter{AllSpam: true})
		if err != nil || len(stored) != 1 {
			t.Fatalf("enquiries = %v, %v", stored, err)
		}
		id := stored[0].ID

		// Every text field of the enquiry's JSON, found from its type, so
		// a field added later is tried too.
		good := map[string]any{"kind": "quote", "name": "A", "email": "a@b.in", "message": "m", "productId": 1,
			"material": "Wood", "finish": "Walnut", "website": "", "started": "", "idempotencyKey": "abcdefghijklmnop0"}
		for _, field := range jsonTextFields(reflect.TypeFor[enquiry.Input]()) {
			for _, bad := range []string{"a\u0000b", "\u0000"} {
				body := map[string]any{}
				for k, v := range good {
					body[k] = v
				}
				if item, ok := strings.CutPrefix(field, "items[0]."); ok {
					body["items"] = []map[string]any{{"productId": 1, "quantity": 1, "material": "Wood", "finish": "Walnut", item: bad}}
				} else {
					body[field] = bad
				}
				b, _ := json.Marshal(body)
				w := post(h, "/api/enquiries", string(b))
				var e errorBody
				json.Unmarshal(w.Body.Bytes(), &e)
				if w.Code != 400 || e.Fields[field] == "" {
					t.Errorf("enquiry with NUL in %s = %d %s, want 400 naming %s", field, w.Code, w.Body, field)
				}
			}
		}
		for _, field := range []string{"kind", "name", "email", "phone", "message", "productId", "material", "finish", "website", "started", "idempotencyKey", "page"} {
			for _, bad := range []string{"a\x00b", "\xff\xfe"} {
				form := url.Values{"kind": {"contact"}, "name": {"A"}, "email": {"a@b.in"}, "message": {"m"}, "page": {"/"}}
				form.Set(field, bad)
				if w := postForm(h, "/api/enquiries", form); w.Code != 400 {
					t.Errorf("enquiry form with %q in %s = %d, want 400", bad, field, w.Code)
				}
			}
		}
		if w := post(h, "/api/newsletter", `{"email":"a\u0000@b.in"}`); w.Code != 400 || !strings.Contains(w.Body.String(), `"email"`) {
			t.Errorf("newsletter JSON with NUL = %d %s, want 400 naming email", w.Code, w.Body)
		}
		if w := postForm(h, "/api/newsletter", url.Values{"email": {"a\x00@b.in"}}); w.Code != 400 {
			t.Errorf("newsletter form with NUL = %d, want 400", w.Code)
		}

		for field, body := range map[string]string{
			"events[0].name":                    `{"batchId":"nul-in-a-field-00001","events":[{"name":"page_view\u0000","path":"/"}]}`,
			"events[0].path":                    `{"batchId":"nul-in-a-field-00001","events":[{"name":"page_view","path":"/\u0000"}]}`,
			"events[0].params.referrer":         `{"batchId":"nul-in-a-field-00001","events":[{"name":"page_view","path":"/","params":{"referrer":"x\u0000"}}]}`,
			"events[0].params.search_term":      `{"batchId":"nul-in-a-field-00001","events":[{"name":"search","path":"/","params":{"search_term":"\u0000","result_count":0}}]}`,
			"events[0].params.items[0].item_id": `{"batchId":"nul-in-a-field-00001","events":[{"name":"view_item","path":"/product/1","params":{"items":[{"item_id":"1\u0000"}]}}]}`,
			"events[0].params.\uFFFD":           `{"batchId":"nul-in-a-field-00001","events":[{"name":"page_view","path":"/","params":{"\u0000":"x"}}]}`,
		} {
			code, e := sendEvents(h, body)
			if code != 400 || e.Fields[field] == "" {
				t.Errorf("events with NUL in %s = %d %v, want 400 naming it", field, code, e)
			}
		}

		// The workspace: sign-in, Basic auth, search, a note, a status.
		for _, form := range []url.Values{{"email": {"owner\x00@studio.example"}, "password": {"x"}}, {"email": {staffEmail}, "password": {"\x00"}}} {
			if w := postForm(h, "/studio/sign-in", form); w.Code != 400 {
				t.Errorf("sign-in with NUL = %d, want 400", w.Code)
			}
		}
		for _, basic := range [][2]string{{"owner\x00@studio.example", "x"}, {staffEmail, "pass\x00word"}, {"\xff", "x"}} {
			r := httptest.NewRequest("GET", "/studio/enquiries.csv", nil)
			r.SetBasicAuth(basic[0], basic[1])
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 401 {
				t.Errorf("Basic auth as %q = %d, want 401", basic[0], w.Code)
			}
		}
		inbox := func(q string) string {
			r := httptest.NewRequest("GET", "/studio?"+url.Values{"q": {q}, "status": {"all"}}.Encode(), nil)
			r.AddCookie(cookie)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				t.Errorf("search %q = %d, want 200", q, w.Code)
			}
			return w.Body.String()
		}
		if !strings.Contains(inbox("Asha"), "Asha Rathore") {
			t.Fatalf("a search for a stored name does not find it")
		}
		for _, q := range []string{"\x00", "As\x00ha", "\xff"} {
			if page := inbox(q); strings.Contains(page, "Asha Rathore") {
				t.Errorf("search %q lists the enquiry, want no match", q)
			}
		}
		enquiryPath := "/studio/enquiries/" + strconv.FormatInt(id, 10)
		if w := postForm(h, enquiryPath+"/notes", url.Values{"note": {"call \x00 back"}}, withCookie); w.Code != 400 || !strings.Contains(w.Body.String(), "note") {
			t.Errorf("note with NUL = %d, want 400 naming the note", w.Code)
		}
		if w := postForm(h, enquiryPath+"/status", url.Values{"status": {"won\x00"}}, withCookie); w.Code != 400 {
			t.Errorf("status with NUL = %d, want 400", w.Code)
		}

		// Nothing was kept, nothing changed, and the site is ready.
		if all, _ := st.Enquiries(ctx, store.EnquiryFilter{AllSpam: true}); len(all) != 1 {
			t.Errorf("%d enquiries stored, want the 1 good one", len(all))
		}
		if subs, _ := st.Subscribers(ctx); len(subs) != 0 {
			t.Errorf("%d subscribers stored, want 0", len(subs))
		}
		if notes, _ := st.Notes(ctx, id); len(notes) != 0 {
			t.Errorf("%d notes stored, want 0", len(notes))
		}
		if e, _ := st.Enquiry(ctx, id); e.Status != enquiry.New {
			t.Errorf("status = %s, want new", e.Status)
		}
		if code, reason := readiness(t, h); code != 200 {
			t.Errorf("readyz = %d (%s) after it all, want 200", code, reason)
		}
	})
}

// jsonTextFields lists the JSON names of t's string fields, and of its
// lists of structs' string fields as "items[0].note".
func jsonTextFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Type.Kind() == reflect.String:
			names = append(names, name)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			for _, inner := range jsonTextFields(f.Type.Elem()) {
				names = append(names, name+"[0]."+inner)
			}
		}
	}
	return names
}
