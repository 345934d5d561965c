package mail

import (
	"html"
	"regexp"
	"strings"
)

// A reply goes as multipart/alternative: the text as it was typed, and the
// same as simple HTML for the mail programs that show HTML, which make no
// links of a plain text's addresses and break its lines as they please.
// The HTML is built here from the text alone, every character of it
// escaped: paragraphs at blank lines, line breaks kept, and web and e-mail
// addresses made links.

// linkPattern finds what becomes a link: an http(s) address, or an e-mail
// address (the web address first, so an "@" inside one stays in it).
var linkPattern = regexp.MustCompile(`https?://[^\s<>"]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)

// blankLines separates paragraphs.
var blankLines = regexp.MustCompile(`\n[ \t]*\n\s*`)

// htmlParagraphs is text as HTML paragraphs (a blank line between two),
// each line of a paragraph on a line of its own.
func htmlParagraphs(text string) string {
	var b strings.Builder
	for _, para := range blankLines.Split(strings.Trim(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), -1) {
		if strings.TrimSpace(para) == "" {
			continue
		}
		b.WriteString(`<p style="margin:0 0 1em">`)
		b.WriteString(htmlLines(para))
		b.WriteString("</p>\n")
	}
	return b.String()
}

// htmlLines is the lines of text, escaped and linked, joined by <br>.
func htmlLines(text string) string {
	lines := strings.Split(strings.Trim(text, "\n"), "\n")
	for i, line := range lines {
		lines[i] = linked(line)
	}
	return strings.Join(lines, "<br>\n")
}

// linked is one line of text escaped, its web and e-mail addresses links.
func linked(line string) string {
	var b strings.Builder
	rest := 0
	for _, m := range linkPattern.FindAllStringIndex(line, -1) {
		start, end := m[0], m[1]
		if start < rest {
			continue
		}
		address := trimTrailing(line[start:end])
		end = start + len(address)
		href := address
		if !strings.HasPrefix(address, "http") {
			href = "mailto:" + address
		}
		b.WriteString(html.EscapeString(line[rest:start]))
		b.WriteString(`<a href="` + html.EscapeString(href) + `">` + html.EscapeString(address) + `</a>`)
		rest = end
	}
	b.WriteString(html.EscapeString(line[rest:]))
	return b.String()
}

// trimTrailing drops what ends a sentence rather than an address: "see
// https://example.com/quote." links without the full stop, and "(at
// https://example.com)" without the bracket.
func trimTrailing(address string) string {
	for address != "" {
		last := address[len(address)-1]
		switch {
		case strings.IndexByte(".,;:!?'*", last) >= 0:
		case last == ')' && strings.Count(address, "(") < strings.Count(address, ")"):
		default:
			return address
		}
		address = address[:len(address)-1]
	}
	return address
}

// htmlReply is a reply's HTML: its text, then the studio's signature and
// the newsletter's way out (when there is one) in a quieter grey.
func htmlReply(text, signature, unsubscribe string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n")
	b.WriteString(`<body style="font-family:sans-serif;font-size:16px;line-height:1.5;color:#222">` + "\n")
	b.WriteString(htmlParagraphs(text))
	b.WriteString(`<p style="margin:1.5em 0 1em;color:#555">` + htmlLines(signature) + "</p>\n")
	if strings.TrimSpace(unsubscribe) != "" {
		b.WriteString(`<p style="margin:0;color:#555;font-size:14px">` + htmlLines(strings.TrimSpace(unsubscribe)) + "</p>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}
