package inbox

import (
	"net/url"
	"strings"
	"studio/internal/enquiry"
	"studio/internal/store"
)

// The words the inbox's pages say an enquiry in.

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

// customerURL is the address of the customer page of an e-mail address.
// The address is in the query, not the path: the server's log keeps each
// request's path for weeks, and erasing a person's data must not leave
// their address there.
func customerURL(email string) string {
	return "/studio/customers?" + url.Values{"email": {enquiry.EmailKey(strings.TrimSpace(email))}}.Encode()
}

// piecesOf names the products an enquiry asked about (pieceOf says them
// in a phrase).
func piecesOf(e enquiry.Enquiry) []string {
	var names []string
	for _, it := range e.Items {
		names = append(names, it.ProductName)
	}
	if len(names) == 0 && e.ProductName != "" {
		names = append(names, e.ProductName)
	}
	return names
}

func kindLabel(k enquiry.Kind) string     { return kindLabels[k] }
func statusLabel(s enquiry.Status) string { return statusLabels[s] }

// mailTo says whom a mail of an enquiry's went to.
func mailTo(recipient string) string {
	switch recipient {
	case store.RecipientVisitor:
		return "Acknowledgement to the visitor"
	case store.RecipientReply:
		return "Reply to the customer"
	}
	return "Copy to the studio"
}

// replyMails sorts mails into the replies', by reply id, and the others.
func replyMails(mails []store.MailDelivery) (byReply map[int64]*store.MailDelivery, others []store.MailDelivery) {
	byReply = map[int64]*store.MailDelivery{}
	for _, d := range mails {
		if d.Recipient == store.RecipientReply {
			byReply[d.Ref] = &d
			continue
		}
		others = append(others, d)
	}
	return byReply, others
}
