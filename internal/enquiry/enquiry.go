// Package enquiry is the domain of the studio's enquiries: what a visitor
// sends (a contact message, a quote or customisation request, a newsletter
// address), the rules it must meet, and how spam is told apart.
package enquiry

import (
	"errors"
	"fmt"
	"math"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"studio/internal/sitecontent"
)

// Kind says what an enquiry asks for.
type Kind string

const (
	Contact   Kind = "contact"
	Quote     Kind = "quote"
	Customize Kind = "customize"
)

// Kinds lists every kind, in the order the inbox shows them.
var Kinds = []Kind{Contact, Quote, Customize}

// Title names a kind in mails and in the inbox.
func (k Kind) Title() string {
	switch k {
	case Contact:
		return "Message"
	case Quote:
		return "Quote request"
	case Customize:
		return "Customisation request"
	}
	return "Enquiry"
}

// Status is where an enquiry stands in the studio's work on it.
type Status string

const (
	New      Status = "new"
	Replied  Status = "replied"
	Quoted   Status = "quoted"
	Won      Status = "won"
	Lost     Status = "lost"
	Archived Status = "archived"
)

// Statuses lists every status, in the order an enquiry usually moves.
var Statuses = []Status{New, Replied, Quoted, Won, Lost, Archived}

// Open tells whether the studio still has work to do on an enquiry.
func (s Status) Open() bool { return s != Won && s != Lost && s != Archived }

// Valid tells whether s is one of Statuses.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// MinFillTime is how long a person needs at least to fill in a form;
// a faster submission is a robot's and is stored as spam. The time is
// measured from a token the server signed (FormTimer, formtimer.go).
const MinFillTime = 3 * time.Second

// idempotencyKeyPattern is what an idempotency key looks like: 16 to 64
// letters, digits, - and _ (a UUID, or a base64url random string). The
// site's forms make the key themselves and never show a visitor this
// rule, so it lives here only, not in contracts/enquiry-rules.json.
var idempotencyKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// Input is an enquiry as the API receives it.
//
// Website, Started and FillMS concern spam: Website is a field hidden from
// people (a honeypot); Started is the token POST /api/form-start gave when
// the visitor began the form, which the server verifies (FormTimer).
// FillMS, the milliseconds the client says it took, is still accepted (it
// is part of the documented API) but no longer decides anything: a client
// can claim any number.
//
// IdempotencyKey, when given, makes a retry safe: a second enquiry with a
// key already stored is not stored again, and is answered with the first
// one's id.
type Input struct {
	Kind           string `json:"kind"`
	Name           string `json:"name"`
	Email          string `json:"email"`
	Phone          string `json:"phone,omitempty"`
	Message        string `json:"message"`
	ProductID      *int   `json:"productId,omitempty"`
	Material       string `json:"material,omitempty"`
	Finish         string `json:"finish,omitempty"`
	Website        string `json:"website,omitempty"`
	Started        string `json:"started,omitempty"`
	FillMS         *int64 `json:"fillMs,omitempty"` // accepted, ignored
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// Items are the pieces of a shortlist, sent as one quote request;
	// with them, the product is named by each piece, not above.
	Items []ItemInput `json:"items,omitempty"`
}

// ItemInput is one piece of a shortlist as the API receives it. Quantity
// is a float so that 2.5 is answered as that piece's problem (422), not as
// a malformed request.
type ItemInput struct {
	ProductID *int     `json:"productId"`
	Material  string   `json:"material,omitempty"`
	Finish    string   `json:"finish,omitempty"`
	Quantity  *float64 `json:"quantity"`
	Note      string   `json:"note,omitempty"`
}

// The limits of a shortlist's quote request (contracts/enquiry-rules.json, which the
// shortlist page reads too).
var (
	MaxItems    = Rules.Limits.Items    // pieces in one request
	MaxQuantity = Rules.Limits.Quantity // of one piece
	MaxItemNote = Rules.Limits.ItemNote // characters of a piece's note
)

// Item is one piece of a quote request for several, as it is stored.
// ProductName is the product's name when the request was sent, so a
// renamed or retired product still reads as the visitor saw it.
type Item struct {
	ProductID   int
	ProductName string
	Material    string
	Finish      string
	Quantity    int
	Note        string
}

// Enquiry is a checked enquiry, as it is stored.
type Enquiry struct {
	ID          int64
	Kind        Kind
	Name        string
	Email       string
	Phone       string
	Message     string
	ProductID   int // 0: none
	ProductName string
	Material    string
	Finish      string
	Spam        bool
	CreatedAt   time.Time
	Status      Status
	// IdempotencyKey is the key the client sent ("" for none): the store
	// keeps one enquiry per key.
	IdempotencyKey string
	// Items are the pieces of a shortlist's quote request, in the
	// visitor's order; none for an enquiry about one product or none.
	Items []Item
}

// Subject is the subject of the studio's own copy of e (the customer's
// mails have AcknowledgementSubject and ReplySubject).
func (e Enquiry) Subject() string {
	s := fmt.Sprintf("%s #%d from %s", e.Kind.Title(), e.ID, e.Name)
	switch {
	case len(e.Items) > 0:
		s += ": " + e.Pieces()
	case e.ProductName != "":
		s += ": " + e.ProductName
	}
	return s
}

// AcknowledgementSubject is the subject of the acknowledgement mailed to
// the customer, from the studio called studio: "Jharokha Studio: we have
// your quote request (#2)". The studio's replies answer it (ReplySubject),
// so a customer's mail program shows them as one conversation.
func (e Enquiry) AcknowledgementSubject(studio string) string {
	return fmt.Sprintf("%s: we have your %s (#%d)", studio, strings.ToLower(e.Kind.Title()), e.ID)
}

// ReplySubject is the subject of the studio's replies to e: "Re: " and the
// acknowledgement's subject, the same for every reply (never "Re: Re:").
func (e Enquiry) ReplySubject(studio string) string {
	return "Re: " + e.AcknowledgementSubject(studio)
}

// Erased tells whether the person's data was erased from e (the store's
// ErasePerson blanks the address, which every enquiry otherwise has): there
// is nobody to reply to.
func (e Enquiry) Erased() bool { return e.Email == "" }

// Pieces says what a shortlist's request asks for (PiecesOf its items).
func (e Enquiry) Pieces() string {
	return PiecesOf(e.Items)
}

// PiecesOf says how many pieces items ask for, the sum of their
// quantities, and of how many products where that is fewer: "1 piece",
// "3 pieces" (one of each of three products), "2 products, 7 pieces". The
// shortlist page says it in the same words (web/app/components/shortlist/pieces.ts).
func PiecesOf(items []Item) string {
	pieces := 0
	products := map[int]bool{}
	for _, it := range items {
		pieces += it.Quantity
		products[it.ProductID] = true
	}
	if len(products) == pieces {
		return counted(pieces, "piece")
	}
	return counted(len(products), "product") + ", " + counted(pieces, "piece")
}

// counted is n and the noun, plural unless n is 1: "1 piece", "3 pieces".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Subscriber is one address on the newsletter list.
type Subscriber struct {
	Email     string
	CreatedAt time.Time
}

// ValidationError holds every field's problem at once, keyed by the JSON
// field name.
type ValidationError struct {
	Fields map[string]string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("enquiry: %d field(s) invalid", len(e.Fields))
}

// Products finds a product of the catalogue by id.
type Products interface {
	Product(id int) (sitecontent.Product, bool)
}

// Check validates in and returns the enquiry to store, or a
// *ValidationError naming every field that is wrong.
func Check(in Input, products Products, now time.Time) (Enquiry, error) {
	e := Enquiry{
		Kind:      Kind(strings.TrimSpace(in.Kind)),
		Name:      singleLine(in.Name),
		Email:     singleLine(in.Email),
		Phone:     singleLine(in.Phone),
		Message:   multiLine(in.Message),
		Material:  singleLine(in.Material),
		Finish:    singleLine(in.Finish),
		CreatedAt: now.UTC(),

		IdempotencyKey: in.IdempotencyKey,
	}
	fields := map[string]string{}
	if in.IdempotencyKey != "" && !idempotencyKeyPattern.MatchString(in.IdempotencyKey) {
		fields["idempotencyKey"] = "An idempotency key is 16 to 64 letters, digits, - and _."
	}
	switch e.Kind {
	case Contact, Quote, Customize:
	default:
		fields["kind"] = "Choose contact, quote or customize."
	}
	limits := Rules.Limits
	switch n := utf8.RuneCountInString(e.Name); {
	case n == 0:
		fields["name"] = Rules.Message("nameMissing", limits.Name)
	case n > limits.Name:
		fields["name"] = Rules.Message("nameTooLong", limits.Name)
	}
	if msg := emailProblem(e.Email); msg != "" {
		fields["email"] = msg
	}
	if utf8.RuneCountInString(e.Phone) > limits.Phone || !phonePattern.MatchString(e.Phone) {
		fields["phone"] = Rules.Message("phoneInvalid", limits.Phone)
	}
	switch n := utf8.RuneCountInString(e.Message); {
	case n == 0 && e.Kind == Contact:
		fields["message"] = Rules.Message("messageMissing", limits.Message)
	case n > limits.Message:
		fields["message"] = Rules.Message("messageTooLong", limits.Message)
	}

	if in.Items != nil {
		// A shortlist: each piece names its product, so nothing above may.
		if in.ProductID != nil {
			fields["productId"] = "With a list of pieces, each piece names its own product."
		}
		if e.Material != "" {
			fields["material"] = "With a list of pieces, each piece names its own material."
		}
		if e.Finish != "" {
			fields["finish"] = "With a list of pieces, each piece names its own finish."
		}
		switch {
		case e.Kind != Quote:
			fields["items"] = "Only a quote request lists pieces."
		case len(in.Items) == 0 || len(in.Items) > MaxItems:
			fields["items"] = fmt.Sprintf("A quote request lists 1 to %d pieces.", MaxItems)
		default:
			e.Items = checkItems(in.Items, products, fields)
		}
	} else {
		p, ok := checkProduct(products, in.ProductID, e.Material, e.Finish, e.Kind == Quote, "", fields)
		if ok {
			e.ProductID, e.ProductName = p.ID, p.Name
		}
	}
	if len(fields) > 0 {
		return Enquiry{}, &ValidationError{Fields: fields}
	}
	e.Spam = IsSpam(in.Website)
	return e, nil
}

// checkProduct checks a product id and the material and finish chosen for
// it, putting each problem in fields under prefix and the field's name
// ("finish", "items[2].finish"): a quote for one product and each piece of
// a shortlist meet the same rule here. required says the product must be
// named. ok is false unless the product is known.
func checkProduct(products Products, id *int, material, finish string, required bool, prefix string, fields map[string]string) (p sitecontent.Product, ok bool) {
	if id == nil {
		if required {
			fields[prefix+"productId"] = "A quote is for a product: say which."
		}
		if material != "" {
			fields[prefix+"material"] = "A material belongs to a product: say which."
		}
		if finish != "" {
			fields[prefix+"finish"] = "A finish belongs to a product: say which."
		}
		return p, false
	}
	if p, ok = products.Product(*id); !ok {
		fields[prefix+"productId"] = "There is no such product."
		return p, false
	}
	if material != "" && !contains(p.Material, material) {
		fields[prefix+"material"] = fmt.Sprintf("%s is not made in %s.", p.Name, material)
	}
	if finish != "" && !contains(p.Finish, finish) {
		fields[prefix+"finish"] = fmt.Sprintf("%s is not made with a %s finish.", p.Name, finish)
	}
	return p, true
}

// checkItems checks every piece of a shortlist, each problem under its
// piece's index (items[1].quantity), and returns the pieces to store.
func checkItems(list []ItemInput, products Products, fields map[string]string) []Item {
	items := make([]Item, 0, len(list))
	for i, in := range list {
		prefix := fmt.Sprintf("items[%d].", i)
		// A note is one line: a newline typed in it becomes a space, so
		// each piece stays one row of the CSV and one line of the mail.
		it := Item{Material: singleLine(in.Material), Finish: singleLine(in.Finish),
			Note: singleLine(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(in.Note))}
		if p, ok := checkProduct(products, in.ProductID, it.Material, it.Finish, true, prefix, fields); ok {
			it.ProductID, it.ProductName = p.ID, p.Name
		}
		if q := in.Quantity; q == nil || *q != math.Trunc(*q) || *q < 1 || *q > float64(MaxQuantity) {
			fields[prefix+"quantity"] = fmt.Sprintf("Say how many: a whole number from 1 to %d.", MaxQuantity)
		} else {
			it.Quantity = int(*q)
		}
		if utf8.RuneCountInString(it.Note) > MaxItemNote {
			fields[prefix+"note"] = fmt.Sprintf("Please keep a piece's note to %d characters.", MaxItemNote)
		}
		items = append(items, it)
	}
	return items
}

// IsSpam is true for a submission that filled in the hidden honeypot
// field. Check judges only that; the form timer's verdict
// (FormTimer.TimerSpam) needs the server's key, and the server adds it.
func IsSpam(honeypot string) bool {
	return strings.TrimSpace(honeypot) != ""
}

// CheckEmail validates a newsletter address and returns it cleaned.
func CheckEmail(email string) (string, error) {
	email = singleLine(email)
	if msg := emailProblem(email); msg != "" {
		return "", &ValidationError{Fields: map[string]string{"email": msg}}
	}
	return email, nil
}

// EmailKey is the form in which two addresses are compared: case does not
// make a different subscriber.
func EmailKey(email string) string {
	return strings.ToLower(email)
}

func emailProblem(email string) string {
	limit := Rules.Limits.Email
	switch {
	case email == "":
		return Rules.Message("emailMissing", limit)
	case len(email) > limit:
		return Rules.Message("emailTooLong", limit)
	}
	addr, err := mail.ParseAddress(email)
	at := strings.LastIndexByte(email, '@')
	if err != nil || addr.Address != email || addr.Name != "" || at < 1 || !emailDomainPattern.MatchString(email[at+1:]) ||
		strings.ContainsAny(email, " <>\"") {
		return Rules.Message("emailInvalid", limit)
	}
	return ""
}

// hidden reports the invisible characters that can make text read other
// than it is: bidi controls (a right-to-left override turns "gnp.exe"
// around) and zero-width spaces. The zero-width joiner and non-joiner
// stay: Indian scripts use them to spell names.
func hidden(r rune) bool {
	return unicode.Is(unicode.Bidi_Control, r) || r == '\u200B' || r == '\u2060' || r == '\uFEFF'
}

// singleLine trims a one-line field and drops every control character
// (newlines included) and hidden one, so nothing typed can break a header
// or a CSV row, or disguise itself.
func singleLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || hidden(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// multiLine keeps newlines and tabs in a message and drops other control
// characters and hidden ones.
func multiLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || hidden(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// ErrNotFound is returned for an enquiry that does not exist.
var ErrNotFound = errors.New("enquiry: not found")
