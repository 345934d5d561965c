package insights

import (
	"slices"

	"studio/internal/workspace/page"
)

// shownTable is a table as the page shows it: its days written as the
// workspace writes a date, each cell with its column's name, so that on a
// phone a wide table's row is a card of "Visitors 4" lines (the
// stylesheet's table.stacked) instead of a table to scroll sideways.
type shownTable struct {
	ID, Title, Note, Empty string
	Header                 []string
	Rows                   []shownRow
	Stacked                bool // too wide for a phone as a table
}

// shownRow is a row: its first cell (which names it) and the others.
type shownRow struct {
	Head  shownCell
	Cells []shownCell
}

type shownCell struct {
	Text, Column string
	Day          bool // a date: never broken across lines
}

// phoneColumns is the most columns a table has that still reads as a
// table at 320 px.
const phoneColumns = 3

func showTables(tables []table) []shownTable {
	shown := make([]shownTable, len(tables))
	for i, t := range tables {
		s := shownTable{ID: t.ID, Title: t.Title, Note: t.Note, Empty: t.Empty, Header: t.Header,
			Stacked: len(t.Header) > phoneColumns}
		for _, row := range t.Rows {
			cells := make([]shownCell, len(row))
			for j, text := range row {
				cells[j] = shownCell{Text: text, Column: at(t.Header, j)}
				if slices.Contains(t.DayColumns, j) {
					cells[j].Text, cells[j].Day = page.Day(text), true
				}
			}
			if len(cells) > 0 {
				s.Rows = append(s.Rows, shownRow{Head: cells[0], Cells: cells[1:]})
			}
		}
		shown[i] = s
	}
	return shown
}
