package studio

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"time"

	"studio/internal/store"
)

// basicOrSession lets a request through with a session cookie or with
// HTTP Basic auth as user "studio"; it answers 401 otherwise.
func (h *Handler) basicOrSession(w http.ResponseWriter, r *http.Request) bool {
	privateHeaders(w)
	if h.loggedIn(r) {
		return true
	}
	user, pass, ok := r.BasicAuth()
	if ok {
		if allowed, wait := h.logins.Allow(h.clientIP(r), h.now()); !allowed {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
			http.Error(w, "429 too many attempts", http.StatusTooManyRequests)
			return false
		}
		userOK := user == basicAuthUser
		if h.passwordMatches(pass) && userOK {
			return true
		}
		h.log.Warn("studio: failed basic auth", "client", h.clientIP(r))
	}
	w.Header().Set("WWW-Authenticate", basicAuthRealm)
	http.Error(w, "401 sign in at /studio, or use HTTP Basic auth as user studio", http.StatusUnauthorized)
	return false
}

// Neutralise makes a cell safe to open in a spreadsheet: one that starts
// with a character a spreadsheet reads as a formula gets a leading
// apostrophe, so it shows as the text it is.
func Neutralise(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}

// writeCSV writes an export for spreadsheets: a UTF-8 byte-order mark
// first, so Excel reads Hindi names and "₹" as they are; every field
// quoted, so a separator inside a value (a "," or a ";", as spreadsheets
// set to other languages split on) never starts a new cell that could be
// a formula; and every value that begins like a formula neutralised.
func writeCSV(w http.ResponseWriter, name string, header []string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`-`+time.Now().UTC().Format("2006-01-02")+`.csv"`)
	bw := bufio.NewWriter(w)
	bw.WriteString("\uFEFF")
	writeRow := func(cells []string) {
		for i, cell := range cells {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(`"` + strings.ReplaceAll(Neutralise(cell), `"`, `""`) + `"`)
		}
		bw.WriteString("\r\n")
	}
	writeRow(header)
	for _, row := range rows {
		writeRow(row)
	}
	bw.Flush()
}

// EnquiriesCSV is GET /studio/enquiries.csv: every enquiry, spam included
// and marked, newest first.
func (h *Handler) EnquiriesCSV(w http.ResponseWriter, r *http.Request) {
	if !h.basicOrSession(w, r) {
		return
	}
	list, err := h.store.Enquiries(r.Context(), store.EnquiryFilter{AllSpam: true})
	if err != nil {
		h.log.Error("studio: export enquiries", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	rows := make([][]string, 0, len(list))
	for _, e := range list {
		product, handled := "", ""
		if e.ProductID != 0 {
			product = strconv.Itoa(e.ProductID)
		}
		if e.HandledAt != nil {
			handled = e.HandledAt.UTC().Format(time.RFC3339)
		}
		rows = append(rows, []string{strconv.FormatInt(e.ID, 10), e.CreatedAt.UTC().Format(time.RFC3339), string(e.Kind),
			product, e.ProductName, e.Material, e.Finish, e.Name, e.Email, e.Phone, e.Message, handled, strconv.FormatBool(e.Spam)})
	}
	writeCSV(w, "enquiries", []string{"id", "received", "kind", "product_id", "product", "material", "finish", "name", "email", "phone", "message", "handled", "spam"}, rows)
}

// NewsletterCSV is GET /studio/newsletter.csv.
func (h *Handler) NewsletterCSV(w http.ResponseWriter, r *http.Request) {
	if !h.basicOrSession(w, r) {
		return
	}
	list, err := h.store.Subscribers(r.Context())
	if err != nil {
		h.log.Error("studio: export newsletter", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	rows := make([][]string, 0, len(list))
	for _, s := range list {
		rows = append(rows, []string{s.Email, s.CreatedAt.UTC().Format(time.RFC3339)})
	}
	writeCSV(w, "newsletter", []string{"email", "subscribed"}, rows)
}
