package releases

import (
	"net/http/httptest"
	"strings"
	"testing"

	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

func TestReleaseWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0.2: "1 s", 34.4: "34 s", 59.6: "1 min 0 s", 125: "2 min 5 s"} {
		if got := seconds(in); got != want {
			t.Errorf("seconds(%v) = %q, want %q", in, got, want)
		}
	}
}

// A commit is signed by the account's name, which the versions show, or
// the first part of its e-mail while it has none.
func TestSignatureNamesTheAccount(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("GET", "/", nil)
	for _, c := range []struct {
		account store.Account
		want    repo.Signature
	}{
		{store.Account{Email: "asha@studio.example", Name: "Asha Mehta"}, repo.Signature{Name: "Asha Mehta", Email: "asha@studio.example"}},
		{store.Account{Email: "asha@studio.example", Name: " "}, repo.Signature{Name: "asha", Email: "asha@studio.example"}},
	} {
		if got := Signature(page.WithAccount(r, c.account)); got != c.want {
			t.Errorf("Signature of %+v = %+v, want %+v", c.account, got, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "Asha": "Asha", "Asha,Meera,Asha": "Asha and Meera", "Asha,Meera,Ravi": "Asha, Meera and Ravi"} {
		if got := names(strings.Split(in, ",")); got != want {
			t.Errorf("names(%q) = %q, want %q", in, got, want)
		}
	}
}
