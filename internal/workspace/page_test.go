package workspace

import (
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/contentform"
	"studio/internal/enquiry"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// pageFixtures is a view model for each page of the workspace: the zero
// one, and one with something in every list and field.
func pageFixtures() map[workspacePage][]view {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	e := &enquiry.Enquiry{ID: 7, Kind: enquiry.Quote, Name: "Meera", Email: "meera@example.com", Phone: "+91 98290 41752", Message: "Hello",
		CreatedAt: at, Status: enquiry.New, Items: []enquiry.Item{{ProductID: 1, ProductName: "Marwar chair", Quantity: 2}}}
	change := &store.Event{ID: 3, EnquiryID: 7, Actor: asha, Action: store.ActionStatus, From: "new", To: "won", At: at}
	return map[workspacePage][]view{
		inboxPage: {&listView{}, &listView{frame: frame{Title: "Enquiries", Account: asha, Notice: "Done."}, Enquiries: []enquiry.Enquiry{*e},
			NewCount: 1, Newer: "/studio?after=8", Older: "/studio?before=6", Kinds: enquiry.Kinds, Statuses: enquiry.Statuses,
			Products: []Product{{ID: 1, Name: "Marwar chair"}}, FailedSignIns: store.FailedSignIns{Count: 2, Last: at, From: "192.0.2.1"}, FailedSignInsDays: 7}},
		enquiryPage: {&enquiryView{}, &enquiryView{frame: frame{Title: "#7"}, Enquiry: e, Notes: []store.Note{{Author: asha, Body: "Call", At: at}},
			History: []store.Event{*change}, Undo: change, Mails: []store.MailDelivery{{Recipient: store.RecipientVisitor, State: "sent", At: at}},
			ReplyURL: "mailto:meera@example.com", WhatsAppURL: "https://wa.me/919829041752", Back: "/studio", Statuses: enquiry.Statuses,
			Replies: []sentReply{{Reply: store.Reply{ID: 1, Author: asha, AuthorName: "Asha", To: "meera@example.com", Subject: "Re: chair", Body: "Hello", AttachmentName: "q.pdf", CreatedAt: at},
				Mail: &store.MailDelivery{Recipient: store.RecipientReply, State: store.MailFailed, Attempts: 1, LastError: "550 no such mailbox", At: at}}, {Reply: store.Reply{ID: 2, Author: ravi}}},
			Reply: &replyForm{To: "meera@example.com", Subject: "Re: chair", Body: "Dear Meera", Key: "k", Templates: []ReplyTemplate{{Name: "Thanks", Body: "Dear {{name}}"}}, Template: 1}}},
		customerPage: {&customerView{}, &customerView{frame: frame{Title: "Meera"}, Email: "meera@example.com", Name: "Meera", Phones: []string{"+91 98290 41752"},
			Enquiries: []enquiry.Enquiry{*e}, Pieces: []string{"Marwar chair"}, Newsletter: &store.Subscription{SignedUp: at, Confirmed: &at}, Erase: "/studio/customers/erase?email=meera%40example.com",
			Timeline: []customerEvent{{At: at, EnquiryID: 7, What: "sent quote request #7", Text: "Hello"}, {At: at, What: "signed up for the newsletter"},
				{At: at, EnquiryID: 7, What: asha + " replied: Re: chair", Mail: &store.MailDelivery{State: store.MailSent, At: at}}}}},
		confirmDeletePage: {&confirmDeleteView{}, &confirmDeleteView{frame: frame{Title: "Delete #7?"}, Enquiry: e, Back: "/studio"}},
		confirmErasePage:  {&confirmEraseView{}, &confirmEraseView{frame: frame{Title: "Erase meera@example.com’s data?"}, Email: "meera@example.com", Back: "/studio"}},
		contentPage: {&contentView{}, &contentView{frame: frame{Title: "Content", Section: "content", ShowContent: true, Notice: "Saved."}, Parts: edit.Parts,
			Unpublished: []repo.Commit{{Hash: "ccc", Message: "Studio details: Tagline", Author: "asha", When: at}}, Waiting: true, Here: "/studio/content?published=ccc",
			Release: &releases.Row{Release: published.Release{ID: "r1", Status: published.Building, Problems: []string{"content/site.json: name: is empty"}}, Title: "Studio details: Tagline", Label: "Building — prerendering the pages"}}},
		contentEditPage: {&editView{Form: &contentform.Field{}}, &editView{frame: frame{Title: "Studio details", Problem: "Nothing was saved."}, Part: edit.Parts[0], Version: "ccc",
			Others: []string{"content/site.json: whatsappPhone: no such phone"}, Theirs: []theirChange{{Label: "Tagline", Value: "New"}}, Changes: 2, Product: true, Delete: "/studio/content/products/3/delete", Action: "/studio/content/products/3", Form: &contentform.Field{Kind: "group", Fields: []*contentform.Field{
				{Name: "/name", ID: "f-name", Label: "Name", Kind: "text", Value: "Jharokha", Required: true, Problems: []string{"is empty"}},
				{Name: "/about", ID: "f-about", Label: "About", Kind: "textarea", Hint: "some text"},
				{Name: "/tags", ID: "f-tags", Label: "Tags", Kind: "lines", Value: "a\nb"},
				{Name: "/years", ID: "f-years", Label: "Years", Kind: "integer", Value: "2"},
				{Name: "/open", ID: "f-open", Label: "Open", Kind: "checkbox", Checked: true},
				{Name: "/kind", ID: "f-kind", Label: "Kind", Kind: "select", Value: "b", Options: []string{"a", "b"}},
				{Name: "/phones", ID: "f-phones", Label: "Phones", Kind: "list", Item: "Phone", CountName: "_count/phones", Fields: []*contentform.Field{
					{Name: "/phones/0", ID: "f-phones-0", Label: "Phone 1", Kind: "group", List: "/phones", Index: 0, Count: 2},
					{Name: "/phones/1", ID: "f-phones-1", Label: "Phone 2", Kind: "group", List: "/phones", Index: 1, Count: 2, Problems: []string{"no"}}}},
				{Name: "/id", Kind: "hidden", Value: "3"},
				{Name: "/images", ID: "f-images", Label: "Images", Kind: "photos", Item: "Photograph", CountName: "_count/images", Problems: []string{"“a.txt” is not a photograph"}, Fields: []*contentform.Field{
					{Name: "/images/0", ID: "f-images-0", Label: "Photograph 1", Kind: "group", List: "/images", Index: 0, Count: 1, Value: "upload:abc.jpg", Fields: []*contentform.Field{
						{Name: "/images/0/src", Kind: "hidden", Value: "upload:abc.jpg"}, {Name: "/images/0/alt", ID: "f-images-0-alt", Label: "Alt", Kind: "text", Required: true}}}}}}}}},
		productsPage: {&productsView{}, &productsView{frame: frame{Title: "Products"}, Products: []productRow{{ID: "1", Name: "Marwar chair", Category: "Seatings", Cover: "/studio/content/thumbnail?src=products/1.jpg",
			CoverAlt: "A chair", Featured: "What’s Hot", ChangedBy: "asha", Changed: "2 Mar 2026, 14:00"}, {ID: "2", Name: "Jali screen"}}}},
		deleteProductPage: {&deleteProductView{}, &deleteProductView{frame: frame{Title: "Delete Marwar chair?"}, Part: contentPart{Slug: "products/1"}, Name: "Marwar chair", Version: "ccc"}},
		markdownPage: {&markdownView{}, &markdownView{frame: frame{Title: "FAQ", Problem: "Nothing was saved."}, Part: edit.Texts[2], Text: "---\ntitle: FAQ\n---\n## Why?\n", Preview: "<h2>Why?</h2>",
			Version: "ccc", Problems: []string{"content/pages/faq.md: {{site.fax}} names no fact"}, Theirs: "## Because\n"}},
		discardPage: {&contentView{}, &contentView{frame: frame{Title: "Discard?"}, Unpublished: []repo.Commit{{Hash: "ccc", Message: "x", Author: "asha", When: at}}}},
	}
}

// Every page renders, in the layout, with a zero view model and with a
// full one.
func TestEveryPageRenders(t *testing.T) {
	h, _ := setup(t)
	fixtures := pageFixtures()
	for _, p := range pageFiles {
		views, ok := fixtures[p]
		if !ok {
			t.Errorf("page %s has no fixture in pageFixtures", p)
			continue
		}
		for i, v := range views {
			var b strings.Builder
			if err := h.pages.Template(p).ExecuteTemplate(&b, "layout.html", v); err != nil {
				t.Errorf("page %s, view %d: %v", p, i, err)
				continue
			}
			if out := b.String(); !strings.Contains(out, "<main>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
				t.Errorf("page %s, view %d is not inside the layout:\n%s", p, i, out)
			}
		}
	}
}

// templatesWithout is the built-in templates, less one file and with
// others added.
func templatesWithout(t *testing.T, left string, added map[string]string) fs.FS {
	t.Helper()
	files := fstest.MapFS{}
	err := fs.WalkDir(templateFiles, page.TemplatesDir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == left {
			return err
		}
		b, err := fs.ReadFile(templateFiles, name)
		files[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range added {
		files[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return files
}

// A page without its template, a broken template, and a template no page
// declares each stop start-up.
func TestBrokenTemplatesStopStartUp(t *testing.T) {
	funcs := templateFuncs()
	if _, err := page.Parse(templatesWithout(t, "", nil), pageFiles, time.UTC, funcs); err != nil {
		t.Fatalf("the built-in templates: %v", err)
	}
	for name, fsys := range map[string]fs.FS{
		"a page's file missing":   templatesWithout(t, "templates/customer.html", nil),
		"a partial missing":       templatesWithout(t, "templates/partials/enquiry-title.html", nil),
		"a broken page":           templatesWithout(t, "", map[string]string{"templates/inbox.html": `{{define "content"}}{{if .Title}}{{end}}`}),
		"a page without content":  templatesWithout(t, "", map[string]string{"templates/inbox.html": `<p>no content defined</p>`}),
		"a page no handler shows": templatesWithout(t, "", map[string]string{"templates/stray.html": `{{define "content"}}{{end}}`}),
	} {
		if _, err := page.Parse(fsys, pageFiles, time.UTC, funcs); err == nil {
			t.Errorf("%s: the templates parsed", name)
		}
	}

	// New itself refuses to start with a page whose file is missing.
	defer func(declared page.Names) { pageFiles = declared }(pageFiles)
	pageFiles = append(pageFiles[:len(pageFiles):len(pageFiles)], "missing.html")
	defer func() {
		if recover() == nil {
			t.Error("New started with a page whose template is missing")
		}
	}()
	setup(t)
}

// The navigation marks the insights page as the current one, and no other.
func TestNavigationMarksTheCurrentPage(t *testing.T) {
	h, _ := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	for target, current := range map[string]bool{"/studio/insights": true, "/studio": false} {
		w := do(h, "GET", target, nil, withCookie(c))
		if got := strings.Contains(w.Body.String(), `href="/studio/insights" aria-current="page"`); w.Code != http.StatusOK || got != current {
			t.Errorf("%s: %d, insights marked current: %v, want %v", target, w.Code, got, current)
		}
	}
}
