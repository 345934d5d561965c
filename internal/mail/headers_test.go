package mail

import (
	"math/rand/v2"
	"mime"
	"net/mail"
	"strings"
	"testing"
	"unicode/utf8"
)

// headerSamples are values a visitor might type, and some only a robot would.
func headerSamples() []string {
	samples := []string{
		"", "Asha Rao", "अनन्या शर्मा", strings.Repeat("अनन्या", 20), strings.Repeat("x", 130), "=?utf-8?q?Admin?=",
		"a_b c?d=e", `"quoted" (comment) <angle> [square], semi; colon: back\slash`, "  two  spaces  ", "🪑🪑 chair", "Zoë Ångström",
		"ஆனந்த் " + strings.Repeat("க", 90), "?=", "=?", "=?=?=?",
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aZ09 _=?\"()<>,;:\\.@!*+-/#éअनஆ🪑\u200d")
	for range 200 {
		var b strings.Builder
		for range r.IntN(160) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		samples = append(samples, b.String())
	}
	return samples
}

// checkLines fails on a folded header line over 78 characters or with
// anything but printable ASCII, and on a header whose value starts on its
// second line (a mail reader shows an empty first line).
func checkLines(t *testing.T, header string) {
	t.Helper()
	if _, value, _ := strings.Cut(header, ": "); strings.HasPrefix(value, "\r\n") {
		t.Errorf("the value starts on the second line: %q", header)
	}
	for _, line := range strings.Split(header, "\r\n") {
		if len(line) > maxLine {
			t.Errorf("line of %d characters: %q", len(line), line)
		}
		for _, r := range line {
			if r < ' ' || r > '~' {
				t.Errorf("line with %q: %q", r, line)
				break
			}
		}
	}
}

// unfold is RFC 5322 2.2.3: the CRLFs of folding removed.
func unfold(s string) string { return strings.ReplaceAll(s, "\r\n", "") }

func TestSubjectRoundTrips(t *testing.T) {
	for _, s := range headerSamples() {
		header := "Subject: " + fold("Subject", textWords(s))
		checkLines(t, header)
		got, err := new(mime.WordDecoder).DecodeHeader(strings.TrimPrefix(unfold(header), "Subject: "))
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		// A reader trims the value's ends; inner spaces are kept.
		if strings.TrimSpace(got) != strings.TrimSpace(s) {
			t.Errorf("Subject %q decodes to %q", s, got)
		}
	}
}

func TestDisplayNameRoundTrips(t *testing.T) {
	for _, name := range headerSamples() {
		header := "Reply-To: " + fold("Reply-To", addressWords(name, "asha@example.com"))
		checkLines(t, header)
		addr, err := mail.ParseAddress(strings.TrimPrefix(unfold(header), "Reply-To: "))
		if err != nil {
			t.Errorf("%q: %v in %q", name, err, header)
			continue
		}
		// Runs of spaces between plain words are one space in a phrase.
		want := name
		if plain(name, isAtext) {
			want = strings.Join(strings.Fields(name), " ")
		}
		if addr.Name != want || addr.Address != "asha@example.com" {
			t.Errorf("%q parses to %q <%s>", name, addr.Name, addr.Address)
		}
	}
}

func TestEncodedWords(t *testing.T) {
	for _, s := range headerSamples() {
		for _, w := range encodedWords(s) {
			if len(w) > maxEncodedWord || !strings.HasPrefix(w, wordStart) || !strings.HasSuffix(w, wordEnd) {
				t.Errorf("encoded word %q", w)
			}
			// Whole characters in each word: each decodes alone.
			text, err := new(mime.WordDecoder).Decode(w)
			if err != nil || !utf8.ValidString(text) {
				t.Errorf("%q decodes to %q, %v", w, text, err)
			}
			if strings.ContainsAny(w[len(wordStart):len(w)-len(wordEnd)], "?\"()<>,;:\\.@ ") {
				t.Errorf("encoded word %q holds a character RFC 2047 5(3) forbids in a phrase", w)
			}
		}
	}
}

// What stays readable in the header: plain short words. What is encoded:
// anything else.
func TestWhatIsEncoded(t *testing.T) {
	for s, encoded := range map[string]bool{
		"Quote request #5 from Asha Rao: Marwar chair": false,
		"Quote request #5 from =?utf-8?q?Admin?=":      true,
		"from " + strings.Repeat("x", 41):              true,
		"from " + strings.Repeat("x", 40):              false,
		"from Zoë":                                     true,
	} {
		got := strings.Contains(fold("Subject", textWords(s)), wordStart)
		if got != encoded {
			t.Errorf("%q: encoded %v, want %v", s, got, encoded)
		}
	}
	for name, encoded := range map[string]bool{"Asha Rao": false, "A. Rao": true, `Asha "A" Rao`: true, "O'Brien": false} {
		if got := strings.Contains(strings.Join(phraseWords(name), " "), wordStart); got != encoded {
			t.Errorf("name %q: encoded %v, want %v", name, got, encoded)
		}
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\r\nb\tc\x00d\u0085e"); got != "abcde" {
		t.Errorf("oneLine = %q", got)
	}
}
