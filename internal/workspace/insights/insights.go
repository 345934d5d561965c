// Package insights is the workspace's Insights: what the site's visitors
// look for, from the site's own analytics (POST /api/events,
// internal/server/events.go), beside the enquiries that followed. Every
// table is also a CSV. The figures are read by readInsights (figures.go);
// this file serves them, and makes the days' counts (RollUp).
package insights

import (
	"context"
	"embed"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"studio/internal/workspace/exports"
	"studio/internal/workspace/page"
)

// Store is what the insights read and count (a *store.Store).
type Store interface {
	figuresReader
	eventCounter
}

// eventCounter makes the days' counts from the raw events.
type eventCounter interface {
	RollUpEvents(ctx context.Context, today string, keepDays int) error
}

const (
	defaultRangeDays = 7
	maxRangeDays     = 366
)

// The insights' own page, in templates/.
//
//go:embed templates
var templateFiles embed.FS

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) page.Name { return pageFiles.Declare(file) }

var insightsPage = newPage("insights.html")

// Handler serves the insights and makes their counts.
type Handler struct {
	store    Store
	kit      *page.Kit
	pages    *page.Pages
	keepDays int // how long analytics events are kept as they came

	rolled   sync.Mutex
	rolledAt time.Time // when RollUp last made the counts
}

// New returns the insights, which keep events keepDays as they came. It
// panics if the page's template is broken (it is built in: a mistake of
// the build's).
func New(st Store, kit *page.Kit, keepDays int) *Handler {
	return &Handler{store: st, kit: kit, pages: kit.MustParse(templateFiles, pageFiles, nil), keepDays: keepDays}
}

// insightsView is the insights page: the figures, and the ways to other
// periods.
type insightsView struct {
	page.Frame
	insightsFigures
	CountedAt time.Time // when the counts were last made from the events
	Latest    string    // this page's address, asking for the latest counts
	Presets   []preset
	Chart     chart
	Shown     []shownTable // the tables, as the page shows them
}

type preset struct {
	Label, URL string
	Current    bool
}

// Insights is GET /studio/insights: the period's figures, with from and to
// in the query (the last seven days by default).
func (h *Handler) Insights(w http.ResponseWriter, r *http.Request) {
	p, problem := h.period(r)
	countedAt, err := h.countsMadeAt(r.Context(), r.URL.Query().Has("latest"))
	var figures *insightsFigures
	if err == nil {
		figures, err = readInsights(r.Context(), h.store, p, h.kit.Location, h.kit.Facts())
	}
	if err != nil {
		h.kit.Log.Error("studio: insights", "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Insights", "The figures cannot be read just now: the database did not answer. Try again in a minute.", "")
		return
	}
	q := r.URL.Query()
	q.Set("latest", "")
	h.pages.Render(w, r, http.StatusOK, insightsPage, &insightsView{
		Frame:           page.Frame{Title: "Insights", Section: "insights", Problem: problem},
		insightsFigures: *figures,
		CountedAt:       countedAt,
		Latest:          "/studio/insights?" + q.Encode(),
		Presets:         h.presets(p),
		Chart:           newChart(figures.Visitors, figures.PreviousVisitors, figures.Period, figures.Previous),
		Shown:           showTables(figures.Tables),
	})
}

// InsightsCSV is GET /studio/insights.csv?table=…: one table of the page,
// for the same period.
func (h *Handler) InsightsCSV(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("table")
	if !slices.Contains(tableIDs, id) {
		http.Error(w, "400 table must be one of: "+strings.Join(tableIDs, ", "), http.StatusBadRequest)
		return
	}
	p, problem := h.period(r)
	if problem != "" {
		http.Error(w, "400 "+problem, http.StatusBadRequest)
		return
	}
	_, err := h.countsMadeAt(r.Context(), false)
	var figures *insightsFigures
	if err == nil {
		figures, err = readInsights(r.Context(), h.store, p, h.kit.Location, h.kit.Facts())
	}
	if err != nil {
		h.kit.Log.Error("studio: insights export", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	for _, t := range figures.Tables {
		if t.ID == id {
			rows := make([][]string, len(t.Rows))
			for i, row := range t.Rows {
				rows[i] = make([]string, len(row))
				for j, cell := range row {
					rows[i][j] = exports.Neutralise(cell)
				}
			}
			// Named for the period it holds, not the day it was saved.
			exports.WriteCSV(w, "insights-"+id+"-"+p.From+"-to-"+p.To, t.Header, rows)
			return
		}
	}
}

// period reads from and to; a wrong one is said, and the default used.
func (h *Handler) period(r *http.Request) (period, string) {
	today := h.kit.Now().In(h.kit.Location)
	def := period{today.AddDate(0, 0, 1-defaultRangeDays).Format(time.DateOnly), today.Format(time.DateOnly)}
	q := r.URL.Query()
	if q.Get("from") == "" && q.Get("to") == "" {
		return def, ""
	}
	from, err1 := time.Parse(time.DateOnly, q.Get("from"))
	to, err2 := time.Parse(time.DateOnly, q.Get("to"))
	switch {
	case err1 != nil || err2 != nil:
		return def, "Dates are written as YYYY-MM-DD; showing the last seven days."
	case to.Before(from):
		return def, "The period ends before it starts; showing the last seven days."
	case to.Sub(from) >= maxRangeDays*24*time.Hour:
		return def, fmt.Sprintf("A period is at most %d days; showing the last seven days.", maxRangeDays)
	}
	return period{from.Format(time.DateOnly), to.Format(time.DateOnly)}, ""
}

// presets are the usual periods up to today, the one shown marked.
func (h *Handler) presets(shown period) []preset {
	today := h.kit.Now().In(h.kit.Location)
	var presets []preset
	for _, n := range []int{7, 30, 90} {
		p := period{today.AddDate(0, 0, 1-n).Format(time.DateOnly), today.Format(time.DateOnly)}
		presets = append(presets, preset{Label: fmt.Sprintf("Last %d days", n), URL: "/studio/insights?from=" + p.From + "&to=" + p.To, Current: p == shown})
	}
	return presets
}

// RollUp makes the days' counts from the raw events (today's and
// yesterday's again) and deletes events past KeepDays. The server runs it
// every few minutes; the insights page on asking ("Count the latest").
func (h *Handler) RollUp(ctx context.Context) error {
	now := h.kit.Now()
	if err := h.store.RollUpEvents(ctx, now.In(h.kit.Location).Format(time.DateOnly), h.keepDays); err != nil {
		return err
	}
	h.rolled.Lock()
	h.rolledAt = now
	h.rolled.Unlock()
	return nil
}

// countsMadeAt says when the counts were made, making them first when
// asked for the latest or when none were made since start-up: counting a
// day's events takes a moment with many of them (half a second for a day
// of 33,000), so the page reads the counts as they are.
func (h *Handler) countsMadeAt(ctx context.Context, latest bool) (time.Time, error) {
	h.rolled.Lock()
	rolledAt := h.rolledAt
	h.rolled.Unlock()
	if latest || rolledAt.IsZero() {
		if err := h.RollUp(ctx); err != nil {
			return time.Time{}, err
		}
		rolledAt = h.kit.Now()
	}
	return rolledAt, nil
}
