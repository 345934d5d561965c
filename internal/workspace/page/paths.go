package page

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// MaxForm is the largest form the workspace reads (a note of 5,000
// characters fits many times over); a form with files has its own limits.
const MaxForm = 64 << 10

// MaxEmailBytes is the longest e-mail address there can be (RFC 5321's
// path); a longer one is a wrong e-mail, not a key to store.
const MaxEmailBytes = 254

// BackPath is the list page an enquiry was opened from (?return= or the
// form's return field), or the inbox.
func BackPath(r *http.Request) string {
	back := r.URL.Query().Get("return")
	if r.Method == http.MethodPost {
		back = r.PostFormValue("return")
	}
	return InboxPath(back)
}

// InboxPath is where to go back to after an action: the page of the inbox
// the form was on, or the inbox itself for anything that is not a plain
// path under /studio (another host, a backslash that browsers read as a
// slash, a path that climbs out with ..).
func InboxPath(back string) string {
	u, err := url.Parse(back)
	switch {
	case err != nil, u.Scheme != "", u.Host != "", u.User != nil, strings.ContainsAny(back, "\\\t\r\n"),
		u.Path != "/studio" && !strings.HasPrefix(u.Path, "/studio/"),
		path.Clean(u.Path) != u.Path:
		return "/studio"
	}
	return back
}
