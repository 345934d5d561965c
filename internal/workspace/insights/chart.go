package insights

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// chart is the visitors per day of the period (a line) and of the one
// before (dashed), the same day of each above one another. The lines are
// an SVG that stretches to the page's width; the axes' words are HTML
// beside and under it, so that they keep their size on a phone and on a
// laptop. Each day is a column of the plot, its point in the column's
// middle: one day of data is a dot, not a line, and a day without visitors
// a dot on the 0 line.
type chart struct {
	Width, Height int    // the plot, in the SVG's units
	Grid          string // a path: the lines of the visitors axis' ticks
	Now, Before   series
	Ticks         []string  // the visitors axis, top first, evenly spaced down to 0 at the foot
	Days          []dayTick // the days axis, one a column, first day first
	NowLegend     legend    // the legend's words for the period
	BeforeLegend  legend    // and for the one before
	Label         string    // what the chart shows, for screen readers
}

// legend names a period: "Previous 7 days", and its first and last day
// (or its one day), each written as the workspace writes a date.
type legend struct {
	Name string
	Days []string
}

// series is one period's line: the points of a polyline, and a path of a
// dot at each point ("" where the days are too many for dots).
type series struct{ Line, Dots string }

// dayTick is a day under its column: its date when it is named on every
// screen, or when Wide, only on a wide one; "" when it is never named
// (too many days to name each).
type dayTick struct {
	Text string
	Wide bool
}

const (
	columnWidth = 20  // a day's column, in the SVG's units
	plotHeight  = 100 // the plot's height, in the SVG's units
	// axisDayLayout is page.DayLayout without the year: the legend gives it.
	axisDayLayout = "2 Jan"
	// maxDotDays is the longest period whose days are each a dot: past it,
	// the dots would run into a thick line on a phone.
	maxDotDays = 31
	// namedDays and namedDaysWide are about how many days the axis names
	// on a phone and on a wide screen: "29 Nov" needs room.
	namedDays, namedDaysWide = 4, 12
)

// newChart draws the visitors of now's days beside those of before's,
// the period p and the one before it, prev.
func newChart(now, before []store.DayCount, p, prev period) chart {
	n := max(len(now), 1)
	var most int64
	for _, d := range now {
		most = max(most, d.Visitors)
	}
	for _, d := range before {
		most = max(most, d.Visitors)
	}
	step, top := ticks(most)
	c := chart{Width: n * columnWidth, Height: plotHeight}
	var grid strings.Builder
	for v := top; v >= 0; v -= step {
		c.Ticks = append(c.Ticks, strconv.FormatInt(v, 10))
		fmt.Fprintf(&grid, "M0 %sH%d", c.y(v, top), c.Width)
	}
	c.Grid = grid.String()
	dots := len(now) <= maxDotDays
	c.Now, c.Before = c.series(now, top, dots), c.series(before, top, dots)
	c.Days = dayTicks(now)
	c.NowLegend = legend{"This period", spell(p)}
	c.BeforeLegend = legend{"Previous " + daysWord(prev.days()), spell(prev)}
	// Read after the chart's title, "Visitors per day".
	c.Label = fmt.Sprintf("%s: %d in all, at most %d in a day. %s, %s: %d in all. The table “Visitors and page views per day” gives each day.",
		strings.Join(c.NowLegend.Days, " to "), sumVisitors(now), most, c.BeforeLegend.Name, strings.Join(c.BeforeLegend.Days, " to "), sumVisitors(before))
	return c
}

// ticks chooses the visitors axis: a step of 1, 2 or 5 times a power of
// ten such that at most four steps reach most, and the top tick (at least
// one step, so that a period without visitors still has an axis).
func ticks(most int64) (step, top int64) {
	for scale := int64(1); ; scale *= 10 {
		for _, m := range []int64{1, 2, 5} {
			step = m * scale
			if steps := (most + step - 1) / step; steps <= 4 {
				return step, step * max(steps, 1)
			}
		}
	}
}

// y is the height of v visitors on a plot whose top is top, in the SVG's
// units (0 at the top).
func (c chart) y(v, top int64) string {
	y := float64(c.Height) - float64(v)*float64(c.Height)/float64(top)
	return strconv.FormatFloat(math.Round(y*100)/100, 'f', -1, 64)
}

// series draws days, each in the middle of its column.
func (c chart) series(days []store.DayCount, top int64, dots bool) series {
	var line, dot strings.Builder
	for i, d := range days {
		x, y := i*columnWidth+columnWidth/2, c.y(d.Visitors, top)
		fmt.Fprintf(&line, "%d,%s ", x, y)
		if dots {
			// A path of no length with round caps is a dot, round however
			// the plot is stretched (the stroke does not scale).
			fmt.Fprintf(&dot, "M%d %sh0", x, y)
		}
	}
	return series{Line: strings.TrimSpace(line.String()), Dots: dot.String()}
}

// dayTicks names about namedDays days evenly on a phone, and about
// namedDaysWide on a wide screen (those of the phone among them).
func dayTicks(days []store.DayCount) []dayTick {
	n := len(days)
	wide := ceilDiv(n, namedDaysWide)
	narrow := wide * ceilDiv(n, namedDays*wide)
	list := make([]dayTick, n)
	for i, d := range days {
		if i%wide != 0 {
			continue
		}
		t, _ := time.Parse(time.DateOnly, d.Day)
		list[i] = dayTick{Text: t.Format(axisDayLayout), Wide: i%narrow != 0}
	}
	return list
}

func ceilDiv(a, b int) int { return max((a+b-1)/b, 1) }

// spell is a period's first and last day in the workspace's dates, or
// its one day.
func spell(p period) []string {
	if p.From == p.To {
		return []string{page.Day(p.From)}
	}
	return []string{page.Day(p.From), page.Day(p.To)}
}

// daysWord is "7 days", or "day" for one: "Previous 7 days", "Previous day".
func daysWord(n int) string {
	if n == 1 {
		return "day"
	}
	return strconv.Itoa(n) + " days"
}
