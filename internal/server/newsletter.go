package server

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"studio/internal/newsletter"
	"studio/internal/store"
)

// The newsletter's mailed links (package newsletter signs them): to
// confirm a sign-up, and to unsubscribe. A GET shows a page with one
// button and changes nothing, since mail scanners follow links; the
// button's POST does it. The unsubscribe link's POST is also RFC 8058's
// one-click unsubscribe, which a mail provider's server sends with the
// body "List-Unsubscribe=One-Click": it carries no cookie and no CSRF
// token, and needs none, as the signature is the authority. So neither
// POST is checked for its origin. A link with a bad signature changes
// nothing.

// WithNewsletter turns the newsletter's links on: st changes the list,
// key (store.KeyNewsletterLinks) checks the links' signatures. Without
// it their paths answer 404.
func WithNewsletter(st Newsletter, key []byte) Option {
	return func(s *Server) { s.newsletter, s.newsletterKey = st, key }
}

// newsletterPage is what one of these pages says.
type newsletterPage struct {
	Heading   string
	Lines     []string
	Action    string // the button's form posts here, with Email and Signature
	Email     string
	Signature string
	Button    string
}

var newsletterPageHTML = template.Must(template.New("newsletter").Parse(`<div class="page-intro">
<h1>{{.Heading}}</h1>
{{range .Lines}}<p>{{.}}</p>
{{end}}{{if .Button}}<form method="post" action="{{.Action}}">
<input type="hidden" name="e" value="{{.Email}}"><input type="hidden" name="s" value="{{.Signature}}">
<p><button type="submit" class="button">{{.Button}}</button></p>
</form>
{{end}}<p><a href="/products">See the products</a> or go to the <a href="/">home page</a>.</p>
</div>`))

// newsletterConfirm is GET and POST /newsletter/confirm.
func (s *Server) newsletterConfirm(w http.ResponseWriter, r *http.Request, rel *release) {
	s.newsletterLink(w, r, rel, newsletter.Confirm)
}

// newsletterUnsubscribe is GET and POST /newsletter/unsubscribe.
func (s *Server) newsletterUnsubscribe(w http.ResponseWriter, r *http.Request, rel *release) {
	s.newsletterLink(w, r, rel, newsletter.Unsubscribe)
}

func (s *Server) newsletterLink(w http.ResponseWriter, r *http.Request, rel *release, purpose string) {
	if s.newsletter == nil {
		rel.notFound.send(w, r, http.StatusNotFound)
		return
	}
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		r.ParseForm() // a body that does not parse leaves the link's own query, checked below
	}
	// The query is the mailed link's (and RFC 8058's POST goes to that
	// link); the button's form sends the same in its body.
	email, sig := r.FormValue("e"), r.FormValue("s")
	if purpose == newsletter.Confirm && r.Method != http.MethodPost && email == "" && sig == "" {
		// Where a sign-up without JavaScript leads when a confirmation is mailed.
		s.newsletterAnswer(w, r, rel, http.StatusOK, newsletterPage{Heading: "Check your inbox", Lines: []string{
			"Unless you are on the list already, we have sent you an e-mail with a link to confirm your subscription. You are on the list once you follow it; it works for seven days.",
		}})
		return
	}
	if !newsletter.Valid(s.newsletterKey, purpose, email, sig) {
		lines := []string{"This link is not valid: it is incomplete or was changed, so nothing was done. Open the link from the e-mail as it is."}
		if addr := rel.content.Site.Email; addr != "" {
			lines = append(lines, "If it still does not work, write to us at "+addr+".")
		}
		s.newsletterAnswer(w, r, rel, http.StatusBadRequest, newsletterPage{Heading: "This link does not work", Lines: lines})
		return
	}
	page := newsletterPage{Action: newsletter.Path(purpose), Email: email, Signature: sig}
	if r.Method != http.MethodPost {
		if purpose == newsletter.Confirm {
			page.Heading, page.Button = "Confirm your subscription", "Confirm my subscription"
			page.Lines = []string{"Confirm that you want the studio’s newsletter at " + email + "."}
		} else {
			page.Heading, page.Button = "Unsubscribe", "Unsubscribe "+email
			page.Lines = []string{"Stop the studio’s newsletter to " + email + "?"}
		}
		s.newsletterAnswer(w, r, rel, http.StatusOK, page)
		return
	}
	var err error
	if purpose == newsletter.Confirm {
		err = s.newsletter.ConfirmSubscription(r.Context(), email, s.now())
	} else {
		err = s.newsletter.Unsubscribe(r.Context(), email, s.now())
	}
	switch {
	case errors.Is(err, store.ErrNoSubscriber):
		s.newsletterAnswer(w, r, rel, http.StatusGone, newsletterPage{Heading: "This sign-up is no longer waiting", Lines: []string{
			email + " is not waiting for a confirmation: a sign-up not confirmed within seven days is dropped, and an address that unsubscribed stays so until it signs up again.",
			"To get the newsletter, sign up again with the box at the foot of any page.",
		}})
	case err != nil:
		s.log.Error("newsletter link", "purpose", purpose, "err", err)
		s.newsletterAnswer(w, r, rel, http.StatusServiceUnavailable, newsletterPage{Heading: "Something went wrong", Lines: []string{
			"Nothing was changed. Please try again in a moment.",
		}})
	case purpose == newsletter.Confirm:
		s.log.Info("newsletter subscription confirmed")
		s.newsletterAnswer(w, r, rel, http.StatusOK, newsletterPage{Heading: "You are on the list", Lines: []string{
			"Thank you: the studio’s news will come to " + email + ". Every mail has a link to unsubscribe.",
		}})
	default:
		s.log.Info("newsletter unsubscribed")
		s.newsletterAnswer(w, r, rel, http.StatusOK, newsletterPage{Heading: "You are unsubscribed", Lines: []string{
			email + " will get no more of the studio’s newsletter. If that was a mistake, sign up again with the box at the foot of any page.",
		}})
	}
}

// newsletterAnswer writes page in the site's own frame: the prerendered
// newsletter thank-you page, scripts taken out (as a refused form's page
// is, forms.go), its <main> holding page instead.
func (s *Server) newsletterAnswer(w http.ResponseWriter, r *http.Request, rel *release, status int, page newsletterPage) {
	var body bytes.Buffer
	err := newsletterPageHTML.Execute(&body, page)
	var out bytes.Buffer
	shell := rel.pages[newsletterThanksPath]
	if err == nil {
		var buf bytes.Buffer
		shell.identity.writeBody(&buf)
		var doc *html.Node
		if doc, err = html.Parse(&buf); err == nil {
			err = fillMain(doc, body.String(), page.Heading+" | "+rel.content.Site.Name)
			if err == nil {
				err = html.Render(&out, doc)
			}
		}
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	// The address bar holds the link's signature: no other site hears of it.
	h.Set("Referrer-Policy", "no-referrer")
	if err != nil {
		s.log.Error("newsletter page", "err", err)
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		w.Write([]byte(page.Heading + "\n\n" + strings.Join(page.Lines, "\n") + "\n"))
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h["Content-Security-Policy"] = shell.csp
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(out.Bytes())
	}
}

// fillMain puts the HTML fragment in place of <main>'s content and gives
// the page title.
func fillMain(doc *html.Node, fragment, title string) error {
	withoutScripts(doc)
	main := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Main })
	if main == nil {
		return errors.New("the page has no <main>")
	}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), main)
	if err != nil {
		return err
	}
	for main.FirstChild != nil {
		main.RemoveChild(main.FirstChild)
	}
	for _, n := range nodes {
		main.AppendChild(n)
	}
	if t := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title }); t != nil {
		setText(t, title)
	}
	return nil
}
