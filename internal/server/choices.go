package server

import (
	"bytes"
	"net/http"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The product page's options form sends the chosen material and finish to
// the product's request pages as ?material=…&finish=…
// (web/app/routes/product.tsx). Those pages are prerendered with the
// product's first options, so the server marks the chosen ones in the page
// it sends: a browser without JavaScript, or before the scripts run, shows
// what the visitor chose, and the page's script keeps it when it hydrates
// (web/app/routes/request.tsx reads the same query). Only these two
// parameters, and only a value that is one of the page's own options;
// anything else sends the page as built.
var choiceParams = []string{"material", "finish"}

// sendChosen sends page with the options its query chose marked, and
// reports whether it did; false leaves the page to be sent as built.
func sendChosen(w http.ResponseWriter, r *http.Request, page *file, status int) bool {
	query := r.URL.Query()
	chosen := map[string]string{}
	for _, name := range choiceParams {
		if v := query.Get(name); v != "" {
			chosen[name] = v
		}
	}
	if len(chosen) == 0 {
		return false
	}
	var built bytes.Buffer
	page.identity.writeBody(&built)
	doc, err := html.Parse(&built)
	if err != nil || !markChosen(doc, chosen) {
		return false
	}
	var body bytes.Buffer
	if err := html.Render(&body, doc); err != nil {
		return false
	}
	sendMade(w, r, page, body.Bytes(), status)
	return true
}

// markChosen selects, in each <select> and radio group named in chosen,
// the option whose value is the chosen one, and reports whether any was
// marked. A value that is none of a control's options leaves it as it was.
func markChosen(doc *html.Node, chosen map[string]string) bool {
	marked := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		value, ok := chosen[attr(n, "name")]
		if n.Type != html.ElementNode || !ok {
			return
		}
		switch {
		case n.DataAtom == atom.Select:
			marked = markOne(children(n, atom.Option), value, optionValue, "selected") || marked
		case n.DataAtom == atom.Input && attr(n, "type") == "radio":
			// A group is every radio of its name: marked once, at its first.
			if radios := radioGroup(doc, attr(n, "name")); radios[0] == n {
				marked = markOne(radios, value, func(r *html.Node) string { return attr(r, "value") }, "checked") || marked
			}
		}
	}
	walk(doc)
	return marked
}

// markOne sets flag on the one of items whose value is value, and takes it
// off the others; with no such item, it changes nothing.
func markOne(items []*html.Node, value string, valueOf func(*html.Node) string, flag string) bool {
	found := false
	for _, item := range items {
		found = found || valueOf(item) == value
	}
	if !found {
		return false
	}
	for _, item := range items {
		removeAttr(item, flag)
		if valueOf(item) == value {
			setAttr(item, flag, "")
		}
	}
	return true
}

// children are n's direct children that are a of the given element, and
// those in its <optgroup>s.
func children(n *html.Node, a atom.Atom) []*html.Node {
	var found []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.DataAtom {
		case a:
			found = append(found, c)
		case atom.Optgroup:
			found = append(found, children(c, a)...)
		}
	}
	return found
}

// radioGroup is every radio button named name in the document, in order.
func radioGroup(doc *html.Node, name string) []*html.Node {
	var group []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Input && attr(n, "type") == "radio" && attr(n, "name") == name {
			group = append(group, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return group
}
