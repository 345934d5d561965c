package studio

import (
	"html/template"
	"net/http"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// page is what one of the workspace's pages shows.
type page struct {
	Title   string
	Problem string // what went wrong, said as role=alert
	Notice  string // what was done, said as role=status
	Account string // who is signed in ("" on the sign-in page)

	SignIn bool
	Email  string // kept in the sign-in form after a failure

	// The list.
	Enquiries    []enquiry.Enquiry
	Filter       filterForm
	NewCount     int
	Newer, Older string
	Return       string // this list's address, for the way back from an enquiry
	Kinds        []enquiry.Kind
	Statuses     []enquiry.Status
	Products     []Product
	// The account's failed sign-ins in the last FailedSignInsDays days.
	FailedSignIns     store.FailedSignIns
	FailedSignInsDays int

	// One enquiry.
	Enquiry       *enquiry.Enquiry
	Notes         []store.Note
	History       []store.Event
	Undo          *store.Event // the last change, while it can be undone
	Mails         []store.MailDelivery
	Draft         string // a refused note, to edit and send again
	ReplyURL      template.URL
	WhatsAppURL   template.URL
	Back          string // the list it was opened from
	ConfirmDelete bool

	Insights *insightsPage
}

func (h *Handler) page(w http.ResponseWriter, r *http.Request, status int, p *page) {
	p.Account = actor(r)
	p.Kinds, p.Statuses, p.Products = enquiry.Kinds, enquiry.Statuses, h.opts.Products
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status == http.StatusServiceUnavailable {
		// The database did not answer (in time): say when to try again.
		w.Header().Set("Retry-After", retryAfterSeconds)
	}
	w.WriteHeader(status)
	if err := h.pages.Execute(w, p); err != nil {
		h.log.Error("studio: render", "err", err)
	}
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
	}
	return ev.Action
}

// templates parses the pages with times in loc.
func templates(loc *time.Location) *template.Template {
	return template.Must(template.New("studio").Funcs(template.FuncMap{
		"when":        func(t time.Time) string { return t.In(loc).Format("2 Jan 2006, 15:04 MST") },
		"kindLabel":   func(k enquiry.Kind) string { return kindLabels[k] },
		"statusLabel": func(s enquiry.Status) string { return statusLabels[s] },
		"eventText":   eventText,
		"mailTo": func(recipient string) string {
			if recipient == store.RecipientVisitor {
				return "Acknowledgement to the visitor"
			}
			return "Copy to the studio"
		},
		"lower": strings.ToLower,
		"excerpt": func(s string) string {
			if r := []rune(s); len(r) > 240 {
				return strings.TrimSpace(string(r[:240])) + "…"
			}
			return s
		},
		// html/template allows only http(s) and mailto links; a phone number
		// holds nothing but digits and +, so its tel: link is built from those.
		"telURL": func(phone string) template.URL {
			return template.URL("tel:" + strings.Map(func(r rune) rune {
				if r == '+' || (r >= '0' && r <= '9') {
					return r
				}
				return -1
			}, phone))
		},
	}).Parse(layoutHTML + insightsHTML))
}

// layoutHTML is every page of the workspace. html/template escapes
// everything a visitor typed.
const layoutHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}} · Studio inbox</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #2a2420; background: #fbf7f0; }
  header, main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; }
  header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; border-bottom: 1px solid #e8d5b5; }
  header .home { font-weight: 700; font-size: 1.15rem; color: #23305e; text-decoration: none; }
  header form { display: inline; }
  .who { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
  h1 { font-size: 1.5rem; margin: .5rem 0 1rem; color: #23305e; overflow-wrap: anywhere; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; color: #23305e; }
  a { color: #8f3f1f; }
  .count { font-size: 1rem; font-weight: 600; color: #2a2420; background: #f4eadb; border-radius: 1rem; padding: .1rem .6rem; margin-left: .5rem; white-space: nowrap; }
  form.filter { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; align-items: end; background: #fff; border: 1px solid #e8d5b5; border-radius: .375rem; padding: 1rem; }
  form.filter label, form.note label { display: grid; gap: .25rem; font-weight: 600; }
  form.filter input, form.filter select, textarea { font-weight: 400; }
  article { background: #fff; border: 1px solid #e8d5b5; border-radius: .375rem; padding: 1rem; margin: 1rem 0; }
  article h2 { font-size: 1.1rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
  .status { display: inline-block; font-size: .875rem; font-weight: 700; border: 1px solid #23305e; border-radius: 1rem; padding: 0 .6rem; color: #23305e; }
  .status.spam { border-color: #8f3f1f; color: #8f3f1f; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 .75rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .message, .note-body { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4eadb; padding: .75rem; border-radius: .25rem; margin: 0 0 .75rem; }
  .actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; padding: 0; list-style: none; }
  .actions form { margin: 0; }
  button, input, select, textarea { font: inherit; }
  button, input, select, .button { min-height: 2.75rem; }
  button, .button { display: inline-flex; align-items: center; padding: .25rem 1rem; border: 2px solid #23305e; border-radius: .375rem; background: #23305e; color: #fff; cursor: pointer; text-decoration: none; }
  button.quiet, .button.quiet { background: transparent; color: #23305e; }
  button.danger { background: #8f3f1f; border-color: #8f3f1f; }
  input, select, textarea { padding: .25rem .5rem; border: 1px solid #8a6d2f; border-radius: .375rem; background: #fff; color: inherit; min-width: 0; }
  textarea { width: 100%; box-sizing: border-box; min-height: 6rem; }
  :focus-visible { outline: 3px solid #8f3f1f; outline-offset: 2px; box-shadow: 0 0 0 5px #fbf7f0; }
  .problem { color: #8f3f1f; font-weight: 600; }
  .notice { font-weight: 600; }
  .failed-sign-ins { border-left: 4px solid #8f3f1f; padding-left: .75rem; }
  .exports { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
  .pages { display: flex; justify-content: space-between; gap: 1rem; }
  ol.history, ul.notes { padding-left: 1.25rem; }
  .meta { color: #5a4d40; font-size: .9375rem; }
  form.sign-in { display: grid; gap: .5rem; max-width: 22rem; }
  form.sign-in input { width: 100%; box-sizing: border-box; }
  .totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem; margin: 0; }
  .totals div { background: #fff; border: 1px solid #e8d5b5; border-radius: .375rem; padding: .75rem 1rem; }
  .totals dd { font-size: 1.75rem; font-weight: 700; color: #23305e; }
  .totals dd.meta { font-size: .9375rem; font-weight: 400; color: #5a4d40; }
  .chart { width: 100%; height: auto; background: #fff; border: 1px solid #e8d5b5; border-radius: .375rem; padding: .5rem; box-sizing: border-box; }
  .legend { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; }
  .table-wrap { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  caption { text-align: left; font-weight: 700; color: #23305e; font-size: 1.1rem; padding: .5rem 0; }
  th, td { text-align: left; padding: .375rem .75rem; border-bottom: 1px solid #e8d5b5; overflow-wrap: break-word; }
  td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
  td.n { white-space: nowrap; }
  section.insight { margin: 2rem 0; }
</style>
</head>
<body>
<header>
  <a class="home" href="/studio">Studio inbox</a>
  {{if .Account}}<nav aria-label="Workspace" class="who"><a href="/studio">Enquiries</a> <a href="/studio/insights"{{if .Insights}} aria-current="page"{{end}}>Insights</a></nav>
  <div class="who">
    <span>Signed in as {{.Account}}</span>
    <form method="post" action="/studio/sign-out"><button class="quiet">Sign out</button></form>
    <form method="post" action="/studio/sign-out-everywhere"><button class="quiet">Sign out everywhere</button></form>
  </div>{{end}}
</header>
<main>
{{if .SignIn}}
  <h1>Sign in</h1>
  {{template "problem" .}}
  <form class="sign-in" method="post" action="/studio/sign-in">
    <label for="email">E-mail</label>
    <input id="email" name="email" type="text" inputmode="email" value="{{.Email}}" autocomplete="username" required autofocus spellcheck="false" autocapitalize="none" aria-describedby="email-hint">
    <p id="email-hint" class="meta">Your account’s address. Set up with STUDIO_PASSWORD alone, the account is “studio”.</p>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button>Sign in</button>
  </form>
{{else if .ConfirmDelete}}{{with .Enquiry}}
  <h1>Delete enquiry #{{.ID}}?</h1>
  <p>This removes {{.Name}}’s {{kindLabel .Kind | lower}} of {{when .CreatedAt}}, its notes and its e-mails, for good. The history keeps only who deleted #{{.ID}}, and when.</p>
  <form method="post" action="/studio/enquiries/{{.ID}}/delete" class="actions">
    <input type="hidden" name="return" value="{{$.Back}}">
    <button class="danger">Delete #{{.ID}} for good</button>
    <a class="button quiet" href="/studio/enquiries/{{.ID}}?return={{$.Back}}">Keep it</a>
  </form>
{{end}}{{else if .Enquiry}}{{template "enquiry" .}}
{{else if .Insights}}{{template "problem" .}}{{template "insights" .Insights}}
{{else if .Account}}{{template "list" .}}
{{else}}
  <h1>{{.Title}}</h1>
  {{template "problem" .}}
  <p><a href="{{if .Back}}{{.Back}}{{else}}/studio{{end}}">Back to the inbox</a></p>
{{end}}
</main>
</body>
</html>

{{define "problem"}}{{if .Problem}}<p class="problem" role="alert">{{.Problem}}</p>{{end}}{{if .Notice}}<p class="notice" role="status">{{.Notice}}</p>{{end}}{{end}}

{{define "list"}}
  <h1>Enquiries{{if .NewCount}}<span class="count">{{.NewCount}} new</span>{{end}}</h1>
  {{template "problem" .}}
  {{with .FailedSignIns}}{{if .Count}}<p class="failed-sign-ins">{{.Count}} failed sign-in {{if eq .Count 1}}attempt{{else}}attempts{{end}} for your account in the last {{$.FailedSignInsDays}} days, the latest on {{when .Last}} from {{.From}}.</p>{{end}}{{end}}
  <form class="filter" method="get" action="/studio" role="search" aria-label="Enquiries">
    <label>Search <input type="search" name="q" value="{{.Filter.Search}}" placeholder="Name, e-mail, phone, words"></label>
    <label>Status <select name="status">
      <option value="" {{if eq .Filter.Status ""}}selected{{end}}>Open</option>
      {{range .Statuses}}<option value="{{.}}" {{if eq $.Filter.Status (print .)}}selected{{end}}>{{statusLabel .}}</option>{{end}}
      <option value="all" {{if eq .Filter.Status "all"}}selected{{end}}>Any status</option>
      <option value="spam" {{if eq .Filter.Status "spam"}}selected{{end}}>Spam</option>
    </select></label>
    <label>Kind <select name="kind">
      <option value="">Any kind</option>
      {{range .Kinds}}<option value="{{.}}" {{if eq $.Filter.Kind (print .)}}selected{{end}}>{{kindLabel .}}</option>{{end}}
    </select></label>
    <label>Product <select name="product">
      <option value="">Any product</option>
      {{range .Products}}<option value="{{.ID}}" {{if eq $.Filter.Product (print .ID)}}selected{{end}}>{{.Name}}</option>{{end}}
    </select></label>
    <label>Received from <input type="date" name="from" value="{{.Filter.From}}"></label>
    <label>Received until <input type="date" name="to" value="{{.Filter.To}}"></label>
    <button>Show</button>
  </form>
  <p class="exports"><a href="/studio/enquiries.csv" download>Enquiries as CSV</a> <a href="/studio/newsletter.csv" download>Newsletter list as CSV</a></p>
  {{range .Enquiries}}
  <article aria-labelledby="enquiry-{{.ID}}">
    <h2 id="enquiry-{{.ID}}"><a href="/studio/enquiries/{{.ID}}?return={{$.Return}}">#{{.ID}} · {{kindLabel .Kind}}{{if .Items}} · {{.Pieces}}{{else if .ProductName}} · {{.ProductName}}{{end}} · {{.Name}}</a></h2>
    <p class="meta"><span class="status{{if .Spam}} spam{{end}}">{{if .Spam}}Spam{{else}}{{statusLabel .Status}}{{end}}</span> Received {{when .CreatedAt}} · {{.Email}}{{if .Phone}} · {{.Phone}}{{end}}</p>
    {{if or .Material .Finish}}<p class="meta">{{.Material}}{{if and .Material .Finish}}, {{end}}{{.Finish}}</p>{{end}}
    {{if .Message}}<p class="message">{{excerpt .Message}}</p>{{end}}
  </article>
  {{else}}
  <p>No enquiries match.</p>
  {{end}}
  {{if or .Newer .Older}}<nav class="pages" aria-label="Pages">
    {{if .Newer}}<a href="{{.Newer}}">Newer enquiries</a>{{else}}<span></span>{{end}}
    {{if .Older}}<a href="{{.Older}}">Older enquiries</a>{{end}}
  </nav>{{end}}
{{end}}

{{define "enquiry"}}{{with .Enquiry}}
  <p><a href="{{$.Back}}">Back to the list</a></p>
  <h1>#{{.ID}} · {{kindLabel .Kind}}{{if .Items}} · {{.Pieces}}{{else if .ProductName}} · {{.ProductName}}{{end}} · {{.Name}}</h1>
  {{template "problem" $}}
  <p class="meta"><span class="status{{if .Spam}} spam{{end}}">{{if .Spam}}Spam · {{end}}{{statusLabel .Status}}</span> Received {{when .CreatedAt}}</p>
  <dl>
    {{if .ProductName}}<dt>Product</dt><dd>{{.ProductName}} (#{{.ProductID}})</dd>{{end}}
    {{if .Material}}<dt>Material</dt><dd>{{.Material}}</dd>{{end}}
    {{if .Finish}}<dt>Finish</dt><dd>{{.Finish}}</dd>{{end}}
    <dt>E-mail</dt><dd>{{.Email}}</dd>
    {{if .Phone}}<dt>Phone</dt><dd><a href="{{telURL .Phone}}">{{.Phone}}</a></dd>{{end}}
  </dl>
  {{if .Items}}
  <div class="table-wrap" tabindex="0" role="group" aria-labelledby="pieces"><table>
    <caption id="pieces">{{.Pieces}}</caption>
    <thead><tr><th scope="col">Product</th><th scope="col">Material</th><th scope="col">Finish</th><th scope="col" class="n">Quantity</th><th scope="col">Note</th></tr></thead>
    <tbody>{{range .Items}}<tr><th scope="row">{{.ProductName}} (#{{.ProductID}})</th><td>{{.Material}}</td><td>{{.Finish}}</td><td class="n">{{.Quantity}}</td><td>{{.Note}}</td></tr>{{end}}</tbody>
  </table></div>
  {{end}}
  {{if .Message}}<p class="message">{{.Message}}</p>{{end}}
  <ul class="actions">
    <li><a class="button" href="{{$.ReplyURL}}">Reply by e-mail</a></li>
    {{if $.WhatsAppURL}}<li><a class="button quiet" href="{{$.WhatsAppURL}}" rel="noreferrer">WhatsApp {{.Phone}}</a></li>{{end}}
  </ul>

  <h2>Status</h2>
  <form method="post" action="/studio/enquiries/{{.ID}}/status" class="actions" aria-label="Move to">
    <input type="hidden" name="return" value="{{$.Back}}">
    {{$current := .Status}}{{range $.Statuses}}{{if ne . $current}}<button class="quiet" name="status" value="{{.}}">Mark {{statusLabel . | lower}}</button>{{end}}{{end}}
  </form>
  <form method="post" action="/studio/enquiries/{{.ID}}/spam" class="actions">
    <input type="hidden" name="return" value="{{$.Back}}">
    {{if .Spam}}<button class="quiet" name="spam" value="false">Not spam</button>{{else}}<button class="quiet" name="spam" value="true">Mark as spam</button>{{end}}
  </form>
  {{with $.Undo}}
  <form method="post" action="/studio/enquiries/{{.EnquiryID}}/undo" class="actions">
    <input type="hidden" name="return" value="{{$.Back}}">
    <input type="hidden" name="change" value="{{.ID}}">
    <span>Last change: {{.Actor}} {{eventText .}}, {{when .At}}.</span>
    <button class="quiet">Undo</button>
  </form>
  {{end}}

  <h2 id="notes">Notes</h2>
  {{if $.Notes}}<ul class="notes">{{range $.Notes}}
    <li><p class="meta">{{.Author}}, {{when .At}}</p><p class="note-body">{{.Body}}</p></li>
  {{end}}</ul>{{else}}<p>No notes yet.</p>{{end}}
  <form method="post" action="/studio/enquiries/{{.ID}}/notes" class="note">
    <input type="hidden" name="return" value="{{$.Back}}">
    <label>New note <textarea name="note" maxlength="5000" rows="4">{{$.Draft}}</textarea></label>
    <p><button>Add note</button></p>
  </form>

  <h2>E-mails</h2>
  {{if $.Mails}}<ul>{{range $.Mails}}
    <li>{{mailTo .Recipient}}: {{if eq .State "sent"}}sent {{when .At}}{{else if eq .State "failed"}}<strong>not delivered</strong>: given up after {{.Attempts}} attempts, {{when .At}}. The mail server said: {{.LastError}}{{else if .Attempts}}<strong>not delivered yet</strong>: {{.Attempts}} {{if eq .Attempts 1}}attempt{{else}}attempts{{end}} failed, the next at {{when .At}}. The mail server said: {{.LastError}}{{else}}waiting to be sent{{end}}</li>
  {{end}}</ul>{{else}}<p>None: mail is not set up (SMTP_HOST), or the enquiry came in as spam.</p>{{end}}

  <h2>History</h2>
  <ol class="history">
    <li>{{when .CreatedAt}}: received from the website{{if .Spam}} (marked as spam){{end}}.</li>
    {{range $.History}}<li>{{when .At}}: {{.Actor}} {{eventText .}}{{if .Undone}} (undone){{end}}.</li>{{end}}
  </ol>

  <h2>Delete</h2>
  <p>For a customer who asks to be forgotten: the enquiry, its notes and its e-mails go for good.</p>
  <p><a href="/studio/enquiries/{{.ID}}/delete?return={{$.Back}}">Delete enquiry #{{.ID}}…</a></p>
{{end}}{{end}}
`
