package mail

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/content"
	"studio/internal/enquiry"
	"studio/internal/sitecontent"
	"studio/internal/store"
)

// smtpServer is a small SMTP server for the tests: it keeps every message
// and answers MAIL FROM with a failure while failures > 0, and RCPT TO an
// address of the domain bounce.invalid with a permanent refusal.
type smtpServer struct {
	addr     *net.TCPAddr
	mu       sync.Mutex
	failures int
	failCode string
	messages []string
	authed   []string
}

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	s := &smtpServer{addr: l.Addr().(*net.TCPAddr), failCode: "451 4.3.0 try again later"}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(line string) { io.WriteString(conn, line+"\r\n") }
	say("220 test ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			say("250-test")
			say("250-AUTH PLAIN")
			say("250 8BITMIME")
		case strings.HasPrefix(cmd, "AUTH PLAIN"):
			s.mu.Lock()
			s.authed = append(s.authed, strings.TrimSpace(line[len("AUTH PLAIN"):]))
			s.mu.Unlock()
			say("235 ok")
		case strings.HasPrefix(cmd, "MAIL FROM"):
			s.mu.Lock()
			fail := s.failures > 0
			if fail {
				s.failures--
			}
			s.mu.Unlock()
			if fail {
				say(s.failCode)
			} else {
				say("250 ok")
			}
		case strings.HasPrefix(cmd, "RCPT TO") && strings.Contains(cmd, "@BOUNCE.INVALID"):
			say("550 5.1.1 no such mailbox")
		case strings.HasPrefix(cmd, "RCPT TO"), cmd == "RSET", cmd == "NOOP":
			say("250 ok")
		case cmd == "DATA":
			say("354 go on")
			var msg strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				msg.WriteString(strings.TrimPrefix(l, "."))
			}
			s.mu.Lock()
			s.messages = append(s.messages, msg.String())
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

func (s *smtpServer) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.messages...)
}

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// shipped is the studio's content as bin/studio ships it: the tests' mails
// carry the real facts of content/site.json and content/service.json.
var shipped = func() *sitecontent.Content {
	c, err := sitecontent.Load(content.Files)
	if err != nil {
		panic(err)
	}
	return c
}()

// serverAddress is the server's own address in the tests' mails
// (Config.LinkBase): not the shipped content's baseUrl, so a link built
// from content shows.
const serverAddress = "https://studio-server.test:8443"

func testConfig(port int) Config {
	return Config{Host: "127.0.0.1", Port: port, Username: "site", Password: "pw", From: "site@jharokha.test",
		To: "studio@jharokha.test", Site: shipped.Site, Service: shipped.Service,
		LinkBase: func(context.Context) (string, error) { return serverAddress, nil }}
}

func testWorker(st *store.Store, srv *smtpServer) *Worker {
	return newTestWorker(st, testConfig(srv.addr.Port))
}

func newTestWorker(st *store.Store, cfg Config) *Worker {
	w := NewWorker(cfg, st, slog.New(slog.DiscardHandler))
	w.Poll, w.BaseDelay, w.MaxDelay, w.Timeout = 20*time.Millisecond, 10*time.Millisecond, 40*time.Millisecond, 5*time.Second
	return w
}

func run(t *testing.T, w *Worker) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// waitFor polls cond until it holds; the two minutes are for a machine
// under load.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func status(st *store.Store) (pending, sent, failed int) {
	f, _ := st.MailFigures(context.Background())
	return f.Pending, f.Sent, f.GivenUp
}

var visitor = enquiry.Enquiry{Kind: enquiry.Quote, Name: "Asha Rao", Email: "asha@example.com", Phone: "+91 98290 41752",
	Message: "Could it be 10 cm lower?\n.\nThanks", ProductID: 1, ProductName: "Marwar chair", Material: "Wood", Finish: "Walnut",
	CreatedAt: time.Now()}

// byRecipient picks the message sent to address from raw messages.
func byRecipient(t *testing.T, messages []string, address string) *mail.Message {
	t.Helper()
	for _, raw := range messages {
		msg, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if to, err := mail.ParseAddress(msg.Header.Get("To")); err == nil && to.Address == address {
			return msg
		}
	}
	t.Fatalf("no message to %s among %d", address, len(messages))
	return nil
}

func TestSendsEnquiry(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := testWorker(st, srv)
	defer run(t, w)()
	id, err := st.CreateEnquiry(context.Background(), visitor, true)
	if err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the two mails", func() bool { return len(srv.received()) == 2 })
	msg := byRecipient(t, srv.received(), "studio@jharokha.test")
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if want := "Quote request #" + itoa(id) + " from Asha Rao: Marwar chair"; subject != want {
		t.Errorf("Subject = %q, want %q", subject, want)
	}
	if rt, err := mail.ParseAddress(msg.Header.Get("Reply-To")); err != nil || rt.Address != visitor.Email || rt.Name != visitor.Name {
		t.Errorf("Reply-To = %q", msg.Header.Get("Reply-To"))
	}
	if from, err := mail.ParseAddress(msg.Header.Get("From")); err != nil || from.Address != "site@jharokha.test" || from.Name != shipped.Site.Name+" website" {
		t.Errorf("From = %q", msg.Header.Get("From"))
	}
	body, _ := io.ReadAll(qpReader(msg.Body))
	// The link to the enquiry, on the server's address.
	link := serverAddress + "/studio/enquiries/" + itoa(id)
	for _, want := range []string{"Marwar chair (#1)", "Material: Wood", "Finish:   Walnut", "+91 98290 41752", "Could it be 10 cm lower?\r\n.\r\nThanks", "In the studio's inbox: " + link + "\r\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	byRecipient(t, srv.received(), visitor.Email) // the acknowledgement
	waitFor(t, "sent recorded", func() bool { _, sent, _ := status(st); return sent == 2 })
	srv.mu.Lock()
	defer srv.mu.Unlock()
	// One conversation a mail, each signed in with the username and password.
	want := base64.StdEncoding.EncodeToString([]byte("\x00site\x00pw"))
	if len(srv.authed) != 2 || srv.authed[0] != want || srv.authed[1] != want {
		t.Errorf("authenticated as %q, want twice %q", srv.authed, want)
	}
}

// Without a username, no AUTH: as with net/smtp before, a mail server that
// takes mail from this host without it is told nothing.
func TestNoAuthWithoutUsername(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	cfg := testConfig(srv.addr.Port)
	cfg.Username, cfg.Password = "", ""
	defer run(t, newTestWorker(st, cfg))()
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the two mails", func() bool { return len(srv.received()) == 2 })
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.authed) != 0 {
		t.Errorf("authenticated %d times without a username", len(srv.authed))
	}
}

func TestHeaderInjectionIsImpossible(t *testing.T) {
	e := visitor
	e.ID = 7
	e.Name = "Asha\r\nBcc: victim@example.net\r\nX-Evil: 1"
	e.Email = "asha@example.com\r\nCc: other@example.net"
	e.ProductName = "Marwar chair\nSubject: free"
	cfg := Config{From: "site@jharokha.test", To: "studio@jharokha.test", Site: shipped.Site, Service: shipped.Service}
	raw, err := compose(cfg, store.PendingMail{Recipient: store.RecipientStudio, Enquiry: e}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Bcc", "Cc", "X-Evil"} {
		if v := msg.Header.Get(h); v != "" {
			t.Errorf("header %s was injected: %q", h, v)
		}
	}
	if n := len(msg.Header["Subject"]); n != 1 {
		t.Errorf("%d Subject headers", n)
	}
	if to := msg.Header.Get("To"); to != "<studio@jharokha.test>" {
		t.Errorf("To = %q", to)
	}
	// The address does not parse, so the studio's copy has no Reply-To and
	// the acknowledgement cannot be composed (and is given up at once).
	if rt := msg.Header.Get("Reply-To"); rt != "" {
		t.Errorf("Reply-To = %q", rt)
	}
	if _, err := compose(cfg, store.PendingMail{Recipient: store.RecipientVisitor, Enquiry: e}, time.Now()); !errors.Is(err, errPermanent) {
		t.Errorf("acknowledgement to a broken address: %v, want errPermanent", err)
	}
}

func TestRetriesWithBackoff(t *testing.T) {
	srv := startSMTP(t)
	srv.failures = 3
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	defer run(t, testWorker(st, srv))()
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the mails after three failures", func() bool { _, sent, _ := status(st); return sent == 2 })
	if n := len(srv.received()); n != 2 {
		t.Errorf("received %d mails, want 2", n)
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	srv := startSMTP(t)
	srv.failures, srv.failCode = 1000, "550 5.7.1 refused"
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := testWorker(st, srv)
	w.MaxAttempts = 3
	defer run(t, w)()
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "giving up", func() bool { _, _, failed := status(st); return failed == 2 })
	if list, _ := st.Enquiries(context.Background(), store.EnquiryFilter{}); len(list) != 1 {
		t.Error("the enquiry went with its mail")
	}
}

func TestPendingMailSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "studio.db")
	// The mail server is down while the first server runs.
	down, _ := net.Listen("tcp", "127.0.0.1:0")
	downPort := down.Addr().(*net.TCPAddr).Port
	down.Close()
	st := openStore(t, path)
	w := testWorker(st, &smtpServer{addr: &net.TCPAddr{Port: downPort}})
	// It retries every few milliseconds: on a busy machine it must not give
	// up before the test stops it.
	w.MaxAttempts = 1 << 20
	stop := run(t, w)
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "a failed attempt of each mail", func() bool {
		due, _ := st.DueMails(context.Background(), time.Now().Add(time.Hour), 10)
		return len(due) == 2 && due[0].Attempts >= 1 && due[1].Attempts >= 1
	})
	stop()
	st.Close()

	// Restarted, with the mail server up: the mail goes.
	srv := startSMTP(t)
	st = openStore(t, path)
	defer st.Close()
	defer run(t, testWorker(st, srv))()
	waitFor(t, "the mails after the restart", func() bool { return len(srv.received()) == 2 })
	waitFor(t, "sent recorded", func() bool { pending, sent, _ := status(st); return pending == 0 && sent == 2 })
}

func TestBackoff(t *testing.T) {
	w := NewWorker(Config{}, nil, nil)
	w.BaseDelay, w.MaxDelay = time.Second, 10*time.Second
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 30: 10 * time.Second} {
		if got := w.backoff(n); got != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
	}
}

// The studio's copy gives the time in the studio's time zone (site.json).
func TestStudioCopyTimeInStudioZone(t *testing.T) {
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	c := Config{From: "website@studio.example", To: "hello@studio.example"}
	c.Site.Name, c.Site.Location = "Studio", kolkata
	e := enquiry.Enquiry{ID: 3, Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com", CreatedAt: time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)}
	msg, err := compose(c, store.PendingMail{Recipient: store.RecipientStudio, Enquiry: e}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := mail.ReadMessage(strings.NewReader(string(msg)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(parsed.Body))
	if !strings.Contains(string(body), "received 2 Mar 2026 11:30 IST") {
		t.Errorf("body = %q, want the time in IST", body)
	}
}

// With Live, each mail takes the studio's facts from the live release at
// the moment it is sent: a name published after the server started is in
// the next acknowledgement.
func TestMailTakesTheLiveReleasesFacts(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	published := *shipped
	published.Site.Name = "Published Name Studio"
	published.Site.Email = "hello@published.test"
	var live atomic.Pointer[sitecontent.Content]
	live.Store(shipped)
	cfg := testConfig(srv.addr.Port)
	cfg.Live = live.Load
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	live.Store(&published)
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the two mails", func() bool { return len(srv.received()) == 2 })
	ack := byRecipient(t, srv.received(), visitor.Email)
	if from, err := mail.ParseAddress(ack.Header.Get("From")); err != nil || from.Name != "Published Name Studio" {
		t.Errorf("From = %q, want the published name", ack.Header.Get("From"))
	}
	if rt, err := mail.ParseAddress(ack.Header.Get("Reply-To")); err != nil || rt.Address != "hello@published.test" {
		t.Errorf("Reply-To = %q, want the published address", ack.Header.Get("Reply-To"))
	}
}
