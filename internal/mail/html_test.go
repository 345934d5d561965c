package mail

import "testing"

// A line of a reply becomes HTML with every character escaped, and its web
// and e-mail addresses links without the punctuation that ends a sentence.
func TestLinkedLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`a <b> & "c"`, `a &lt;b&gt; &amp; &#34;c&#34;`},
		{"see https://example.com/quote.", `see <a href="https://example.com/quote">https://example.com/quote</a>.`},
		{"(at https://example.com/a_(b))", `(at <a href="https://example.com/a_(b)">https://example.com/a_(b)</a>)`},
		{`http://x.test/"onmouseover=alert(1)`, `<a href="http://x.test/">http://x.test/</a>&#34;onmouseover=alert(1)`},
		{"write to asha.rao+q@example.co.in, or call", `write to <a href="mailto:asha.rao+q@example.co.in">asha.rao+q@example.co.in</a>, or call`},
		{"https://example.com/u@x.com?", `<a href="https://example.com/u@x.com">https://example.com/u@x.com</a>?`},
		{"ftp://example.com and javascript:alert(1)", "ftp://example.com and javascript:alert(1)"},
	} {
		if got := linked(c.line); got != c.want {
			t.Errorf("linked(%q) =\n %q, want\n %q", c.line, got, c.want)
		}
	}
}

// Blank lines part paragraphs, however many; a single line break stays one.
func TestHTMLParagraphs(t *testing.T) {
	got := htmlParagraphs("\nDear Asha,\r\n\r\n\r\nOne\ntwo\n \nMeera\n")
	want := "<p style=\"margin:0 0 1em\">Dear Asha,</p>\n<p style=\"margin:0 0 1em\">One<br>\ntwo</p>\n<p style=\"margin:0 0 1em\">Meera</p>\n"
	if got != want {
		t.Errorf("htmlParagraphs =\n%q, want\n%q", got, want)
	}
}
