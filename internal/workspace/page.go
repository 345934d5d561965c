package workspace

import (
	"embed"
	"html/template"
	"net/http"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// The workspace's own pages: one template file each in templates/,
// around which package page puts the layout.
//
//go:embed templates
var templateFiles embed.FS

type (
	frame         = page.Frame
	view          = page.View
	workspacePage = page.Name
)

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) workspacePage { return pageFiles.Declare(file) }

// render writes a page with its view model.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, p workspacePage, v view) {
	h.pages.Render(w, r, status, p, v)
}

// fail answers a request that could not be done with the error page.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, title, problem, back string) {
	h.kit.Fail(w, r, status, title, problem, back)
}

var statusLabels = map[enquiry.Status]string{enquiry.New: "New", enquiry.Replied: "Replied", enquiry.Quoted: "Quoted",
	enquiry.Won: "Won", enquiry.Lost: "Lost", enquiry.Archived: "Archived"}

var kindLabels = map[enquiry.Kind]string{enquiry.Contact: "Message", enquiry.Quote: "Quote", enquiry.Customize: "Customisation"}

// eventText says one entry of an enquiry's history.
func eventText(ev store.Event) string {
	value := func(v string) string {
		switch v {
		case "true":
			return "spam"
		case "false":
			return "not spam"
		}
		return statusLabels[enquiry.Status(v)]
	}
	switch ev.Action {
	case store.ActionStatus:
		return "moved it from " + value(ev.From) + " to " + value(ev.To)
	case store.ActionSpam:
		return "marked it as " + value(ev.To)
	case store.ActionNote:
		return "added a note"
	case store.ActionUndo:
		return "undid the change to " + value(ev.From) + ", back to " + value(ev.To)
	case store.ActionDelete:
		return "deleted it"
	case store.ActionReply:
		return "sent a reply"
	case store.ActionErase:
		return "erased the person's data"
	}
	return ev.Action
}

// templateFuncs are the functions of the workspace's own pages.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"kindLabel":   func(k enquiry.Kind) string { return kindLabels[k] },
		"statusLabel": func(s enquiry.Status) string { return statusLabels[s] },
		"eventText":   eventText,
		"mailTo": func(recipient string) string {
			switch recipient {
			case store.RecipientVisitor:
				return "Acknowledgement to the visitor"
			case store.RecipientReply:
				return "Reply to the customer"
			}
			return "Copy to the studio"
		},
		"customerURL": customerURL,
	}
}
