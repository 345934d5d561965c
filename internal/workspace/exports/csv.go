package exports

import (
	"bufio"
	"net/http"
	"strings"
)

// Neutralise makes a cell safe to open in a spreadsheet: one that starts
// with a character a spreadsheet reads as a formula gets a leading
// apostrophe, so it shows as the text it is.
func Neutralise(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}

// phoneCell writes a phone number so that a spreadsheet shows it as the
// number it is: "+91 98290 41752" would be read as a formula, and with an
// apostrophe it shows the apostrophe, so it goes in as ="+91 98290 41752",
// a formula whose value is that text. Only a value of phone characters
// gets this; anything else is neutralised like every other cell.
func phoneCell(phone string) string {
	if phone == "" || strings.Trim(phone, "0123456789 +-().") != "" || !strings.ContainsRune("+-", rune(phone[0])) {
		return Neutralise(phone)
	}
	return `="` + phone + `"`
}

// WriteCSV writes an export for spreadsheets: a UTF-8 byte-order mark
// first, so Excel reads Hindi names and "₹" as they are; every field
// quoted, so a separator inside a value (a "," or a ";", as spreadsheets
// set to other languages split on) never starts a new cell that could be
// a formula. Each cell comes neutralised (Neutralise, phoneCell). The
// file is name.csv: name says what the file holds, a date with it.
func WriteCSV(w http.ResponseWriter, name string, header []string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	bw := bufio.NewWriter(w)
	bw.WriteString("\uFEFF")
	writeRow := func(cells []string) {
		for i, cell := range cells {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(`"` + strings.ReplaceAll(cell, `"`, `""`) + `"`)
		}
		bw.WriteString("\r\n")
	}
	writeRow(header)
	for _, row := range rows {
		writeRow(row)
	}
	bw.Flush()
}
