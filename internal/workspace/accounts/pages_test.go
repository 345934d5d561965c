package accounts

import (
	"log/slog"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// pageFixtures is a view model for each page of the accounts: the zero
// one, and one with something in every list and field.
func pageFixtures() map[page.Name][]page.View {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	const asha, ravi = "asha@studio.example", "ravi@studio.example"
	kept := &keptForm{To: "/studio/enquiries/1/notes", Multipart: true, Fields: []keptField{{"note", "Call her back"}}, Files: []string{"attachment"}}
	return map[page.Name][]page.View{
		signInPage: {&signInView{}, &signInView{Frame: page.Frame{Title: "Sign in", Problem: "No."}, Email: asha},
			&signInView{Frame: page.Frame{Title: "Sign in", Notice: "You were signed out from another browser."}, Kept: kept}},
		sendKeptPage:      {&sendKeptView{}, &sendKeptView{Frame: page.Frame{Title: "Send"}, Kept: kept}},
		signOutOthersPage: {&signOutOthersView{}, &signOutOthersView{Frame: page.Frame{Title: "Sign out?"}, Others: 1}, &signOutOthersView{Others: 3}},
		accountsPage: {&accountsView{}, &accountsView{Frame: page.Frame{Title: "Accounts", Section: "accounts", Owner: true, Notice: "Invited."}, MailOff: true, Email: "x@example.com", Name: "X", Role: store.RoleOwner,
			Accounts: []accountRow{{Account: store.Account{ID: 1, Email: asha, Name: "Asha", Role: store.RoleOwner}, You: true}, {Account: store.Account{ID: 2, Email: ravi, Role: store.RoleStaff, CreatedAt: at}, Invited: true}}}},
		removeAccountPage: {&removeAccountView{}, &removeAccountView{Frame: page.Frame{Title: "Remove?"}, Target: store.Account{ID: 2, Email: ravi}}},
		yourAccountPage: {&yourAccountView{}, &yourAccountView{Frame: page.Frame{Title: "Your account", Section: "account"}, Me: store.Account{Email: ravi, Name: "Ravi", Role: store.RoleStaff},
			Sessions: []sessionRow{{SessionInfo: store.SessionInfo{Created: at, Seen: at}, Browser: "Chrome on Android", Place: "This network", Handle: "a", ThisBrowser: true},
				{SessionInfo: store.SessionInfo{Created: at, Seen: at}, Browser: "Safari on iPhone", Place: "Network 203.0.113.0/24", Handle: "b"}}}},
		forgotPage:      {&forgotView{}, &forgotView{Frame: page.Frame{Title: "Check your mail", Notice: "If …"}, Email: asha}},
		setPasswordPage: {&setPasswordView{}, &setPasswordView{Frame: page.Frame{Title: "Set"}, Token: "t", Email: asha, Invite: true}, &setPasswordView{Frame: page.Frame{Title: "No", Problem: "Expired."}, Refused: true}}}
}

// Every page renders, in the layout, with a zero view model and with a
// full one.
func TestEveryPageRenders(t *testing.T) {
	t.Parallel()
	pages := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler)}).MustParse(templateFiles, pageFiles, nil)
	if err := pages.Check(pageFiles, pageFixtures()); err != nil {
		t.Error(err)
	}
}
