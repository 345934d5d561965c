package mail

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/enquiry"
)

// Every mail about an enquiry is one conversation in the customer's mail
// program (and in the studio's): the acknowledgement starts it, and each
// reply from the inbox answers the one before it (RFC 5322 3.6.4), its
// subject "Re: " and the acknowledgement's (enquiry.ReplySubject).
//
// The Message-IDs are derived from what the store keeps, so a reply written
// weeks later knows the acknowledgement's without a column of its own, and
// a backup restored keeps the conversation:
//
//	acknowledgement  <enquiry-2.1f0c9a7e3b@jharokha.in>
//	studio's copy    <enquiry-2.1f0c9a7e3b.studio@jharokha.in>, References: the acknowledgement
//	reply 5          <enquiry-2.1f0c9a7e3b.reply-5@jharokha.in>, In-Reply-To: the acknowledgement
//	reply 9          <enquiry-2.1f0c9a7e3b.reply-9@jharokha.in>, In-Reply-To: reply 5,
//	                 References: the acknowledgement, reply 5
//
// The hash of the enquiry's number and the second it came in keeps the ids
// apart from those of another database's enquiry #2 (a test server, a new
// start) on the same mail domain. The studio's copy refers to the
// acknowledgement, so a customer's answer to the acknowledgement, and the
// studio's answer to its copy, join the same conversation.

// threadRoot is the part of the Message-IDs that every mail about e shares.
func threadRoot(e enquiry.Enquiry) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "enquiry %d at %d", e.ID, e.CreatedAt.Unix()))
	return fmt.Sprintf("enquiry-%d.%s", e.ID, hex.EncodeToString(sum[:5]))
}

// acknowledgementID is the Message-ID (without its angle brackets) of e's
// acknowledgement, the first message of its conversation.
func (c Config) acknowledgementID(e enquiry.Enquiry) string {
	return threadRoot(e) + "@" + c.idDomain()
}

// studioCopyID is the Message-ID of the studio's copy of e.
func (c Config) studioCopyID(e enquiry.Enquiry) string {
	return threadRoot(e) + ".studio@" + c.idDomain()
}

// replyID is the Message-ID of the reply numbered id to e.
func (c Config) replyID(e enquiry.Enquiry, id int64) string {
	return fmt.Sprintf("%s.reply-%d@%s", threadRoot(e), id, c.idDomain())
}

// idDomain is the domain of the Message-IDs: SMTP_FROM's.
func (c Config) idDomain() string {
	if at := strings.LastIndexByte(c.From, '@'); at >= 0 && at < len(c.From)-1 {
		return c.From[at+1:]
	}
	return "studio.invalid"
}

// setThread gives msg the Message-ID id and References the earlier mails
// of its conversation (their ids, oldest first), if any.
func setThread(msg *gomail.Msg, id string, earlier []string) {
	msg.SetMessageIDWithValue(id)
	if len(earlier) == 0 {
		return
	}
	refs := make([]string, len(earlier))
	for i, ref := range earlier {
		refs[i] = "<" + ref + ">"
	}
	msg.SetGenHeaderPreformatted(gomail.HeaderReferences, fold(string(gomail.HeaderReferences), refs))
}

// setAnswer makes msg, with the Message-ID id, the answer to the last of
// the earlier mails of its conversation (In-Reply-To), referring to them
// all.
func setAnswer(msg *gomail.Msg, id string, earlier []string) {
	setThread(msg, id, earlier)
	msg.SetGenHeaderPreformatted(gomail.HeaderInReplyTo, "<"+earlier[len(earlier)-1]+">")
}
