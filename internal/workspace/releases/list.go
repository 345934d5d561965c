package releases

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/page"
)

var (
	releasesPage = newPage("releases.html")
	makeLivePage = newPage("release-make-live.html")
)

// NoBuilder says, for whoever runs the server, why nothing can be built
// and how to add the builder (the studio is told CannotBuild).
const NoBuilder = `This server has no builder: it serves the live release, but cannot build new content. Set BUILDER_DIR to a checkout of the site with its packages installed (cd web && npm ci), or use the Docker image, which includes it; see docs/publishing.md.`

// List is GET /studio/releases: every version, which is live, what each
// changed. ?live=ID and ?queued=ID say what the last form did. While a
// build is under way the page follows it (page.Frame.Follow).
func (h *Handler) List(w http.ResponseWriter, r *http.Request) {
	p, ok := h.ListView(w, r)
	if !ok {
		return
	}
	h.describe(p)
	// Only this page's own address is followed: a refusal answers a POST.
	p.Follow = p.Building
	q := r.URL.Query()
	for _, row := range p.Releases {
		switch row.ID {
		case q.Get("live"):
			if row.Live {
				p.Notice = versionName(row) + " is live now."
			}
			if row.Live && q.Get("content") == "back" {
				p.Notice += " The Content page is back to this version too; the later changes stay in the history."
			}
		case q.Get("queued"):
			p.Notice = "The site is being built again."
		}
	}
	h.pages.Render(w, r, http.StatusOK, releasesPage, p)
}

// ListView reads the releases (the Content page shows one of them); on
// failure it answers with the error page and ok false.
func (h *Handler) ListView(w http.ResponseWriter, r *http.Request) (*ListView, bool) {
	list, err := h.opts.Releases.List()
	if err != nil {
		h.kit.Log.Error("studio: read releases", "err", err)
		h.kit.Fail(w, r, http.StatusInternalServerError, Title, "The versions of the site cannot be read just now. Try again in a minute; if it stays so, the server's log says why.", "")
		return nil, false
	}
	live := h.opts.Releases.Live()
	trouble, held := h.opts.Releases.Problem()
	p := &ListView{Frame: page.Frame{Title: Title, Section: "releases"}, CanBuild: h.opts.Releases.CanBuild(),
		Trouble: trouble}
	shown := false // a newer release is ready, or failed with its problems shown
	for _, rel := range list {
		row := Row{Release: rel, Title: rel.Subject(), Short: rel.Commit.Hash[:min(7, len(rel.Commit.Hash))], Live: rel.ID == live && !held}
		switch {
		case rel.ID == live && held:
			row.Label = "Not shown: visitors get “Back in a minute” until the site is built again"
		case row.Live:
			row.Label, row.Class = "Live", "live"
		case len(rel.Damage) > 0:
			// Its files are not what its build made: never served again.
			row.Label, row.Class = "Damaged", "failed"
		case rel.Status == published.Queued:
			row.Label = "Queued"
		case rel.Status == published.Building:
			row.Label = "Building"
			if rel.Stage != "" {
				row.Label += " — " + rel.Stage
			}
		case rel.Status == published.Ready:
			row.Label, row.CanMakeLive = "Ready", true
		case rel.Status == published.Failed:
			row.Label, row.Class, row.Open = "Failed", "failed", !shown
		default:
			row.Label = string(rel.Status)
		}
		if rel.Status == published.Queued || rel.Status == published.Building {
			p.Building = true
			p.UnderWay = ProgressOf(rel, list, live).Words // newest first: the oldest is said
		}
		shown = shown || rel.Status == published.Ready || rel.Status == published.Failed
		if rel.BuildSeconds > 0 {
			row.Took = seconds(rel.BuildSeconds)
		}
		if rel.Size > 0 {
			row.Size = page.SizeText(rel.Size)
		}
		row.Name, row.When = Installed, rel.QueuedAt
		if rel.ID != publish.EmbeddedID {
			row.When = cmp.Or(rel.QueuedAt, rel.Commit.When)
			row.Name = h.kit.When(row.When)
		}
		p.Releases = append(p.Releases, row)
	}
	markNewer(p.Releases)
	nameButtons(p.Releases)
	return p, true
}

// Title is the page's, and its link's in the navigation.
const Title = "Versions of the site"

// markNewer marks the ready versions newer than the live one (PUBLISH=manual
// holds a good build back, or one was gone back from): made live, not gone
// back to.
func markNewer(rows []Row) {
	for i, row := range rows {
		if row.Live {
			for j := range rows[:i] {
				rows[j].Newer = rows[j].CanMakeLive
			}
			return
		}
	}
}

// nameButtons names each version's button: the confirmation's words ("Go
// back to the version of …", "Make the version of … live"), and the list's
// ("Go back to this version: …", its visible words first), unique on the
// page: two versions of one minute are told apart by their places in the
// list.
func nameButtons(rows []Row) {
	names := map[string]int{}
	for i, row := range rows {
		name := row.Name
		if row.ID == publish.EmbeddedID {
			name = lowerFirst(name)
		}
		rows[i].GoBack, rows[i].GoBackButton = "Go back to "+lowerFirst(versionName(row)), "Go back to this version: "+name
		if row.Newer {
			rows[i].GoBack, rows[i].GoBackButton = "Make "+lowerFirst(versionName(row))+" live", "Make this version live: "+name
		}
		if row.CanMakeLive {
			names[rows[i].GoBackButton]++
		}
	}
	for i, row := range rows {
		if names[row.GoBackButton] > 1 {
			rows[i].GoBackButton += fmt.Sprintf(" (number %d in the list)", i+1)
		}
	}
}

// refuseRelease shows the releases page again with what was refused, changing
// nothing.
func (h *Handler) refuseRelease(w http.ResponseWriter, r *http.Request, status int, problem string) {
	p, ok := h.ListView(w, r)
	if !ok {
		return
	}
	p.Problem = problem
	h.pages.Render(w, r, status, releasesPage, p)
}

// goBackView asks before the site goes back to an earlier version: what
// that undoes.
type goBackView struct {
	page.Frame
	Version     Row
	Undone      []Row         // the versions whose changes going back undoes, newest first
	BringsBack  []string      // when it undoes no version (it was undone itself): what it changes
	Unpublished []repo.Commit // they stay unpublished, on top of the older version
}

// MakeLive is GET /studio/releases/{id}/make-live, and the POST without
// confirm=yes: "Go back to this version", asked before it is done, with
// what it undoes. The POST with confirm=yes switches to the ready release
// at once, makes its content main's again (Releases.Rollback), and goes
// back to the page, which says so. A version that cannot be made live is
// refused with 404, 409 or 422, changing nothing.
func (h *Handler) MakeLive(w http.ResponseWriter, r *http.Request) {
	list, row, ok := h.versionToGoBackTo(w, r)
	if !ok {
		return
	}
	back := url.Values{"live": {row.ID}}
	switch {
	case row.ID == h.opts.Releases.Live():
		// Live already (a second click): back to the page, nothing done.
	case r.Method != http.MethodPost || r.FormValue("confirm") != "yes":
		h.askGoBack(w, r, list, row)
		return
	default:
		commit, err := h.opts.Releases.Rollback(row.ID, Signature(r))
		switch {
		case err != nil && h.opts.Releases.Live() == row.ID:
			h.kit.Log.Error("studio: make live: the content was not set back; `studio rollback ID` on the server sets it back", "release", row.ID, "err", err)
			h.refuseRelease(w, r, http.StatusInternalServerError, versionName(*row)+" is live now, but the Content page could not be set back to it, so the next publish would bring the later changes back. Try again in a minute; the server’s log says why.")
			return
		case err != nil:
			h.kit.Log.Warn("studio: make live refused", "release", row.ID, "err", err)
			h.refuseRelease(w, r, http.StatusUnprocessableEntity, "The site could not go back to "+lowerFirst(versionName(*row))+". Nothing was changed: the live version still serves the site. The server’s log says why.")
			return
		}
		h.kit.Log.Info("studio: release made live", "release", row.ID, "account", page.Actor(r), "commit", commit)
		if commit != "" {
			back.Set("content", "back")
		}
	}
	http.Redirect(w, r, "/studio/releases?"+back.Encode(), http.StatusSeeOther)
}

// askGoBack is the confirmation: what going back to row undoes, and the
// unpublished changes that stay.
func (h *Handler) askGoBack(w http.ResponseWriter, r *http.Request, list *ListView, row *Row) {
	p := &goBackView{Frame: page.Frame{Title: row.GoBack + "?", Section: "releases"}, Version: *row}
	h.describe(list)
	undone, behind := h.undone(list, *row)
	p.Undone = undone
	if !behind && row.Commit.Hash != "" {
		if history, err := h.mainHistory(); err == nil && len(history) > 0 {
			p.BringsBack = h.changes(history[0].Hash, row.Commit.Hash)
		}
	}
	for _, v := range list.Releases {
		if v.ID == row.ID {
			p.Version = v // with what it changed
		}
	}
	if h.opts.Content != nil {
		list, err := h.opts.Content.Unpublished()
		if err != nil {
			h.kit.Log.Error("studio: read unpublished changes", "err", err)
			h.kit.Fail(w, r, http.StatusInternalServerError, "Not done", "Nothing was changed: the unpublished changes cannot be read just now. Try again in a minute.", "/studio/releases")
			return
		}
		p.Unpublished = list
	}
	h.pages.Render(w, r, http.StatusOK, makeLivePage, p)
}

// versionToGoBackTo is the version of the path's id when the site can go
// back to it; otherwise it answers with the page saying why, and ok false.
func (h *Handler) versionToGoBackTo(w http.ResponseWriter, r *http.Request) (*ListView, *Row, bool) {
	id := r.PathValue("id")
	p, ok := h.ListView(w, r)
	if !ok {
		return nil, nil, false
	}
	var row *Row
	for i := range p.Releases {
		if p.Releases[i].ID == id {
			row = &p.Releases[i]
		}
	}
	switch {
	case row == nil:
		if rel, err := h.opts.Releases.Release(id); err == nil && rel.Preview {
			h.refuseRelease(w, r, http.StatusConflict, "That is a preview of unpublished changes, not a version of the site: publish the changes on the Content page instead. Nothing was changed.")
		} else {
			h.refuseRelease(w, r, http.StatusNotFound, "That version is no longer kept: only the newest are. Nothing was changed.")
		}
	case row.Live || row.Status == published.Ready:
		return p, row, true
	case row.Status == published.Failed:
		h.refuseRelease(w, r, http.StatusConflict, versionName(*row)+" was never published: it has problems to fix, listed with it. Nothing was changed.")
	default:
		h.refuseRelease(w, r, http.StatusConflict, versionName(*row)+" is still being built: the site can go back to it once it is ready. Nothing was changed.")
	}
	return nil, nil, false
}

// Publish is POST /studio/releases/publish: "Build the site again", the
// content as it is now, even if it was built before.
func (h *Handler) Publish(w http.ResponseWriter, r *http.Request) {
	if !h.opts.Releases.CanBuild() {
		h.kit.Log.Warn("studio: build again refused: " + NoBuilder)
		h.refuseRelease(w, r, http.StatusConflict, "Nothing was built: "+CannotBuild)
		return
	}
	id, err := h.opts.Releases.Publish()
	if err != nil {
		h.kit.Log.Error("studio: publish", "err", err)
		h.refuseRelease(w, r, http.StatusInternalServerError, "The site could not be built again just now. The live version still serves the site; the server’s log says why.")
		return
	}
	h.kit.Log.Info("studio: publish", "release", id, "account", page.Actor(r))
	http.Redirect(w, r, "/studio/releases?"+url.Values{"queued": {id}}.Encode(), http.StatusSeeOther)
}

// CannotBuild is what a server without a builder says to the studio (the
// log and the README say how to add one: NoBuilder).
const CannotBuild = "this server cannot build the site. Ask whoever runs it to set up its builder."

// seconds says a build's duration: "34 s", "2 min 5 s".
func seconds(s float64) string {
	n := int(s + 0.5)
	if n < 60 {
		return fmt.Sprintf("%d s", max(n, 1))
	}
	return fmt.Sprintf("%d min %d s", n/60, n%60)
}
