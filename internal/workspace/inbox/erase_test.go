package inbox

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"studio/internal/store"
	"studio/internal/workspace/page"
	"testing"
	"time"
)

// eraserWithoutOverwrite blanks nothing and says the files were not
// overwritten, as the store does when its vacuum fails.
type eraserWithoutOverwrite struct{ Store }

func (eraserWithoutOverwrite) ErasePerson(context.Context, string, string, time.Time) (int, error) {
	return 2, fmt.Errorf("store: erase a person's data: %w: vacuum: disk full", store.ErrNotOverwritten)
}

// When the erasure is committed but the old copies are not overwritten,
// the page says both, and how to finish, instead of "nothing was changed".
func TestEraseSaysWhenTheFilesAreNotOverwritten(t *testing.T) {
	t.Parallel()
	h := New(eraserWithoutOverwrite{}, page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler)}), Options{})
	r := httptest.NewRequest("POST", "/studio/customers/erase", strings.NewReader(url.Values{"email": {"meera@example.com"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.Erase(w, page.WithAccount(r, store.Account{Email: "asha@studio.example", Role: store.RoleOwner}))
	body := w.Body.String()
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(body, "Erased 2 enquiries of that person.") ||
		!strings.Contains(body, "Erase again in a minute") || strings.Contains(body, "Nothing was changed") {
		t.Errorf("erase without overwrite: %d\n%s", w.Code, body)
	}
}
