package store

import "time"

// First-party analytics ("insights"): raw events for the last weeks, and
// their daily counts per dimension, kept for good.

// InsightEvent is one analytics event as the server stores it (the server
// has already validated and normalised it; the store does not interpret
// names). (Event is an enquiry's history entry, workflow.go.)
type InsightEvent struct {
	At       time.Time // when the server received it
	Day      string    // "2026-11-23": the day in the studio's time zone (the server computes it)
	Visitor  string    // a daily-rotating salted hash, hex; never an IP
	Name     string    // "page_view", "view_item", "search", "quote_request", "customize_request", ...
	Path     string    // the page's path, "/product/3"; may be ""
	Product  int64     // a product id, 0 when none
	Label    string    // the event's one dimension: a search term, "material:Wood", a chat topic id, ...; may be ""
	Empty    bool      // the event says it found nothing (a search or filter with result_count 0)
	Device   string    // "phone" or "desktop"
	Referrer string    // the referring site's host, "" when direct or internal
	Campaign string    // "utm_source / utm_campaign" or "", as the server writes it
}

// DayCount is one day's events and distinct visitors.
type DayCount struct {
	Day              string
	Events, Visitors int64
}

// ValueCount is one value of a dimension with its events and visitors.
type ValueCount struct {
	Value            string
	Events, Visitors int64
}

// EventBatch is one request's events, as the server hands them over.
type EventBatch struct {
	// ID is the page's batchId: a batch whose id is stored already (a
	// retry) is not stored again. "" stores the batch whatever (tools and
	// tests).
	ID string
	// Day is the day the server received the batch ("2026-11-23", the
	// studio's time zone): the caps it counts against are that day's.
	Day string
	// Sender is a keyed hash of the sender's address, made by the server
	// (never the address itself): the per-sender cap counts by it. "" is
	// counted against no sender.
	Sender string
	Events []InsightEvent
}

// EventCaps are the most events stored in one day: in all, and from one
// sender. Zero or less is no cap.
type EventCaps struct {
	PerDay, PerSender int64
}

// EventsAdded says what became of a batch's events. Stored are its first
// events; the rest were dropped, each counted under one reason.
type EventsAdded struct {
	Stored     int
	Duplicate  int // the batch was stored before
	OverDay    int // the day's cap was reached
	OverSender int // the sender's cap was reached
}
