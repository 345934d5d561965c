package page

import "testing"

func TestInboxPath(t *testing.T) {
	t.Parallel()
	for back, want := range map[string]string{
		"/studio":                     "/studio",
		"/studio?kind=quote&before=9": "/studio?kind=quote&before=9",
		"/studio/enquiries.csv":       "/studio/enquiries.csv",
		"/studio/../\\evil.example":   "/studio",
		"/studio/../evil":             "/studio",
		"/studioevil":                 "/studio",
		"//evil.example/studio":       "/studio",
		"https://evil.example/studio": "/studio",
		"/studio\\@evil.example":      "/studio",
		"":                            "/studio",
	} {
		if got := InboxPath(back); got != want {
			t.Errorf("InboxPath(%q) = %q, want %q", back, got, want)
		}
	}
}
