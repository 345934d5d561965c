package workspace

import "net/http"

// routes lists every route of the workspace, in one place: the server
// sends it /studio and /studio/…. Each line names its gate: signedIn (a
// session, else the sign-in page), scripted (a session, HTTP Basic auth or
// a token, else 401), ownerOnly (an owner, else 403), or none.
func (h *Handler) routes() *http.ServeMux {
	mux := http.NewServeMux()

	// Signing in and out, the accounts.
	mux.HandleFunc("POST /studio/sign-in", h.SignIn)
	mux.HandleFunc("POST /studio/sign-out", h.signedIn(h.SignOut))
	mux.HandleFunc("POST /studio/sign-out-everywhere", h.signedIn(h.SignOutEverywhere))
	mux.HandleFunc("GET /studio/account", h.signedIn(h.YourAccount))
	mux.HandleFunc("POST /studio/account/name", h.signedIn(h.SetYourName))
	mux.HandleFunc("POST /studio/account/password", h.signedIn(h.ChangePassword))
	mux.HandleFunc("GET /studio/accounts", h.signedIn(h.ownerOnly("manage accounts", h.Accounts)))
	mux.HandleFunc("POST /studio/accounts/invite", h.signedIn(h.ownerOnly("invite accounts", h.Invite)))
	mux.HandleFunc("POST /studio/accounts/{id}/invite", h.signedIn(h.ownerOnly("invite accounts", h.Reinvite)))
	mux.HandleFunc("POST /studio/accounts/{id}/role", h.signedIn(h.ownerOnly("change roles", h.SetRole)))
	mux.HandleFunc("GET /studio/accounts/{id}/remove", h.signedIn(h.ownerOnly("remove accounts", h.ConfirmRemove)))
	mux.HandleFunc("POST /studio/accounts/{id}/remove", h.signedIn(h.ownerOnly("remove accounts", h.RemoveAccount)))
	mux.HandleFunc("GET /studio/forgot-password", h.ForgotPassword)
	mux.HandleFunc("POST /studio/forgot-password", h.SendReset)
	mux.HandleFunc("GET /studio/set-password", h.SetPasswordForm)
	mux.HandleFunc("POST /studio/set-password", h.SetPassword)

	// The inbox, an enquiry, customers.
	mux.HandleFunc("GET /studio", h.Inbox)
	mux.HandleFunc("GET /studio/enquiries/{id}", h.signedIn(h.Enquiry))
	mux.HandleFunc("POST /studio/enquiries/{id}/status", h.signedIn(h.SetStatus))
	mux.HandleFunc("POST /studio/enquiries/{id}/spam", h.signedIn(h.SetSpam))
	mux.HandleFunc("POST /studio/enquiries/{id}/undo", h.signedIn(h.Undo))
	mux.HandleFunc("POST /studio/enquiries/{id}/notes", h.signedIn(h.AddNote))
	if h.opts.WakeMail != nil {
		mux.HandleFunc("POST /studio/enquiries/{id}"+replyPath, h.signedIn(h.Reply))
	}
	mux.HandleFunc("GET /studio/enquiries/{id}/delete", h.signedIn(h.ownerOnly("delete an enquiry", h.ConfirmDelete)))
	mux.HandleFunc("POST /studio/enquiries/{id}/delete", h.signedIn(h.ownerOnly("delete an enquiry", h.Delete)))
	mux.HandleFunc("GET /studio/customers", h.signedIn(h.Customer))
	mux.HandleFunc("GET /studio/customers/erase", h.signedIn(h.ownerOnly("erase a person's data", h.ConfirmErase)))
	mux.HandleFunc("POST /studio/customers/erase", h.signedIn(h.ownerOnly("erase a person's data", h.Erase)))

	// The exports and the insights.
	mux.HandleFunc("GET /studio/enquiries.csv", h.scripted(h.ownerOnly("export the enquiries", h.EnquiriesCSV)))
	mux.HandleFunc("GET /studio/newsletter.csv", h.scripted(h.ownerOnly("export the newsletter list", h.NewsletterCSV)))
	mux.HandleFunc("GET /studio/insights", h.signedIn(h.Insights))
	mux.HandleFunc("GET /studio/insights.csv", h.scripted(h.ownerOnly("export the insights", h.InsightsCSV)))

	// The releases (with a publisher).
	if h.opts.Releases != nil {
		mux.HandleFunc("GET /studio/releases", h.signedIn(h.Releases))
		mux.HandleFunc("GET /studio/releases/{id}/make-live", h.signedIn(h.ownerOnly("make a release live", h.MakeLive)))
		mux.HandleFunc("POST /studio/releases/{id}/make-live", h.signedIn(h.ownerOnly("make a release live", h.MakeLive)))
		mux.HandleFunc("POST /studio/releases/publish", h.signedIn(h.ownerOnly("publish", h.Publish)))
	}

	// The Content section (with a content repository).
	if h.opts.Content != nil {
		mux.HandleFunc("GET /studio/content", h.signedIn(h.ContentIndex))
		mux.HandleFunc("GET /studio/content/{part}", h.onPart(h.showEditor))
		mux.HandleFunc("POST /studio/content/{part}", h.onPart(h.save))
		mux.HandleFunc("POST /studio/content/publish", h.signedIn(h.ownerOnly("publish", h.PublishContent)))
		mux.HandleFunc("GET /studio/content/discard", h.signedIn(h.ConfirmDiscard))
		mux.HandleFunc("POST /studio/content/discard", h.signedIn(h.DiscardContent))
		mux.HandleFunc("GET /studio/content/products", h.signedIn(h.Products))
		mux.HandleFunc("GET /studio/content/products/{id}", h.onPart(h.showEditor))
		mux.HandleFunc("POST /studio/content/products/{id}", h.onPart(h.save))
		mux.HandleFunc("GET /studio/content/products/{id}/delete", h.onPart(h.confirmDeleteProduct))
		mux.HandleFunc("POST /studio/content/products/{id}/delete", h.onPart(h.deleteProduct))
		mux.HandleFunc("GET /studio/content/thumbnail", h.signedIn(h.Thumbnail))
		mux.HandleFunc("POST "+photosPath, h.signedIn(h.SendPhoto))
	}

	// Previews of the draft (with a publisher).
	if h.opts.Previews != nil {
		mux.HandleFunc("POST /studio/content/preview", h.signedIn(h.PreviewDraft))
		mux.HandleFunc("GET /studio/content/preview", h.signedIn(h.PreviewStatus))
		// Leaving needs no session: it only forgets the cookie.
		mux.HandleFunc("POST /studio/preview/leave", h.LeavePreview)
		mux.HandleFunc("GET /studio/preview/leave", h.LeavePreview)
	}
	return mux
}
