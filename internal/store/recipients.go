package store

// What a mail of the outbox is (the column recipient, migrations 0004
// and 0011); the mail worker composes each kind.
const (
	RecipientStudio  = "studio"  // the studio's copy of the enquiry, to SMTP_TO
	RecipientVisitor = "visitor" // the acknowledgement, to the address the visitor gave
	RecipientReply   = "reply"   // a reply written in the inbox (ref_id: enquiry_replies)
	RecipientInvite  = "invite"  // an invitation to set one's password (ref_id: accounts)
	RecipientReset   = "reset"   // a password reset link (ref_id: accounts)
	RecipientConfirm = "confirm" // the newsletter's confirmation (ref_id: newsletter_subscribers)
)
