package workspace

import (
	"net/http"

	"studio/internal/workspace/editor"
	"studio/internal/workspace/inbox"
)

// routes lists every route of the workspace, in one place: the server
// sends it /studio and /studio/…. Each line names its gate (package
// accounts): SignedIn (a session, else the sign-in page), SignInFirst (a
// session, else the sign-in page in its place), Scripted (a session, HTTP
// Basic auth or a token, else 401), OwnerOnly (an owner, else 403), or
// none.
func (h *Handler) routes() *http.ServeMux {
	mux := http.NewServeMux()

	// Signing in and out, the accounts.
	mux.HandleFunc("POST /studio/sign-in", h.accounts.SignIn)
	mux.HandleFunc("POST /studio/sign-out", h.gate.SignedIn(h.accounts.SignOut))
	mux.HandleFunc("GET /studio/account", h.gate.SignedIn(h.accounts.YourAccount))
	mux.HandleFunc("GET /studio/account/sign-out-others", h.gate.SignedIn(h.accounts.ConfirmSignOutOthers))
	mux.HandleFunc("POST /studio/account/sign-out-others", h.gate.SignedIn(h.accounts.SignOutOthers))
	mux.HandleFunc("POST /studio/account/sessions/{handle}/sign-out", h.gate.SignedIn(h.accounts.SignOutOne))
	mux.HandleFunc("POST /studio/account/name", h.gate.SignedIn(h.accounts.SetYourName))
	mux.HandleFunc("POST /studio/account/password", h.gate.SignedIn(h.accounts.ChangePassword))
	mux.HandleFunc("GET /studio/accounts", h.gate.SignedIn(h.gate.OwnerOnly("manage accounts", h.accounts.Accounts)))
	mux.HandleFunc("POST /studio/accounts/invite", h.gate.SignedIn(h.gate.OwnerOnly("invite accounts", h.accounts.Invite)))
	mux.HandleFunc("POST /studio/accounts/{id}/invite", h.gate.SignedIn(h.gate.OwnerOnly("invite accounts", h.accounts.Reinvite)))
	mux.HandleFunc("POST /studio/accounts/{id}/role", h.gate.SignedIn(h.gate.OwnerOnly("change roles", h.accounts.SetRole)))
	mux.HandleFunc("GET /studio/accounts/{id}/remove", h.gate.SignedIn(h.gate.OwnerOnly("remove accounts", h.accounts.ConfirmRemove)))
	mux.HandleFunc("POST /studio/accounts/{id}/remove", h.gate.SignedIn(h.gate.OwnerOnly("remove accounts", h.accounts.RemoveAccount)))
	mux.HandleFunc("GET /studio/forgot-password", h.accounts.ForgotPassword)
	mux.HandleFunc("POST /studio/forgot-password", h.accounts.SendReset)
	mux.HandleFunc("GET /studio/set-password", h.accounts.SetPasswordForm)
	mux.HandleFunc("POST /studio/set-password", h.accounts.SetPassword)

	// The inbox, an enquiry, customers.
	mux.HandleFunc("GET /studio", h.gate.SignInFirst(h.inbox.Inbox))
	mux.HandleFunc("GET /studio/enquiries/{id}", h.gate.SignedIn(h.inbox.Enquiry))
	mux.HandleFunc("POST /studio/enquiries/{id}/status", h.gate.SignedIn(h.inbox.SetStatus))
	mux.HandleFunc("POST /studio/enquiries/{id}/spam", h.gate.SignedIn(h.inbox.SetSpam))
	mux.HandleFunc("POST /studio/enquiries/{id}/undo", h.gate.SignedIn(h.inbox.Undo))
	mux.HandleFunc("POST /studio/enquiries/{id}/notes", h.gate.SignedIn(h.inbox.AddNote))
	if h.opts.WakeMail != nil {
		mux.HandleFunc("POST /studio/enquiries/{id}"+inbox.ReplyPath, h.gate.SignedIn(h.inbox.Reply))
	}
	mux.HandleFunc("GET /studio/enquiries/{id}/delete", h.gate.SignedIn(h.gate.OwnerOnly("delete an enquiry", h.inbox.ConfirmDelete)))
	mux.HandleFunc("POST /studio/enquiries/{id}/delete", h.gate.SignedIn(h.gate.OwnerOnly("delete an enquiry", h.inbox.Delete)))
	mux.HandleFunc("GET /studio/customers", h.gate.SignedIn(h.inbox.Customer))
	mux.HandleFunc("GET /studio/customers/erase", h.gate.SignedIn(h.gate.OwnerOnly("erase a person's data", h.inbox.ConfirmErase)))
	mux.HandleFunc("POST /studio/customers/erase", h.gate.SignedIn(h.gate.OwnerOnly("erase a person's data", h.inbox.Erase)))

	// The exports and the insights.
	mux.HandleFunc("GET /studio/enquiries.csv", h.gate.Scripted(h.gate.OwnerOnly("export the enquiries", h.exports.EnquiriesCSV)))
	mux.HandleFunc("GET /studio/newsletter.csv", h.gate.Scripted(h.gate.OwnerOnly("export the newsletter list", h.exports.NewsletterCSV)))
	mux.HandleFunc("GET /studio/insights", h.gate.SignedIn(h.insights.Insights))
	mux.HandleFunc("GET /studio/insights.csv", h.gate.Scripted(h.gate.OwnerOnly("export the insights", h.insights.InsightsCSV)))

	// The releases (with a publisher).
	if h.opts.Releases != nil {
		mux.HandleFunc("GET /studio/releases", h.gate.SignedIn(h.releases.List))
		mux.HandleFunc("GET /studio/releases/{id}/make-live", h.gate.SignedIn(h.gate.OwnerOnly("make a release live", h.releases.MakeLive)))
		mux.HandleFunc("POST /studio/releases/{id}/make-live", h.gate.SignedIn(h.gate.OwnerOnly("make a release live", h.releases.MakeLive)))
		mux.HandleFunc("POST /studio/releases/publish", h.gate.SignedIn(h.gate.OwnerOnly("publish", h.releases.Publish)))
	}

	// The Content section (with a content repository).
	if h.opts.Content != nil {
		mux.HandleFunc("GET /studio/content", h.gate.SignedIn(h.content.Index))
		mux.HandleFunc("GET /studio/content/{part}", h.gate.SignedIn(h.content.Edit))
		mux.HandleFunc("POST /studio/content/{part}", h.gate.SignedIn(h.content.Save))
		mux.HandleFunc("POST /studio/content/publish", h.gate.SignedIn(h.gate.OwnerOnly("publish", h.content.Publish)))
		mux.HandleFunc("GET /studio/content/discard", h.gate.SignedIn(h.content.ConfirmDiscard))
		mux.HandleFunc("POST /studio/content/discard", h.gate.SignedIn(h.content.Discard))
		mux.HandleFunc("GET /studio/content/products", h.gate.SignedIn(h.content.Products))
		mux.HandleFunc("GET /studio/content/products/{id}", h.gate.SignedIn(h.content.Edit))
		mux.HandleFunc("POST /studio/content/products/{id}", h.gate.SignedIn(h.content.Save))
		mux.HandleFunc("GET /studio/content/products/{id}/delete", h.gate.SignedIn(h.content.ConfirmDeleteProduct))
		mux.HandleFunc("POST /studio/content/products/{id}/delete", h.gate.SignedIn(h.content.DeleteProduct))
		mux.HandleFunc("POST /studio/content/products/{id}/move", h.gate.SignedIn(h.content.MoveProduct))
		mux.HandleFunc("GET /studio/content/thumbnail", h.gate.SignedIn(h.content.Thumbnail))
		mux.HandleFunc("POST "+editor.PhotosPath, h.gate.SignedIn(h.content.SendPhoto))
	}

	// Previews of the draft (with a publisher).
	if h.opts.Previews != nil {
		mux.HandleFunc("POST /studio/content/preview", h.gate.SignedIn(h.releases.PreviewDraft))
		// Leaving needs no session: it only forgets the cookie.
		mux.HandleFunc("POST /studio/preview/leave", h.releases.LeavePreview)
		mux.HandleFunc("GET /studio/preview/leave", h.releases.LeavePreview)
	}
	return mux
}
