package page

import "net/http"

// Facts are the site's facts that change with the content: the catalogue's
// products (by id, for the inbox's filter and Insights), the studio's
// phone and the pages' titles.
type Facts struct {
	Products    []Product
	StudioPhone string
	StudioName  string            // site.json's name
	PageTitles  map[string]string // the pages' titles by path, for Insights
	// The studio's ready answers for the reply form (content/replies.json).
	ReplyTemplates []ReplyTemplate
}

// Product is one choice of the inbox's product filter.
type Product struct {
	ID   int
	Name string
}

// ReplyTemplate is one of the studio's ready answers; its text may name
// {{name}} (the customer's), {{piece}} (what they asked about) and
// {{sender}} (the account's name).
type ReplyTemplate struct {
	Name string
	Body string
}

// Visitor tells what the server knows of a request's visitor, believing
// forwarded headers only from trusted proxies (server.ClientIP, IsHTTPS).
type Visitor struct {
	IP      func(*http.Request) string // tells visitors apart for the limits on failed sign-ins (an IPv6 address by its /64)
	IsHTTPS func(*http.Request) bool   // the session cookie is Secure (and __Host-) over HTTPS
}
