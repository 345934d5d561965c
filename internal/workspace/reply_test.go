package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store/testdb"
	"studio/internal/workspace/inbox"
	"studio/internal/workspace/page"
)

// multipartForm is a reply form as a browser sends it, with a file when
// pdf is not nil.
func multipartForm(t *testing.T, fields url.Values, fileName string, pdf []byte) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, vs := range fields {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	if pdf != nil {
		fw, err := mw.CreateFormFile("attachment", fileName)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(pdf)
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

func postMultipart(h http.Handler, target, contentType string, body *bytes.Buffer, c *http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", target, body)
	r.RemoteAddr = "203.0.113.9:1234"
	r.Header.Set("Content-Type", contentType)
	r.AddCookie(c)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

var formKey = regexp.MustCompile(`name="key" value="([^"]+)"`)

// The reply form: filled in for the enquiry, a template put in without
// JavaScript, sent once however often the form is posted, shown with its
// delivery, the enquiry moved to Replied; bad input refused with the
// draft kept and nothing stored.
func TestReplyFromTheEnquiry(t *testing.T) {
	st := testdb.SQLite(t)
	woken := 0
	h := setupOn(t, st, func(o *Options) {
		o.WakeMail = func() { woken++ }
		o.Facts = func() page.Facts {
			return page.Facts{StudioName: "Jharokha Studio", ReplyTemplates: []page.ReplyTemplate{{Name: "Quote follows", Body: "Dear {{name}},\n\nthank you for asking about {{piece}}.\n\n{{sender}}"}}}
		}
	})
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Rao", Email: "meera@example.com", ProductID: 1, ProductName: "Marwar chair"})
	c := signIn(t, h, asha, ashaPassword)
	page := "/studio/enquiries/" + itoa(id)

	body := html.UnescapeString(do(h, "GET", page+"?template=1", nil, withCookie(c)).Body.String())
	for _, want := range []string{`name="to" value="meera@example.com"`, `name="subject" value="Re: Jharokha Studio: we have your quote request (#` + itoa(id) + `)"`,
		// An account without a name signs as the studio.
		"Dear Meera Rao,\n\nthank you for asking about Marwar chair.\n\nJharokha Studio</textarea>", ` selected>Quote follows</option>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the reply form lacks %q", want)
		}
	}
	key := formKey.FindStringSubmatch(body)[1]
	form := url.Values{"to": {"meera@example.com"}, "subject": {"Re: Marwar chair"}, "body": {"Dear Meera,\r\nthe quote is attached."}, "key": {key}}

	// Refused: nothing stored, the draft kept, the problem said.
	for _, bad := range []struct {
		field, value, problem string
		pdf                   []byte
	}{
		{"to", "meera@example.com, someone@else.com", "is not one e-mail address", nil},
		{"subject", " ", "the subject is empty", nil},
		{"body", "", "the message is empty", nil},
		{"body", "Dear Meera", "is not a PDF", []byte("GIF89a")},
		{"body", "Dear Meera", "up to 10 MB", append([]byte("%PDF-"), make([]byte, 10<<20)...)},
	} {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set(bad.field, bad.value)
		ct, b := multipartForm(t, f, "quote.pdf", bad.pdf)
		w := postMultipart(h, page+"/reply", ct, b, c)
		got := html.UnescapeString(w.Body.String())
		if w.Code != http.StatusBadRequest && w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(got, bad.problem) {
			t.Errorf("%s=%.30q: %d, want 400 saying %q", bad.field, bad.value, w.Code, bad.problem)
		}
		if bad.field != "body" && !strings.Contains(got, "the quote is attached.") {
			t.Errorf("%s refused: the message was not kept", bad.field)
		}
	}
	// A file name a database cannot keep is said so, not a 503.
	ct, b := multipartForm(t, form, "quo\xffte.pdf", []byte("%PDF-1.4"))
	if w := postMultipart(h, page+"/reply", ct, b, c); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "file name has a character") {
		t.Errorf("a file name that is not UTF-8: %d", w.Code)
	}
	if replies, _ := st.Replies(context.Background(), []int64{id}); len(replies) != 0 || woken != 0 {
		t.Fatalf("refused forms stored %d replies and woke the mail %d times", len(replies), woken)
	}

	// Sent, twice (a double click): one reply.
	for range 2 {
		ct, b := multipartForm(t, form, "Quote 12.pdf", []byte("%PDF-1.4 the quote"))
		w := postMultipart(h, page+"/reply", ct, b, c)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != page+"?done=replied" {
			t.Fatalf("send: %d → %q %s", w.Code, w.Header().Get("Location"), w.Body)
		}
	}
	replies, err := st.Replies(context.Background(), []int64{id})
	if err != nil || len(replies) != 1 || woken != 1 {
		t.Fatalf("%d replies stored (%v), mail woken %d times; want 1 and 1", len(replies), err, woken)
	}
	if r := replies[0]; r.Author != asha || r.Body != "Dear Meera,\nthe quote is attached." || r.AttachmentName != "Quote 12.pdf" {
		t.Errorf("stored %+v", r)
	}
	body = html.UnescapeString(do(h, "GET", page+"?done=replied", nil, withCookie(c)).Body.String())
	for _, want := range []string{"Your reply is on its way", asha + " to meera@example.com", "waiting to be sent", "attached: Quote 12.pdf",
		asha + " sent a reply", asha + " moved it from New to Replied"} {
		if !strings.Contains(body, want) {
			t.Errorf("after sending, the page lacks %q", want)
		}
	}
	if e, _ := st.Enquiry(context.Background(), id); e.Status != enquiry.Replied {
		t.Errorf("status = %s, want replied", e.Status)
	}
}

// "Use this template" keeps what was typed. Without JavaScript it sends
// the form, and the page comes back with the subject and the message as
// they were, the template after the message, nothing sent; the page's
// script, which does it in the page, is allowed by the page's policy.
func TestTemplateKeepsWhatWasTyped(t *testing.T) {
	st := testdb.SQLite(t)
	woken := 0
	h := setupOn(t, st, func(o *Options) {
		o.WakeMail = func() { woken++ }
		o.Facts = func() page.Facts {
			return page.Facts{StudioName: "Jharokha Studio", ReplyTemplates: []page.ReplyTemplate{
				{Name: "Visit", Body: "Come and see the woods."}, {Name: "Quote follows", Body: "Dear {{name}},\n\nthe quote for {{piece}} follows.\n\n{{sender}}"}}}
		}
	})
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Rao", Email: "meera@example.com", ProductID: 1, ProductName: "Marwar chair"})
	c := signIn(t, h, asha, ashaPassword)
	target := "/studio/enquiries/" + itoa(id)
	w := do(h, "GET", target, nil, withCookie(c))
	if !strings.Contains(w.Body.String(), "<script>"+inbox.ReplyJS+"</script>") {
		t.Fatalf("the page has no template script")
	}
	sum := sha256.Sum256([]byte(inbox.ReplyJS))
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("the page's policy %q does not allow its template script", csp)
	}
	key := formKey.FindStringSubmatch(w.Body.String())[1]

	typed := url.Values{"to": {"meera@example.com"}, "subject": {"Your chairs, and a table"}, "body": {"Dear Meera,\r\nabout the table: yes."},
		"key": {key}, "use": {"template"}, "template": {"2"}}
	ct, b := multipartForm(t, typed, "quote.pdf", []byte("%PDF-1.4 the quote"))
	w = postMultipart(h, target+"/reply", ct, b, c)
	body := html.UnescapeString(w.Body.String())
	if w.Code != http.StatusOK {
		t.Fatalf("use a template: %d %s", w.Code, body)
	}
	for _, want := range []string{`name="subject" value="Your chairs, and a table"`, `name="key" value="` + key + `"`,
		">Dear Meera,\nabout the table: yes.\n\nDear Meera Rao,\n\nthe quote for Marwar chair follows.\n\nJharokha Studio</textarea>",
		"“Quote follows” is in the message, after what you had written. Nothing was sent yet.", "Choose the PDF again", ` selected>Quote follows</option>`} {
		if !strings.Contains(body, want) {
			t.Errorf("after “Use this template” the page lacks %q", want)
		}
	}
	// An empty message takes the template alone; a template gone since
	// the page was opened is said, the message kept.
	typed.Set("body", "")
	typed.Set("template", "1")
	ct, b = multipartForm(t, typed, "", nil)
	if body := html.UnescapeString(postMultipart(h, target+"/reply", ct, b, c).Body.String()); !strings.Contains(body, `required>Come and see the woods.</textarea>`) {
		t.Errorf("the template alone is not the message:\n%s", body)
	}
	typed.Set("body", "Dear Meera")
	typed.Set("template", "9")
	ct, b = multipartForm(t, typed, "", nil)
	w = postMultipart(h, target+"/reply", ct, b, c)
	if body := html.UnescapeString(w.Body.String()); w.Code != http.StatusBadRequest || !strings.Contains(body, "There is no such template any more") || !strings.Contains(body, "required>Dear Meera</textarea>") {
		t.Errorf("an unknown template: %d", w.Code)
	}
	if replies, _ := st.Replies(context.Background(), []int64{id}); len(replies) != 0 || woken != 0 {
		t.Errorf("putting a template in sent %d replies", len(replies))
	}
}

// An enquiry whose customer's details were erased offers no reply of any
// kind, and a reply posted to it all the same is refused, saying why.
func TestNoReplyToAnErasedEnquiry(t *testing.T) {
	st := testdb.SQLite(t)
	h := setupOn(t, st, func(o *Options) { o.WakeMail = func() {} })
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com", Phone: "+91 98290 41752", Message: "Hello"})
	c := signIn(t, h, asha, ashaPassword)
	target := "/studio/enquiries/" + itoa(id)
	body := do(h, "GET", target, nil, withCookie(c)).Body.String()
	key := formKey.FindStringSubmatch(body)[1]
	if _, err := st.ErasePerson(context.Background(), "meera@example.com", asha, time.Now()); err != nil {
		t.Fatal(err)
	}
	body = html.UnescapeString(do(h, "GET", target, nil, withCookie(c)).Body.String())
	for _, offer := range []string{"Write a reply", "Reply from your mail program", "mailto:", "WhatsApp", "Send reply", "Use this template"} {
		if strings.Contains(body, offer) {
			t.Errorf("the erased enquiry offers %q", offer)
		}
	}
	if !strings.Contains(body, "No reply can be sent: this customer asked to be forgotten") {
		t.Error("the erased enquiry does not say why there is no reply")
	}
	ct, b := multipartForm(t, url.Values{"to": {"meera@example.com"}, "subject": {"Re: hello"}, "body": {"Dear Meera"}, "key": {key}}, "", nil)
	w := postMultipart(h, target+"/reply", ct, b, c)
	if w.Code != http.StatusConflict || !strings.Contains(html.UnescapeString(w.Body.String()), "their details were erased") {
		t.Errorf("a reply to the erased enquiry: %d %s", w.Code, w.Body)
	}
	if replies, _ := st.Replies(context.Background(), []int64{id}); len(replies) != 0 {
		t.Error("a reply to the erased enquiry was stored")
	}
}

// Without mail (no SMTP_HOST) there is no reply form and no route for it.
func TestNoRepliesWithoutMail(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com"})
	c := signIn(t, h, asha, ashaPassword)
	body := do(h, "GET", "/studio/enquiries/"+itoa(id), nil, withCookie(c)).Body.String()
	if strings.Contains(body, "Send reply") || !strings.Contains(body, "mail is not set up") {
		t.Error("without mail the page offers a reply form, or does not say why it has none")
	}
	if strings.Contains(body, "SMTP") {
		t.Error("the page names the server's setting: that is for whoever runs it")
	}
	w := do(h, "POST", "/studio/enquiries/"+itoa(id)+"/reply", url.Values{"to": {"meera@example.com"}, "subject": {"s"}, "body": {"b"}, "key": {"k"}}, withCookie(c))
	if w.Code == http.StatusSeeOther {
		t.Error("a reply was taken without mail")
	}
	if replies, _ := st.Replies(context.Background(), []int64{id}); len(replies) != 0 {
		t.Error("a reply was stored without mail")
	}
}

// A quote of 8 MB from a phone arrives past the server's ReadTimeout, its
// deadline following its progress as a photograph's does; a connection
// that stalls is refused with how far it got, and nothing is stored. (The
// server's timeouts and the pace are scaled as in uploads_test.go.)
func TestAPhonesSlowReplyArrives(t *testing.T) {
	st := testdb.SQLite(t)
	h := setupOn(t, st, func(o *Options) {
		o.WakeMail = func() {}
		o.UploadPace = scaledPace
	})
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Rao", Email: "meera@example.com", ProductID: 1, ProductName: "Marwar chair"})
	c := signIn(t, h, asha, ashaPassword)
	page := "/studio/enquiries/" + itoa(id)
	srv := httptest.NewUnstartedServer(withRequestClock(h))
	srv.Config.ReadHeaderTimeout = 5 * time.Second / timeScale
	srv.Config.ReadTimeout = 15 * time.Second / timeScale
	srv.Config.WriteTimeout = 30 * time.Second / timeScale
	srv.Start()
	t.Cleanup(srv.Close)
	// No redirect is followed: the answer itself is the test's.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(body io.Reader, length int64, contentType string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "POST", srv.URL+page+"/reply", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		req.Header.Set("Content-Type", contentType)
		req.AddCookie(c)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, html.UnescapeString(string(b))
	}
	key := formKey.FindStringSubmatch(do(h, "GET", page, nil, withCookie(c)).Body.String())[1]
	form := url.Values{"to": {"meera@example.com"}, "subject": {"Re: Marwar chair"}, "body": {"Dear Meera,\r\nthe quote is attached."}, "key": {key}}
	pdf := append([]byte("%PDF-1.4 "), make([]byte, 8_000_000)...)
	ct, b := multipartForm(t, form, "quote.pdf", pdf)
	whole := b.Bytes()

	stalled := stalling(t, &paced{r: bytes.NewReader(whole[:3_000_000]), rate: 400_000 * timeScale})
	if status, got := send(stalled, int64(len(whole)), ct); status != http.StatusRequestTimeout || !strings.Contains(got, "the connection stopped after 3 of 8 MB") {
		t.Errorf("a stalled reply: %d, want 408 saying where it stopped", status)
	}
	if replies, _ := st.Replies(context.Background(), []int64{id}); len(replies) != 0 {
		t.Fatalf("a stalled reply stored %d replies", len(replies))
	}

	if status, _ := send(&paced{r: bytes.NewReader(whole), rate: 400_000 * timeScale}, int64(len(whole)), ct); status != http.StatusSeeOther {
		t.Fatalf("a slow reply: %d, want 303", status)
	}
	if replies, err := st.Replies(context.Background(), []int64{id}); err != nil || len(replies) != 1 || replies[0].AttachmentName != "quote.pdf" {
		t.Fatalf("a slow reply: %d replies stored (%v), want 1 with its PDF", len(replies), err)
	}
}
