package mail

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The headers that carry what a visitor typed (the studio copy's Subject
// and Reply-To) are encoded and folded here, not by go-mail, because
// go-mail (v0.8.1) gets two cases wrong:
//
//   - It encodes a value only when it has non-ASCII characters
//     (mime.WordEncoder's rule), so a name typed as "=?utf-8?q?Admin?=" goes
//     into the Subject as it is, and a mail reader shows "Admin". In an
//     address, net/mail quotes such a name, and RFC 2047 forbids decoding
//     inside quotes, but mail readers do it all the same.
//   - It folds only at spaces, so a long word (a name of 120 letters with no
//     space) stays on one line of 130 characters or more.
//
// A 120-character Devanagari name it handles well: mime.WordEncoder splits
// it into encoded words of at most 75 characters and go-mail folds between
// them (tested in headers_test.go). Here every value that is not plain
// short ASCII words is encoded as a whole into encoded words of at most 68
// characters, whatever its script, so every line of these headers is at
// most 78 characters long and the first holds a word (an address of more
// than 68 characters is the one word that can make a longer line, and it
// is at most 256).

const (
	maxLine = 78 // RFC 5322 2.1.1: SHOULD be at most 78 characters, MUST be at most 998
	// An encoded word is at most 75 characters (RFC 2047 2); these are at
	// most 68, so that the first fits on the header's own line beside the
	// longest name folded here ("Reply-To: "): a header never starts with an
	// empty line, which some mail readers show as an empty subject.
	maxEncodedWord = maxLine - len("Reply-To: ")
	maxPlainWord   = 40 // a longer word is encoded, so that it can be split
	wordStart      = "=?utf-8?q?"
	wordEnd        = "?="
)

// textWords is an unstructured header value (a Subject) as words to fold.
// Plain ASCII words are kept as they are; anything else makes the whole
// value encoded words.
func textWords(s string) []string {
	s = oneLine(s)
	if plain(s, func(b byte) bool { return b > ' ' && b <= '~' }) {
		return strings.Split(s, " ")
	}
	return encodedWords(s)
}

// phraseWords is a display name as words to fold: plain atoms, or encoded
// words when it has anything but letters, digits and the few symbols an
// atom may hold (quotes, brackets, dots, commas and "@" would need
// quoting, and RFC 2047 forbids encoded words inside quotes).
func phraseWords(s string) []string {
	s = oneLine(s)
	if plain(s, isAtext) {
		return strings.Fields(s)
	}
	return encodedWords(s)
}

// plain says whether s can go into a header as it is: words of allowed
// bytes, none too long to fold, nothing that looks like an encoded word.
func plain(s string, allowed func(byte) bool) bool {
	if strings.Contains(s, "=?") {
		return false
	}
	for _, word := range strings.Split(s, " ") {
		if len(word) > maxPlainWord {
			return false
		}
		for i := 0; i < len(word); i++ {
			if !allowed(word[i]) {
				return false
			}
		}
	}
	return true
}

// isAtext is RFC 5322's atext in ASCII.
func isAtext(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", b) >= 0
}

// encodedWords encodes all of s as RFC 2047 "Q" encoded words in UTF-8,
// each at most 75 characters and holding whole characters. Only letters,
// digits and "!*+-/" stay as they are, which RFC 2047 5(3) allows in a
// display name as well as in a Subject; "=", "?", "_" and the rest are
// written as =XX, so what a visitor typed is shown as typed.
func encodedWords(s string) []string {
	var words []string
	var word strings.Builder
	room := maxEncodedWord - len(wordStart) - len(wordEnd)
	for _, r := range s {
		var enc strings.Builder
		var buf [utf8.UTFMax]byte
		for _, b := range buf[:utf8.EncodeRune(buf[:], r)] {
			switch {
			case b == ' ':
				enc.WriteByte('_')
			case b < utf8.RuneSelf && (isAlnum(b) || strings.IndexByte("!*+-/", b) >= 0):
				enc.WriteByte(b)
			default:
				enc.WriteByte('=')
				enc.WriteByte("0123456789ABCDEF"[b>>4])
				enc.WriteByte("0123456789ABCDEF"[b&15])
			}
		}
		if word.Len()+enc.Len() > room {
			words = append(words, wordStart+word.String()+wordEnd)
			word.Reset()
		}
		word.WriteString(enc.String())
	}
	if word.Len() > 0 {
		words = append(words, wordStart+word.String()+wordEnd)
	}
	return words
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// addressWords is a display name and an address as words to fold. The
// address must be a bare address (checked by the caller with
// mail.ParseAddress); net/mail writes it in angle brackets, quoting the
// local part when it needs it.
func addressWords(name, address string) []string {
	addr := (&mail.Address{Address: oneLine(address)}).String()
	return append(phraseWords(name), addr)
}

// fold joins words into the value of the header called name, breaking the
// line before a word that would take it past 78 characters. Breaking means
// writing CRLF before the space that separates two words, so unfolding (RFC
// 5322 2.2.3) gives back the value. The first word stays on the header's
// line (only an address of more than 68 characters makes it longer than 78).
func fold(name string, words []string) string {
	var b strings.Builder
	used := len(name) + len(": ")
	for i, w := range words {
		switch {
		case i == 0:
		case w != "" && used+1+len(w) > maxLine:
			b.WriteString("\r\n ")
			used = 1
		default:
			b.WriteByte(' ')
			used++
		}
		b.WriteString(w)
		used += len(w)
	}
	return b.String()
}

// oneLine drops control characters (CR and LF above all) from a header
// value, so nothing a visitor typed can start a header of its own.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
