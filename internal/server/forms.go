package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"studio/internal/enquiry"
	"studio/internal/input"
)

// A browser without JavaScript sends the site's forms as they are:
// application/x-www-form-urlencoded, to the same addresses as the API, or,
// for the enquiry forms, to their page's own address (pageFormPost). The
// answer is for a person, never JSON: 303 to a thank-you page, or the
// form's own page again with each field's problem beside it and what was
// typed kept. The checks, limits and storage are the API's.

// isFormPost tells a browser's form post from an API call.
func isFormPost(r *http.Request) bool {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mediaType == "application/x-www-form-urlencoded"
}

// formPost is what a form post carries besides its fields: which form it
// is (the data-form attribute of the page's <form>) and the page it is on.
type formPost struct {
	form string
	page string
}

// readForm checks where a form post comes from and parses it; a refusal
// is an error for refusalFor, as the API's are.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request, rel *release, form string) (formPost, error) {
	post := formPost{form: form, page: "/"}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	err := r.ParseForm()
	if post.form == "" {
		post.form = r.PostForm.Get("kind")
	}
	if rel.pages[r.URL.Path] != nil {
		post.page = r.URL.Path // sent to its page's own address
	} else if page := r.PostForm.Get("page"); rel.pages[page] != nil {
		post.page = page
	}
	var tooBig *http.MaxBytesError
	switch {
	case s.crossOrigin.Check(r) != nil:
		return post, &apiError{status: http.StatusForbidden, message: "This form must be sent from the studio's own site."}
	case errors.As(err, &tooBig):
		return post, err
	case err != nil:
		return post, &apiError{status: http.StatusBadRequest, message: "The form did not arrive whole. Please try again."}
	case s.store == nil:
		return post, &apiError{status: http.StatusServiceUnavailable, message: "Enquiries are not being accepted right now. Please call or e-mail us."}
	}
	// Text a database cannot keep is refused here, by field, as readJSON
	// does (package input).
	if problems := input.Form(r.PostForm); len(problems) > 0 {
		return post, &apiError{status: http.StatusBadRequest, message: "Some fields have a character that cannot be kept. Please type them again.", fields: problems}
	}
	return post, nil
}

// enquiryForm is POST /api/enquiries from a form.
func (s *Server) enquiryForm(w http.ResponseWriter, r *http.Request, rel *release) {
	post, err := s.readForm(w, r, rel, "")
	if err == nil {
		f := r.PostForm
		in := enquiry.Input{Kind: f.Get("kind"), Name: f.Get("name"), Email: f.Get("email"), Phone: f.Get("phone"), Message: f.Get("message"),
			Material: f.Get("material"), Finish: f.Get("finish"), Website: f.Get("website"), Started: f.Get("started"), IdempotencyKey: f.Get("idempotencyKey")}
		if in.IdempotencyKey == "" {
			in.IdempotencyKey = formKey(VisitorKey(r, s.trusted), f)
		}
		if v := f.Get("productId"); v != "" {
			id, perr := strconv.Atoi(v)
			if perr != nil {
				err = &enquiry.ValidationError{Fields: map[string]string{"productId": "The product of this form is not one we know. Please start again from the product's page."}}
			}
			in.ProductID = &id
		}
		post.form = in.Kind // the <form>'s data-form
		var id int64
		if err == nil {
			id, err = s.acceptEnquiry(r, rel, in)
		}
		if err == nil {
			s.log.Info("enquiry from a form", "id", id)
			http.Redirect(w, r, thanksPath, http.StatusSeeOther)
			return
		}
	}
	s.refuseForm(w, r, rel, "enquiry", post, err)
}

// pageFormPost is an enquiry form sent to its page's own address (the
// contact page, a product's request pages), so that a refusal, which
// answers with that page and the problems shown, leaves the browser at
// the page's address rather than the API's; what is sent and done is
// POST /api/enquiries's, with its deadline on the database.
func (s *Server) pageFormPost(w http.ResponseWriter, r *http.Request, rel *release) {
	s.databaseDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.enquiryForm(w, r, rel)
	})).ServeHTTP(w, r)
}

// refuseForm answers a form post that was refused with its page again:
// what was sent, each field's problem beside it, or the refusal's message
// for the whole form.
func (s *Server) refuseForm(w http.ResponseWriter, r *http.Request, rel *release, form string, post formPost, err error) {
	ref := refusalFor(err)
	s.refuse(w, r, form, ref, err)
	message := ref.message
	if ref.reason == "invalid" {
		message = "" // each field's problem, beside it, says it all
	}
	s.formPage(w, r, rel, post, ref.status, ref.fields, message)
}

// formKey is the idempotency key of a form sent without JavaScript, which
// cannot make one: the same fields from the same visitor are one
// submission, so sending the page again (Back, reload, a second click)
// stores nothing new and leads to the same thank-you.
func formKey(visitor string, f url.Values) string {
	h := sha256.New()
	h.Write([]byte(visitor))
	for _, field := range []string{"kind", "productId", "material", "finish", "name", "email", "phone", "message"} {
		h.Write([]byte{0})
		h.Write([]byte(f.Get(field)))
	}
	return "form-" + base64.RawURLEncoding.EncodeToString(h.Sum(nil))[:32]
}

// newsletterForm is POST /api/newsletter from a form.
func (s *Server) newsletterForm(w http.ResponseWriter, r *http.Request, rel *release) {
	post, err := s.readForm(w, r, rel, "newsletter")
	if err == nil {
		if _, err = s.acceptSubscription(r, r.PostForm.Get("email")); err == nil {
			to := newsletterThanksPath
			if s.mail && s.newsletter != nil {
				to = newsletterCheckInboxPath // whatever the address, as the API answers
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		}
	}
	s.refuseForm(w, r, rel, "newsletter", post, err)
}

// formPage answers with the page the form was on, its fields as the
// visitor sent them, each problem beside its field (problems) or one for
// the whole form (problem). It is the prerendered page with its scripts
// taken out: the page the visitor had, without the JavaScript it did not
// run.
func (s *Server) formPage(w http.ResponseWriter, r *http.Request, rel *release, post formPost, status int, problems map[string]string, problem string) {
	page := rel.pages[post.page]
	var buf bytes.Buffer
	page.identity.writeBody(&buf)
	doc, err := html.Parse(&buf)
	var out bytes.Buffer
	if err == nil {
		withoutScripts(doc)
		if form := findForm(doc, post.form); form != nil {
			if err = fillForm(form, r.PostForm, problems, problem); err == nil {
				markTitle(doc)
				err = html.Render(&out, doc)
			}
		} else {
			err = errors.New("no form " + post.form + " on " + post.page)
		}
	}
	if err != nil {
		s.log.Error("form page", "page", post.page, "form", post.form, "err", err)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		w.Write([]byte(problemText(problems, problem)))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h["Content-Security-Policy"] = page.csp
	w.WriteHeader(status)
	w.Write(out.Bytes())
}

func problemText(problems map[string]string, problem string) string {
	lines := []string{problem}
	for field, p := range problems {
		lines = append(lines, field+": "+p)
	}
	return strings.TrimSpace(strings.Join(lines, "\n")) + "\n"
}

// withoutScripts removes the page's scripts and module preloads: it is
// shown as it was sent, so nothing hydrates it into another state.
func withoutScripts(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (c.DataAtom == atom.Script || (c.DataAtom == atom.Link && attr(c, "rel") == "modulepreload")) {
			n.RemoveChild(c)
		} else {
			withoutScripts(c)
		}
		c = next
	}
}

// markTitle starts the page's title with "Error: ", so a screen reader
// says at once that the form came back.
func markTitle(doc *html.Node) {
	if title := find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title }); title != nil && title.FirstChild != nil {
		title.FirstChild.Data = "Error: " + title.FirstChild.Data
	}
}

func findForm(doc *html.Node, name string) *html.Node {
	return find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Form && attr(n, "data-form") == name })
}

// fillForm puts the sent values back into the form's controls and each
// problem into a slot the page already has; it makes no element. All it
// knows of the front end's markup is this (web/app/components/Field.tsx,
// which owns the slots):
//   - a control's slot is the element without text that its
//     aria-describedby names (Field's and FieldError's error element; the
//     newsletter box's note, NewsletterForm);
//   - the form's slot, for a problem no control has (a product that is
//     gone, say), is its live region without text: role="alert"
//     (FormProblem) or else role="status" (the newsletter box's note);
//   - a slot shows the text in its first element, or in itself, and is
//     shown by taking off its hidden attribute.
//
// A wrong control gets aria-invalid (which styles it), the first one
// autofocus. A problem with no slot to go in is an error, but for the
// form's message when its fields' problems took every slot.
func fillForm(form *html.Node, values map[string][]string, problems map[string]string, problem string) error {
	first, placed := true, map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type != html.ElementNode {
			return
		}
		name := attr(n, "name")
		vs, sent := values[name]
		value := ""
		if len(vs) > 0 {
			value = input.Shown(vs[0])
		}
		switch {
		case name == "" || name == "website":
			return
		case n.DataAtom == atom.Input && sent && (attr(n, "type") == "" || attr(n, "type") == "text" || attr(n, "type") == "email" || attr(n, "type") == "tel"):
			setAttr(n, "value", value)
		case n.DataAtom == atom.Textarea && sent:
			setText(n, value)
		case n.DataAtom == atom.Select && sent:
			for o := n.FirstChild; o != nil; o = o.NextSibling {
				if o.DataAtom == atom.Option {
					removeAttr(o, "selected")
					if optionValue(o) == value {
						setAttr(o, "selected", "")
					}
				}
			}
		}
		msg := problems[name]
		if msg == "" || attr(n, "type") == "hidden" || (n.DataAtom != atom.Input && n.DataAtom != atom.Textarea && n.DataAtom != atom.Select) {
			return
		}
		setAttr(n, "aria-invalid", "true")
		if first {
			setAttr(n, "autofocus", "")
			first = false
		}
		for _, id := range strings.Fields(attr(n, "aria-describedby")) {
			if slot := find(form, func(e *html.Node) bool { return attr(e, "id") == id && !hasText(e) }); slot != nil {
				fillSlot(slot, msg)
				placed[name] = true
				return
			}
		}
		// No slot of its own: it is said with the form's problem.
	}
	walk(form)
	var unplaced []string
	for field, msg := range problems {
		if !placed[field] {
			unplaced = append(unplaced, msg)
		}
	}
	sort.Strings(unplaced) // the same page for the same post
	problem = strings.TrimSpace(problem + " " + strings.Join(unplaced, " "))
	if problem == "" {
		return nil
	}
	for _, role := range []string{"alert", "status"} {
		if slot := find(form, func(e *html.Node) bool { return attr(e, "role") == role && !hasText(e) }); slot != nil {
			fillSlot(slot, problem)
			return nil
		}
	}
	if len(unplaced) == 0 && len(placed) > 0 {
		// The form's one live region says its field's problem (the
		// newsletter box's note), which says it all, as with JavaScript.
		return nil
	}
	return errors.New("no slot for the problem " + strconv.Quote(problem))
}

// fillSlot puts text into a slot of the page and shows it (see fillForm).
func fillSlot(slot *html.Node, text string) {
	removeAttr(slot, "hidden")
	target := slot
	for c := slot.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			target = c
			break
		}
	}
	setText(target, text)
}

// hasText tells whether an element has any text but white space in it.
func hasText(n *html.Node) bool {
	if n.Type == html.TextNode {
		return strings.TrimSpace(n.Data) != ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasText(c) {
			return true
		}
	}
	return false
}

// optionValue is what an <option> sends: its value, or else its text.
func optionValue(o *html.Node) string {
	for _, a := range o.Attr {
		if a.Key == "value" {
			return a.Val
		}
	}
	var text strings.Builder
	for c := o.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			text.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(text.String())
}

func setText(n *html.Node, text string) {
	for n.FirstChild != nil {
		n.RemoveChild(n.FirstChild)
	}
	n.AppendChild(&html.Node{Type: html.TextNode, Data: text})
}

func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if found := find(c, match); found != nil {
			return found
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, key, value string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = value
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: value})
}

func removeAttr(n *html.Node, key string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr = append(n.Attr[:i], n.Attr[i+1:]...)
			return
		}
	}
}
