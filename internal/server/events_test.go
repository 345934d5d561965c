package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/analytics"
	"studio/internal/store"
)

// kept is an analytics store in memory.
type kept struct {
	mu     sync.Mutex
	events []store.InsightEvent
}

func (k *kept) AddEvents(_ context.Context, _ store.EventCaps, b store.EventBatch) (store.EventsAdded, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.events = append(k.events, b.Events...)
	return store.EventsAdded{Stored: len(b.Events)}, nil
}

func (k *kept) all() []store.InsightEvent {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.events)
}

const browserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36"
const phoneAgent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36"

// newEventsAPI is the server with analytics kept in memory, on the clock
// now, for a studio in the time zone zone (UTC when none).
func newEventsAPI(t *testing.T, now *time.Time, zone ...string) (http.Handler, *kept) {
	return newEventsAPIWith(t, now, nil, zone...)
}

func newEventsAPIWith(t *testing.T, now *time.Time, opts []Option, zone ...string) (http.Handler, *kept) {
	t.Helper()
	k := &kept{}
	cat := testCatalogue(t, 1, 2)
	if len(zone) > 0 {
		loc, err := time.LoadLocation(zone[0])
		if err != nil {
			t.Fatal(err)
		}
		cat.Site.Location = loc
	}
	s, err := New(discardLog(), testBuild(), cat, append([]Option{WithEvents(k),
		WithClock(func() time.Time { return *now })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler(), k
}

func agent(ua string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("User-Agent", ua) }
}

// newBatchID is a batchId as the page makes one.
func newBatchID() string { return rand.Text() }

// sendEvents posts a batch from a browser; a body that names no batchId
// gets a new one, as each batch the page sends has.
func sendEvents(h http.Handler, body string, edit ...func(*http.Request)) (int, errorBody) {
	if !strings.Contains(body, `"batchId"`) {
		body = `{"batchId":"` + newBatchID() + `",` + strings.TrimPrefix(body, "{")
	}
	w := post(h, "/api/events", body, append([]func(*http.Request){agent(browserAgent)}, edit...)...)
	var e errorBody
	json.Unmarshal(w.Body.Bytes(), &e)
	if w.Header().Get("Set-Cookie") != "" {
		panic("a cookie was set")
	}
	return w.Code, e
}

func TestEventsAreKeptAsTheInsightsReadThem(t *testing.T) {
	now := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC) // 01:30 on the 24th in Jodhpur
	h, k := newEventsAPI(t, &now, "Asia/Kolkata")
	body := `{"events":[
		{"name":"page_view","path":"/products","params":{"page_path":"/products","referrer":"https://www.Google.com/search?q=x","utm_source":"instagram","utm_campaign":"diwali"}},
		{"name":"view_item","path":"/product/1","params":{"currency":"INR","items":[{"item_id":"1","item_name":"P","item_category":"Seatings"}]}},
		{"name":"quote_request","path":"/product/1","params":{"items":[{"item_id":"1"}],"options":"Custom Request"}},
		{"name":"quote_request","path":"/product/1","params":{"items":[{"item_id":"99"}],"options":["Wood","Walnut"]}},
		{"name":"search","path":"/no-such-page","params":{"search_term":"  Brass Lamp ","result_count":0}},
		{"name":"filter_usage","path":"/products","params":{"filter_type":"material","filter_value":"Wood","action":"remove","result_count":3}},
		{"name":"time_on_page","path":"/products","params":{"seconds":12}}
	]}`
	if code, e := sendEvents(h, body); code != http.StatusNoContent {
		t.Fatalf("status %d %+v", code, e)
	}
	got := k.all()
	// The removed filter and the time on page are taken, not kept.
	if len(got) != 5 {
		t.Fatalf("kept %d events, want 5: %+v", len(got), got)
	}
	view, custom, quote, search := got[0], got[2], got[3], got[4]
	if view.Day != "2026-11-24" || view.Referrer != "google.com" || view.Campaign != "instagram / diwali" || view.Path != "/products" || view.Device != "desktop" {
		t.Errorf("page view kept as %+v", view)
	}
	if got[1].Product != 1 || custom.Name != "customize_request" || custom.Product != 1 {
		t.Errorf("view %+v, customisation %+v", got[1], custom)
	}
	if quote.Name != "quote_request" || quote.Product != 0 {
		t.Errorf("a product not in the catalogue is kept as none: %+v", quote)
	}
	if search.Label != "brass lamp" || !search.Empty || search.Path != "" {
		t.Errorf("search kept as %+v (a path that is no page is left out)", search)
	}
	for _, e := range got {
		if e.Visitor != view.Visitor || len(e.Visitor) != 32 || strings.Contains(e.Visitor, "203.0.113") {
			t.Errorf("visitor %q: one hash for one visitor, never the address", e.Visitor)
		}
	}
}

func TestShortlistEventsKeepTheProductOnly(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	h, k := newEventsAPI(t, &now)
	items := `[{"item_id":"2","item_name":"P","item_category":"Seatings","quantity":3},{"item_id":"1"}]`
	body := `{"events":[
		{"name":"add_to_wishlist","path":"/product/2","params":{"currency":"INR","items":[{"item_id":"2","item_name":"P","item_category":"Seatings"}]}},
		{"name":"remove_from_wishlist","path":"/products","params":{"currency":"INR","items":[{"item_id":"1"}]}},
		{"name":"view_item_list","path":"/products","params":{"item_list_name":"Shortlist","items":` + items + `}},
		{"name":"generate_lead","path":"/products","params":{"currency":"INR","items":` + items + `}}
	]}`
	if code, e := sendEvents(h, body); code != http.StatusNoContent {
		t.Fatalf("status %d %+v", code, e)
	}
	got := k.all()
	if len(got) != 4 {
		t.Fatalf("kept %d events, want 4: %+v", len(got), got)
	}
	want := []struct {
		name    string
		product int64
		label   string
	}{{"add_to_wishlist", 2, ""}, {"remove_from_wishlist", 1, ""}, {"view_item_list", 0, "Shortlist"}, {"generate_lead", 0, ""}}
	for i, w := range want {
		if e := got[i]; e.Name != w.name || e.Product != w.product || e.Label != w.label {
			t.Errorf("%s kept as %+v, want product %d and label %q", w.name, e, w.product, w.label)
		}
	}
}

func TestVisitorHashChangesEachDay(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	h, k := newEventsAPI(t, &now)
	one := `{"events":[{"name":"page_view","path":"/","params":{}}]}`
	sendEvents(h, one)
	sendEvents(h, one)
	sendEvents(h, one, agent(phoneAgent))
	now = now.Add(24 * time.Hour)
	sendEvents(h, one)
	got := k.all()
	if got[0].Visitor != got[1].Visitor {
		t.Error("the same browser the same day is one visitor")
	}
	if got[2].Visitor == got[0].Visitor || got[2].Device != "phone" {
		t.Errorf("another browser is another visitor, on a phone: %+v", got[2])
	}
	if got[3].Visitor == got[0].Visitor {
		t.Error("the next day, the same browser has another hash")
	}
}

func TestEventsRefusedWholeAndNamed(t *testing.T) {
	now := time.Now()
	h, k := newEventsAPI(t, &now)
	many := make([]string, maxEventsPerBatch+1)
	for i := range many {
		many[i] = `{"name":"page_view","path":"/","params":{}}`
	}
	tests := []struct {
		name, body string
		wantField  string
	}{
		{"an unknown event", `{"events":[{"name":"page_view","path":"/","params":{}},{"name":"purchase","path":"/","params":{}}]}`, "events[1].name"},
		{"a long parameter", `{"events":[{"name":"search","path":"/","params":{"search_term":"` + strings.Repeat("x", maxParamChars+1) + `"}}]}`, "events[0].params"},
		{"too many parameters' bytes", `{"events":[{"name":"page_view","path":"/","params":{"items":[` + strings.Repeat(`{"item_id":"1234567890"},`, 100) + `{}]}}]}`, "events[0].params"},
		{"no path", `{"events":[{"name":"page_view","path":"products","params":{}}]}`, "events[0].path"},
		{"too many events", `{"events":[` + strings.Join(many, ",") + `]}`, "events"},
		{"no events", `{"events":[]}`, "events"},
		{"no batchId (a page cached from before batch ids)", `{"batchId":"","events":[{"name":"page_view","path":"/","params":{}}]}`, "batchId"},
		{"a short batchId", `{"batchId":"0123456789abcde","events":[{"name":"page_view","path":"/","params":{}}]}`, "batchId"},
		{"a long batchId", `{"batchId":"` + strings.Repeat("a", 65) + `","events":[{"name":"page_view","path":"/","params":{}}]}`, "batchId"},
		{"a batchId with other characters", `{"batchId":"0123456789abcdef/x","events":[{"name":"page_view","path":"/","params":{}}]}`, "batchId"},
		{"a batchId that is a number", `{"batchId":1234567890123456,"events":[{"name":"page_view","path":"/","params":{}}]}`, "batchId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, e := sendEvents(h, tt.body)
			if code != http.StatusBadRequest || e.Fields[tt.wantField] == "" {
				t.Errorf("status %d, body %+v; want 400 naming %s", code, e, tt.wantField)
			}
		})
	}
	// Without the field at all, as a page cached from before sends it.
	w := post(h, "/api/events", `{"events":[{"name":"page_view","path":"/","params":{}}]}`, agent(browserAgent))
	if e := (errorBody{}); w.Code != http.StatusBadRequest || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Fields["batchId"] == "" {
		t.Errorf("no batchId: %d %s; want 400 naming batchId", w.Code, w.Body)
	}
	if code, _ := sendEvents(h, `{"events":[{"name":"page_view","path":"/","params":{"x":"`+strings.Repeat("y", maxBody)+`"}}]}`); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over 64 KiB: %d", code)
	}
	if code, _ := sendEvents(h, `{"events":[{"name":"page_view","path":"/","params":{}}]}`, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); code != http.StatusForbidden {
		t.Errorf("cross-site: %d", code)
	}
	if n := len(k.all()); n != 0 {
		t.Errorf("%d events kept from refused batches", n)
	}
}

func TestEventsNotCollected(t *testing.T) {
	now := time.Now()
	h, k := newEventsAPI(t, &now)
	one := `{"events":[{"name":"page_view","path":"/","params":{}}]}`
	for name, edit := range map[string]func(*http.Request){
		"Global Privacy Control": func(r *http.Request) { r.Header.Set("Sec-GPC", "1") },
		"a crawler":              agent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
		"Lighthouse":             agent(browserAgent + " Chrome-Lighthouse"),
		"a headless browser":     agent(strings.Replace(browserAgent, "Chrome/", "HeadlessChrome/", 1)),
		"no user agent":          agent(""),
	} {
		if code, _ := sendEvents(h, one, edit); code != http.StatusNoContent {
			t.Errorf("%s: %d, want 204 (taken and dropped)", name, code)
		}
	}
	if n := len(k.all()); n != 0 {
		t.Errorf("%d events kept that should not be", n)
	}
}

// The studio's own browsing, signed in to the workspace, is not counted;
// the same browser signed out is.
func TestTheStudiosOwnVisitsAreNotCounted(t *testing.T) {
	now := time.Now()
	h, k := newEventsAPIWith(t, &now, []Option{WithWorkspace(fakeWorkspace{on: true})})
	one := `{"events":[{"name":"page_view","path":"/","params":{}}]}`
	if code, _ := sendEvents(h, one, func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "studio", Value: "a session"}) }); code != http.StatusNoContent {
		t.Errorf("signed in: %d, want 204 (taken and dropped)", code)
	}
	if n := len(k.all()); n != 0 {
		t.Errorf("%d events of the studio's own browser kept", n)
	}
	if code, _ := sendEvents(h, one); code != http.StatusNoContent || len(k.all()) != 1 {
		t.Errorf("signed out: %d, %d events kept, want the one", code, len(k.all()))
	}
}

func TestEventsRateLimited(t *testing.T) {
	now := time.Now()
	h, k := newEventsAPI(t, &now)
	one := `{"events":[{"name":"page_view","path":"/","params":{}}]}`
	for i := range eventBatchesPerWindow {
		if code, _ := sendEvents(h, one); code != http.StatusNoContent {
			t.Fatalf("batch %d: %d", i, code)
		}
	}
	if code, _ := sendEvents(h, one); code != http.StatusTooManyRequests {
		t.Errorf("one batch too many: %d", code)
	}
	if code, _ := sendEvents(h, one, func(r *http.Request) { r.RemoteAddr = "198.51.100.9:1" }); code != http.StatusNoContent {
		t.Errorf("another visitor: %d", code)
	}
	if n := len(k.all()); n != eventBatchesPerWindow+1 {
		t.Errorf("kept %d, want %d", n, eventBatchesPerWindow+1)
	}
}

// Every name the page's code calls track() with is on the list, so one the
// server takes (a name missing would have whole batches refused), and every
// listed event is sent by some code of the page. The name must be written
// out in the call, alone or as each branch of a ?: (the shortlist button's
// add_to_wishlist or remove_from_wishlist); the typecheck refuses a name not
// listed too, and this catches one the type allows by way of a cast.
func TestEveryEventThePageSendsIsKnown(t *testing.T) {
	call := regexp.MustCompile(`\btrack\(`)
	literal := regexp.MustCompile(`"([^"]*)"`)
	sent := map[string]bool{}
	found := 0
	err := filepath.WalkDir("../../web/app", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".ts") || strings.HasSuffix(path, ".tsx")) || strings.HasSuffix(path, ".test.ts") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, at := range call.FindAllIndex(src, -1) {
			name := firstArgument(src[at[1]:])
			if strings.TrimSpace(name) == "" {
				continue // track() in a comment
			}
			line := 1 + strings.Count(string(src[:at[0]]), "\n")
			names := literal.FindAllStringSubmatch(name, -1)
			if len(names) == 0 {
				t.Errorf("%s:%d: track(%s, …): write the event's name out (\"…\", or c ? \"…\" : \"…\") so this test can check it", path, line, name)
			}
			for _, m := range names {
				found++
				sent[m[1]] = true
				if !analytics.Known(m[1]) {
					t.Errorf("%s:%d sends %q, which contracts/analytics-events.json does not list and /api/events refuses", path, line, m[1])
				}
			}
		}
		return err
	})
	if err != nil || found < 20 {
		t.Fatalf("read %d track() calls: %v", found, err)
	}
	for _, name := range analytics.Names() {
		if !sent[name] {
			t.Errorf("%s is listed in contracts/analytics-events.json, but no code of web/app sends it: send it, or take it off the list", name)
		}
	}
	for _, name := range []string{"add_to_wishlist", "remove_from_wishlist"} {
		if !sent[name] {
			t.Errorf("the shortlist button's %s was not found", name)
		}
	}
}

// firstArgument is the text of a call's first argument, src starting just
// after its "(": up to the first "," or ")" outside brackets and strings.
func firstArgument(src []byte) string {
	depth := 0
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case (c == ',' || c == ')') && depth == 0:
			return string(src[:i])
		}
	}
	return string(src)
}

// Every listed event, with every listed parameter, is taken: the server's
// allow-list is the list.
func TestEveryListedEventIsAccepted(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	h, k := newEventsAPI(t, &now)
	sample := func(p analytics.Param) any {
		if len(p.Values) > 0 {
			return p.Values[0]
		}
		switch p.Types[len(p.Types)-1] {
		case "number":
			return 2
		case "boolean":
			return true
		case "texts":
			return []string{"a", "b"}
		case "items":
			item := map[string]any{}
			for _, f := range analytics.Events.Item {
				item[f.Name] = "1"
				if f.Types[0] == "number" {
					item[f.Name] = 1
				}
			}
			return []any{item}
		}
		return strings.Repeat("x", maxParamChars) // the longest text
	}
	var events []map[string]any
	for _, e := range analytics.Events.Events {
		params := map[string]any{}
		for _, p := range e.Params {
			params[p.Name] = sample(p)
		}
		events = append(events, map[string]any{"name": e.Name, "path": "/products", "params": params})
	}
	body, _ := json.Marshal(map[string]any{"batchId": newBatchID(), "events": events})
	if code, e := sendEvents(h, string(body)); code != http.StatusNoContent {
		t.Fatalf("status %d %+v", code, e)
	}
	kept := map[string]bool{}
	for _, e := range k.all() {
		kept[e.Name] = true
	}
	for _, name := range analytics.Names() {
		if e, _ := analytics.Lookup(name); !kept[name] && !slices.Contains([]string{"page_navigation", "time_on_page"}, name) {
			t.Errorf("%s (%s) was taken and not kept", name, e.About)
		}
	}
}

// The parameters a reader of events.go reads are ones the list gives its
// event: a parameter the page does not send would read as nothing.
func TestEventReadersReadListedParameters(t *testing.T) {
	// Read and never sent, known: the search's result chosen comes with
	// item_id, not items, so no product is kept of it (the insights do
	// not show this event).
	unsent := map[string]bool{"search_result_click.items": true}
	file, err := parser.ParseFile(token.NewFileSet(), "events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	var readers *ast.CompositeLit
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			funcs[n.Name.Name] = n
		case *ast.ValueSpec:
			if n.Names[0].Name == "eventKinds" {
				readers = n.Values[0].(*ast.CallExpr).Args[0].(*ast.CompositeLit)
			}
		}
		return true
	})
	if readers == nil || len(readers.Elts) != len(eventKinds) {
		t.Fatalf("found no readers in events.go, or not all %d", len(eventKinds))
	}
	read := 0
	for _, elt := range readers.Elts {
		kv := elt.(*ast.KeyValueExpr)
		name, _ := strconv.Unquote(kv.Key.(*ast.BasicLit).Value)
		event, listed := analytics.Lookup(name)
		if !listed {
			t.Errorf("a reader for %s, which the list does not have", name)
			continue
		}
		var body ast.Node = kv.Value
		if id, ok := kv.Value.(*ast.Ident); ok {
			body = funcs[id.Name]
		}
		ast.Inspect(body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok || sel.X.(*ast.Ident).Name != "p" {
				return true
			}
			param := "items"
			if sel.Sel.Name != "item" {
				param, _ = strconv.Unquote(c.Args[0].(*ast.BasicLit).Value)
			}
			read++
			if _, ok := event.Param(param); !ok && !unsent[name+"."+param] {
				t.Errorf("events.go reads %s's %s, which the list does not give it", name, param)
			}
			return true
		})
	}
	if read < 15 {
		t.Errorf("found %d parameters read", read)
	}
}
