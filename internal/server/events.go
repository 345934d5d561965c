package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"studio/internal/analytics"
	"studio/internal/store"
)

// POST /api/events: the site's own analytics (web/app/lib/analytics.ts
// sends what track() records, in batches). Nothing here identifies a
// person: no cookie, no IP address or user agent stored; a visitor is a
// hash of those with a salt that changes every day and lives only in
// memory, so visits cannot be joined across days (as Plausible counts).

// The limits of a batch are the list's (contracts/analytics-events.json),
// which the page's code is typed with too.
var (
	maxEventsPerBatch = analytics.Events.Limits.EventsPerBatch
	maxParamChars     = analytics.Events.Limits.TextChars // a string parameter's length, and a path's, in characters
	maxParamsBytes    = analytics.Events.Limits.ParamsBytes
)

type eventBatch struct {
	// BatchID is made by the page for each batch and sent again with it
	// if the batch is sent again, so the batch is stored once. In the body,
	// as sendBeacon cannot set a header.
	BatchID string          `json:"batchId"`
	Events  []incomingEvent `json:"events"`
}

var batchIDPattern = regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9_-]{%d,%d}$`, analytics.Events.Limits.BatchIDChars.Min, analytics.Events.Limits.BatchIDChars.Max))

type incomingEvent struct {
	Name   string                     `json:"name"`
	Path   string                     `json:"path"`
	Params map[string]json.RawMessage `json:"params"`
}

// eventParams reads an event's parameters as the page sends them.
type eventParams map[string]json.RawMessage

func (p eventParams) str(key string) string {
	var s string
	if json.Unmarshal(p[key], &s) == nil {
		return strings.TrimSpace(s)
	}
	var n json.Number
	if json.Unmarshal(p[key], &n) == nil {
		return n.String()
	}
	return ""
}

func (p eventParams) num(key string) (float64, bool) {
	var n float64
	err := json.Unmarshal(p[key], &n)
	return n, err == nil && p[key] != nil
}

// item is the first of GA4's items: the product an event is about.
func (p eventParams) item() (id int64) {
	var items []struct {
		ID string `json:"item_id"`
	}
	if json.Unmarshal(p["items"], &items) == nil && len(items) > 0 {
		id, _ = strconv.ParseInt(items[0].ID, 10, 64)
	}
	return id
}

// eventReader says what is kept of an event: it fills in what the insights
// read of it, and says false for an event accepted and not kept.
type eventReader func(e *store.InsightEvent, p eventParams) bool

// keepName keeps of an event its name (and page) alone.
func keepName(*store.InsightEvent, eventParams) bool { return true }

// eventKinds are what is kept of the events the page sends: its one
// dimension (Label) and, for some, a product or "found nothing". Which
// events are taken is the list's (contracts/analytics-events.json): one it
// does not have is refused; a listed one without a reader here keeps its
// name (keepName). A reader for an event not listed stops the server
// (mustListEventReaders).
var eventKinds = mustListEventReaders(map[string]eventReader{
	"page_view": func(e *store.InsightEvent, p eventParams) bool {
		e.Referrer = referrerHost(p.str("referrer"))
		if source, campaign := p.str("utm_source"), p.str("utm_campaign"); source != "" || campaign != "" {
			e.Campaign = strings.Trim(source+" / "+campaign, " /")
		}
		return true
	},
	"view_item": func(e *store.InsightEvent, p eventParams) bool { e.Product = p.item(); return true },
	"select_item": func(e *store.InsightEvent, p eventParams) bool {
		e.Product, e.Label = p.item(), p.str("item_list_name")
		return true
	},
	// One event in GA4 for both dialogs; two here, for the funnel.
	"quote_request": func(e *store.InsightEvent, p eventParams) bool {
		e.Product = p.item()
		if p.str("options") == "Custom Request" {
			e.Name = "customize_request"
		}
		return true
	},
	// The shortlist (GA4's wishlist events): the piece put in or taken out;
	// the shortlist page shown, by its list's name; one quote asked for
	// all its pieces, kept as that alone (its pieces are the enquiry's).
	"add_to_wishlist":      func(e *store.InsightEvent, p eventParams) bool { e.Product = p.item(); return true },
	"remove_from_wishlist": func(e *store.InsightEvent, p eventParams) bool { e.Product = p.item(); return true },
	"view_item_list":       func(e *store.InsightEvent, p eventParams) bool { e.Label = p.str("item_list_name"); return true },
	"generate_lead":        keepName,
	"search": func(e *store.InsightEvent, p eventParams) bool {
		e.Label = strings.ToLower(p.str("search_term"))
		n, ok := p.num("result_count")
		e.Empty = ok && n == 0
		return e.Label != ""
	},
	"search_result_click": func(e *store.InsightEvent, p eventParams) bool {
		e.Product, e.Label = p.item(), strings.ToLower(p.str("search_term"))
		return true
	},
	// Filters chosen, not taken off.
	"filter_usage": func(e *store.InsightEvent, p eventParams) bool {
		e.Label = p.str("filter_type") + ": " + p.str("filter_value")
		n, ok := p.num("result_count")
		e.Empty = ok && n == 0
		return p.str("action") != "remove"
	},
	// "open" starts a conversation; a topic or question chosen is kept by its id.
	"chatbot_interaction": func(e *store.InsightEvent, p eventParams) bool {
		switch action := p.str("action"); action {
		case "topic":
			e.Label = "topic: " + p.str("topic_id")
		case "question":
			e.Label = "question: " + p.str("option_id")
		default:
			e.Label = action
		}
		return true
	},
	// Where a visitor reached for the phone, e-mail or WhatsApp: "chatbot:
	// whatsapp" is the chat's hand-over.
	"contact_attempt": func(e *store.InsightEvent, p eventParams) bool {
		e.Label = p.str("location") + ": " + p.str("method")
		return true
	},
	"offer_modal_view":       keepName,
	"offer_modal_close":      func(e *store.InsightEvent, p eventParams) bool { e.Label = p.str("reason"); return true },
	"offer_modal_conversion": keepName,
	"form_start":             formEvent,
	"form_submit":            formEvent,
	"form_error":             formEvent,
	"validation_error":       formEvent,
	"submission_error":       formEvent,
	"newsletter_signup":      func(e *store.InsightEvent, p eventParams) bool { e.Label = p.str("location"); return true },
	"social_click":           func(e *store.InsightEvent, p eventParams) bool { e.Label = p.str("platform"); return true },
	"scroll_depth":           func(e *store.InsightEvent, p eventParams) bool { e.Label = p.str("percent"); return true },
	// Said again by page_view; time on page is not shown.
	"page_navigation": func(*store.InsightEvent, eventParams) bool { return false },
	"time_on_page":    func(*store.InsightEvent, eventParams) bool { return false },
})

// mustListEventReaders is readers, when the list has each of their events.
func mustListEventReaders(readers map[string]eventReader) map[string]eventReader {
	for name := range readers {
		if !analytics.Known(name) {
			panic(fmt.Sprintf("server: events.go reads %q, which contracts/analytics-events.json does not list", name))
		}
	}
	return readers
}

func formEvent(e *store.InsightEvent, p eventParams) bool {
	e.Label = p.str("form_name")
	return true
}

// botAgents are user agents that say they are programs: crawlers, link
// previews, monitors, Lighthouse, headless browsers.
var botAgents = regexp.MustCompile(`(?i)bot|crawl|spider|slurp|preview|monitor|lighthouse|headless|curl|wget|python|go-http|java/|okhttp`)

// collects tells whether this request's events are to be kept at all:
// not when the browser asks for no tracking (Global Privacy Control), nor
// from a program that says it is one.
func collects(r *http.Request) bool {
	ua := r.UserAgent()
	return r.Header.Get("Sec-GPC") != "1" && ua != "" && !botAgents.MatchString(ua)
}

// deviceOf is "phone" or "desktop", from the user agent's "Mobi" (as
// MDN advises) or Android phones, which all say "Mobile"; tablets count as desktop.
func deviceOf(ua string) string {
	if strings.Contains(ua, "Mobi") {
		return "phone"
	}
	return "desktop"
}

// referrerHost is the host of another site's address, without "www.";
// "" for none or for this site (the page leaves its own out already).
func referrerHost(s string) string {
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "//") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// events is POST /api/events: 204 when the batch is taken (or, under
// Global Privacy Control, from a bot or from the studio's signed-in
// browser, dropped unread; or, over a daily
// cap or sent before, dropped in part or whole), 400 naming each wrong
// event or a missing batchId, and nothing stored on any error.
func (s *Server) events(w http.ResponseWriter, r *http.Request, rel *release) error {
	if err := s.crossOrigin.Check(r); err != nil {
		return &apiError{status: http.StatusForbidden, message: "Cross-site requests are not accepted."}
	}
	// The studio's own visits (a browser signed in to the workspace) are
	// not the visitors the insights count.
	if !collects(r) || s.workspace != nil && s.workspace.SignedIn(r) {
		s.metrics.analyticsBatch("not_collected")
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if s.eventStore == nil {
		return &apiError{status: http.StatusServiceUnavailable, message: "Events are not being accepted right now."}
	}
	var batch eventBatch
	if err := s.readJSON(w, r, &batch); err != nil {
		return err
	}
	now := s.now()
	key := VisitorKey(r, s.trusted)
	events, problems := s.readEvents(rel, batch, now, key, r.UserAgent())
	if len(problems) > 0 {
		return &apiError{status: http.StatusBadRequest, message: "Some events were refused; none was kept.", fields: problems}
	}
	if ok, wait := s.eventLimit.Allow(key, now); !ok {
		return &apiError{status: http.StatusTooManyRequests, retryAfter: wait, message: "Too many events from your address. Please try again later."}
	}
	if len(events) > 0 {
		day := events[0].Day
		// Accepted, the batch is the server's to store: a visitor closing
		// the page ends the request, and must not cancel the write
		// ("context canceled" lost such batches). The write keeps a time
		// limit of its own.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), s.dbTimeout)
		defer cancel()
		added, err := s.eventStore.AddEvents(ctx, s.eventCaps, store.EventBatch{ID: batch.BatchID, Day: day, Sender: s.senderKey(day, key), Events: events})
		if err != nil {
			s.writeFailed("add_events", err)
			return err
		}
		// Events over a cap, or of a batch stored before, are dropped with
		// a 204 all the same: the page can do nothing useful about them.
		s.metrics.analyticsDropped(added)
		s.metrics.analyticsEvents.Add(float64(added.Stored))
	}
	s.metrics.analyticsBatch("accepted")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// senderKey is what the per-address cap counts by: the address (VisitorKey:
// an IPv4 address or an IPv6 /64) and the day, under HMAC-SHA256 with a key
// every copy of the server on the database shares (store.Key), so copies
// count one address as one, a restart keeps its count, and no address is
// stored. Not the visitor hash: its salt is each copy's own and new after
// a restart (an address would get the cap once per copy and per restart),
// and it includes the user agent, which a sender chooses.
func (s *Server) senderKey(day, address string) string {
	m := hmac.New(sha256.New, s.eventKey)
	m.Write([]byte(day + "\x00" + address))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// readEvents checks every event of a batch and turns those to keep into
// the store's; problems are by field ("events[2].name").
func (s *Server) readEvents(rel *release, batch eventBatch, now time.Time, address, agent string) ([]store.InsightEvent, map[string]string) {
	problems := map[string]string{}
	if !batchIDPattern.MatchString(batch.BatchID) {
		problems["batchId"] = "A batchId of 16 to 64 letters, digits, - or _, new for each batch and the same when it is sent again."
	}
	if len(batch.Events) == 0 || len(batch.Events) > maxEventsPerBatch {
		problems["events"] = fmt.Sprintf("Send between 1 and %d events.", maxEventsPerBatch)
		return nil, problems
	}
	day := now.In(rel.content.Site.Location).Format(time.DateOnly)
	visitor := s.salts.visitor(day, address, agent)
	device := deviceOf(agent)
	var events []store.InsightEvent
	for i, in := range batch.Events {
		field := fmt.Sprintf("events[%d]", i)
		if !analytics.Known(in.Name) {
			problems[field+".name"] = fmt.Sprintf("%q is not an event this site sends.", in.Name)
			continue
		}
		read := eventKinds[in.Name]
		if read == nil {
			read = keepName
		}
		if !strings.HasPrefix(in.Path, "/") || utf8.RuneCountInString(in.Path) > maxParamChars {
			problems[field+".path"] = fmt.Sprintf("A path of the site, starting with / and at most %d characters.", maxParamChars)
		}
		if problem := paramsProblem(in.Params); problem != "" {
			problems[field+".params"] = problem
		}
		e := store.InsightEvent{At: now, Day: day, Visitor: visitor, Name: in.Name, Device: device}
		if _, page := rel.pages[in.Path]; page {
			e.Path = in.Path // only the site's own pages, so a script cannot fill the top pages with made-up ones
		}
		if read(&e, in.Params) {
			if _, ok := rel.content.Product(int(e.Product)); !ok {
				e.Product = 0
			}
			events = append(events, e)
		}
	}
	return events, problems
}

// paramsProblem says what is too large in an event's parameters.
func paramsProblem(params map[string]json.RawMessage) string {
	size := 0
	for key, raw := range params {
		size += len(key) + len(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil && utf8.RuneCountInString(s) > maxParamChars {
			return fmt.Sprintf("%s is longer than %d characters.", key, maxParamChars)
		}
	}
	if size > maxParamsBytes {
		return fmt.Sprintf("The parameters are larger than %d KiB.", maxParamsBytes>>10)
	}
	return ""
}
