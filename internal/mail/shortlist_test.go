package mail

import (
	"fmt"
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

var shortlist = enquiry.Enquiry{Kind: enquiry.Quote, Name: "Asha Rao", Email: "asha@example.com", CreatedAt: time.Now(),
	Items: []enquiry.Item{
		{ProductID: 1, ProductName: "Marwar chair", Material: "Wood", Finish: "Walnut", Quantity: 6, Note: "for the lobby"},
		{ProductID: 2, ProductName: "Jharokha mirror", Quantity: 1},
		{ProductID: 1, ProductName: "Marwar chair", Material: "Metal", Quantity: 2, Note: "नमस्ते, the balcony"},
	}}

// composed is the body of the mail for recipient about e.
func composed(t *testing.T, e enquiry.Enquiry, recipient string) (subject, text string) {
	t.Helper()
	c := testConfig(25)
	raw, err := compose(c, store.PendingMail{Recipient: recipient, Enquiry: e}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	msg := parse(t, string(raw))
	b, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	return decodedSubject(t, msg), strings.ReplaceAll(string(b), "\r\n", "\n")
}

// Both mails list every piece: product, material, finish and quantity,
// and the studio's copy each piece's note, in the visitor's order.
func TestMailsListEveryPiece(t *testing.T) {
	e := shortlist
	e.ID = 12
	subject, studio := composed(t, e, store.RecipientStudio)
	if subject != "Quote request #12 from Asha Rao: 2 products, 9 pieces" {
		t.Errorf("the studio's subject = %q", subject)
	}
	want := "2 products, 9 pieces:\n" +
		"  1. Marwar chair (#1), Wood, Walnut, quantity 6\n" +
		"     Note: for the lobby\n" +
		"  2. Jharokha mirror (#2), quantity 1\n" +
		"  3. Marwar chair (#1), Metal, quantity 2\n" +
		"     Note: नमस्ते, the balcony\n" +
		"\nName:     Asha Rao\n"
	if !strings.Contains(studio, want) {
		t.Errorf("the studio's copy lacks\n%s\nin\n%s", want, studio)
	}

	_, ack := composed(t, e, store.RecipientVisitor)
	// The acknowledgement lists them in the catalogue's words: the notes
	// are the visitor's.
	want = "  2 products, 9 pieces:\n" +
		"    1. Marwar chair, Wood, Walnut, quantity 6\n" +
		"    2. Jharokha mirror, quantity 1\n" +
		"    3. Marwar chair, Metal, quantity 2\n" +
		"\nWe will answer you at this address."
	if !strings.Contains(ack, want) || !strings.Contains(ack, "Thank you for your quote request for 2 products, 9 pieces.") {
		t.Errorf("the acknowledgement lacks\n%s\nin\n%s", want, ack)
	}
	if strings.Contains(ack, "Note") || strings.Contains(ack, "lobby") {
		t.Errorf("the acknowledgement repeats a note:\n%s", ack)
	}
	for _, text := range []string{studio, ack} {
		if strings.Contains(text, "Product:") {
			t.Errorf("a shortlist's mail has a single product's line:\n%s", text)
		}
	}
	// One piece is "1 piece".
	e.Items = e.Items[1:2]
	if subject, _ := composed(t, e, store.RecipientStudio); !strings.HasSuffix(subject, ": 1 piece") {
		t.Errorf("subject = %q", subject)
	}
}

// Fifty pieces with the longest notes, in scripts that take three bytes a
// character, reach aiosmtpd (which refuses a line over 1,000 bytes) whole:
// the notes in the studio's copy, none in the acknowledgement.
func TestFiftyPiecesThroughAiosmtpd(t *testing.T) {
	e := shortlist
	e.Items = nil
	for i := range enquiry.MaxItems {
		e.Items = append(e.Items, enquiry.Item{ProductID: 1, ProductName: "Marwar chair", Material: "Wood", Finish: "Walnut", Quantity: i + 1,
			Note: strings.Repeat("न", enquiry.MaxItemNote-3) + fmt.Sprintf("%03d", i)})
	}
	list, _, _, id := sendThroughAiosmtpd(t, e, 2)
	for _, address := range []string{"studio@jharokha.test", e.Email} {
		text := body(t, parse(t, pick(t, list, address).Raw))
		for i := range enquiry.MaxItems {
			note := "Note: " + strings.Repeat("न", enquiry.MaxItemNote-3) + fmt.Sprintf("%03d\n", i)
			if !strings.Contains(text, fmt.Sprintf("%d. Marwar chair", i+1)) || !strings.Contains(text, fmt.Sprintf("Walnut, quantity %d\n", i+1)) ||
				strings.Contains(text, note) != (address == "studio@jharokha.test") {
				t.Fatalf("mail to %s (#%d) lacks piece %d, or has its note in the acknowledgement:\n%s", address, id, i+1, text)
			}
		}
	}
}
