package inbox

import (
	"log/slog"
	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
	"testing"
	"time"
)

const asha, ravi = "asha@studio.example", "ravi@studio.example"

// pageFixtures is a view model for each page of the inbox: the zero one,
// and one with something in every list and field.
func pageFixtures() map[page.Name][]page.View {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	e := &enquiry.Enquiry{ID: 7, Kind: enquiry.Quote, Name: "Meera", Email: "meera@example.com", Phone: "+91 98290 41752", Message: "Hello",
		CreatedAt: at, Status: enquiry.New, Items: []enquiry.Item{{ProductID: 1, ProductName: "Marwar chair", Quantity: 2}}}
	change := &store.Event{ID: 3, EnquiryID: 7, Actor: asha, Action: store.ActionStatus, From: "new", To: "won", At: at}
	return map[page.Name][]page.View{
		inboxPage: {&listView{}, &listView{Frame: page.Frame{Title: "Enquiries", Account: asha, Notice: "Done."}, Enquiries: []enquiry.Enquiry{*e},
			NewCount: 1, Newer: "/studio?after=8", Older: "/studio?before=6", Kinds: enquiry.Kinds, Statuses: enquiry.Statuses,
			Products: []page.Product{{ID: 1, Name: "Marwar chair"}}, FailedSignIns: store.FailedSignIns{Count: 2, Last: at, From: "192.0.2.1"}, FailedSignInsDays: 7}},
		enquiryPage: {&enquiryView{}, &enquiryView{Frame: page.Frame{Title: "#7"}, Enquiry: e, Notes: []store.Note{{Author: asha, Body: "Call", At: at}},
			History: []store.Event{*change}, Undo: change, Mails: []store.MailDelivery{{Recipient: store.RecipientVisitor, State: "sent", At: at}},
			ReplyURL: "mailto:meera@example.com", WhatsAppURL: "https://wa.me/919829041752", Back: "/studio", Statuses: enquiry.Statuses,
			Replies: []sentReply{{Reply: store.Reply{ID: 1, Author: asha, AuthorName: "Asha", To: "meera@example.com", Subject: "Re: chair", Body: "Hello", AttachmentName: "q.pdf", CreatedAt: at},
				Mail: &store.MailDelivery{Recipient: store.RecipientReply, State: store.MailFailed, Attempts: 1, LastError: "550 no such mailbox", At: at}}, {Reply: store.Reply{ID: 2, Author: ravi}}},
			Reply: &replyForm{To: "meera@example.com", Subject: "Re: chair", Body: "Dear Meera", Key: "k", Templates: []replyTemplate{{Name: "Thanks", Text: "Dear Meera"}}, Template: 1, Said: "“Thanks” is in the message."}},
			// Erased: no reply of any kind.
			&enquiryView{Frame: page.Frame{Title: "#8"}, Enquiry: &enquiry.Enquiry{ID: 8, Kind: enquiry.Contact, Name: store.ErasedName, CreatedAt: at, Status: enquiry.Replied},
				Back: "/studio", Statuses: enquiry.Statuses}},
		customerPage: {&customerView{}, &customerView{Frame: page.Frame{Title: "Meera"}, Email: "meera@example.com", Name: "Meera", Phones: []string{"+91 98290 41752"},
			Enquiries: []enquiry.Enquiry{*e}, Pieces: []string{"Marwar chair"}, Newsletter: &store.Subscription{SignedUp: at, Confirmed: &at}, Erase: "/studio/customers/erase?email=meera%40example.com",
			Timeline: []customerEvent{{At: at, EnquiryID: 7, What: "sent quote request #7", Text: "Hello"}, {At: at, What: "signed up for the newsletter"},
				{At: at, EnquiryID: 7, What: asha + " replied: Re: chair", Mail: &store.MailDelivery{State: store.MailSent, At: at},
					Attachment: "Quote 12.pdf", AttachmentSize: 245_000}}}},
		confirmDeletePage: {&confirmDeleteView{}, &confirmDeleteView{Frame: page.Frame{Title: "Delete #7?"}, Enquiry: e, Back: "/studio"}},
		confirmErasePage:  {&confirmEraseView{}, &confirmEraseView{Frame: page.Frame{Title: "Erase meera@example.com’s data?"}, Email: "meera@example.com", Back: "/studio"}},
	}
}

// Every page renders, in the layout, with a zero view model and with a
// full one.
func TestEveryPageRenders(t *testing.T) {
	t.Parallel()
	pages := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler)}).MustParse(templateFiles, pageFiles, templateFuncs())
	if err := pages.Check(pageFiles, pageFixtures()); err != nil {
		t.Error(err)
	}
}

// A page without its template stops New (page.Parse's other refusals
// are tested in package page).
func TestAMissingPageStopsNew(t *testing.T) {
	if _, err := page.Parse(templateFiles, pageFiles, time.UTC, templateFuncs()); err != nil {
		t.Fatalf("the built-in templates: %v", err)
	}
	defer func(declared page.Names) { pageFiles = declared }(pageFiles)
	pageFiles = append(pageFiles[:len(pageFiles):len(pageFiles)], "missing.html")
	defer func() {
		if recover() == nil {
			t.Error("New started with a page whose template is missing")
		}
	}()
	New(nil, page.NewKit(page.Kit{}), Options{})
}
