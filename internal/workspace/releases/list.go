package releases

import (
	"fmt"
	"net/http"
	"net/url"

	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/page"
)

var (
	releasesPage = newPage("releases.html")
	makeLivePage = newPage("release-make-live.html")
)

// NoBuilder says why there is no "Publish now", and how to add it.
const NoBuilder = `This server has no builder: it serves the live release, but cannot build new content. Set BUILDER_DIR to a checkout of the site with its packages installed (cd web && npm ci), or use the Docker image, which includes it; see docs/publishing.md.`

// ListView is every release, newest first.
type ListView struct {
	page.Frame
	Releases  []Row
	CanBuild  bool
	NoBuilder string
	Building  bool   // a release is queued or building: the page (GET) follows it (Frame.Follow)
	UnderWay  string // where the oldest publish under way has come to, in the studio's words
	Trouble   string // the publisher's Problem, said at the top
}

// Row is one release as the page shows it.
type Row struct {
	published.Release
	Title       string // the message's first line
	Short       string // the commit's first seven characters ("" for the embedded build)
	Label       string // Live, Queued, Building — <stage>, Ready, Failed
	Live        bool
	Class       string // "live" or "failed", for the styles
	CanMakeLive bool   // ready, and not the live one
	MakeLive    string // its Make live button's name, unique on the page
	Took, Size  string // "" when not known
	Open        bool   // its problems are shown open: the newest failure, with no release ready since
}

// List is GET /studio/releases: every release and the live one.
// ?live=ID and ?queued=ID say what the last form did. While a build is
// under way the page follows it by itself (Frame.Follow).
func (h *Handler) List(w http.ResponseWriter, r *http.Request) {
	p, ok := h.ListView(w, r)
	if !ok {
		return
	}
	// Only this page's own address is followed: a refusal answers a POST.
	p.Follow = p.Building
	q := r.URL.Query()
	for _, row := range p.Releases {
		switch row.ID {
		case q.Get("live"):
			if row.Live {
				p.Notice = "“" + row.Title + "” is live."
			}
			if row.Live && q.Get("content") == "back" {
				p.Notice += " The content is back to this version too, as a new change in the history."
			}
		case q.Get("queued"):
			p.Notice = "Main was queued to build: “" + row.Title + "”."
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
		h.kit.Fail(w, r, http.StatusInternalServerError, "Releases", "The releases cannot be read just now. Try again in a minute; if it stays so, the server's log says why.", "")
		return nil, false
	}
	live := h.opts.Releases.Live()
	trouble, held := h.opts.Releases.Problem()
	p := &ListView{Frame: page.Frame{Title: "Releases", Section: "releases"}, CanBuild: h.opts.Releases.CanBuild(),
		NoBuilder: NoBuilder, Trouble: trouble}
	shown := false // a newer release is ready, or failed with its problems shown
	for _, rel := range list {
		row := Row{Release: rel, Title: rel.Subject(), Short: rel.Commit.Hash[:min(7, len(rel.Commit.Hash))], Live: rel.ID == live && !held}
		switch {
		case rel.ID == live && held:
			row.Label = "Not shown: visitors get “Back in a minute” until main is built"
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
			row.Size = bytesText(rel.Size)
		}
		p.Releases = append(p.Releases, row)
	}
	// Each button is named by its release, and two builds of one commit
	// (Publish now again, a new bin/studio) by their release ids too.
	names := map[string]int{}
	for i, row := range p.Releases {
		p.Releases[i].MakeLive = "Make live: " + row.Title
		if row.Short != "" {
			p.Releases[i].MakeLive += ", commit " + row.Short
		}
		if row.CanMakeLive {
			names[p.Releases[i].MakeLive]++
		}
	}
	for i, row := range p.Releases {
		if names[row.MakeLive] > 1 {
			p.Releases[i].MakeLive += ", release " + row.ID
		}
	}
	return p, true
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

// makeLiveView asks before an earlier release is made live.
type makeLiveView struct {
	page.Frame
	Release     published.Release
	Unpublished []repo.Commit // they stay unpublished, on top of the older version
}

// MakeLive is GET /studio/releases/{id}/make-live, and the POST without
// confirm=yes: what making the release live does, asked before it is
// done. The POST with confirm=yes switches to the ready release at once,
// makes its content main's again (Releases.Rollback), and goes back to the
// releases page, which says so. A release that cannot be made live is
// refused with 404, 409 or 422, changing nothing.
func (h *Handler) MakeLive(w http.ResponseWriter, r *http.Request) {
	rel, ok := h.releaseToMakeLive(w, r)
	if !ok {
		return
	}
	back := url.Values{"live": {rel.ID}}
	switch {
	case rel.ID == h.opts.Releases.Live():
		// Live already (a second click): back to the page, nothing done.
	case r.Method != http.MethodPost || r.FormValue("confirm") != "yes":
		p := &makeLiveView{Frame: page.Frame{Title: "Make “" + rel.Subject() + "” live?", Section: "releases"}, Release: *rel}
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
		return
	default:
		commit, err := h.opts.Releases.Rollback(rel.ID, Signature(r))
		switch {
		case err != nil && h.opts.Releases.Live() == rel.ID:
			h.kit.Log.Error("studio: make live: the content was not set back", "release", rel.ID, "err", err)
			h.refuseRelease(w, r, http.StatusInternalServerError, "“"+rel.Subject()+"” is live, but the content could not be set back to it ("+err.Error()+"): the Content page may still have the newer version, and the next publish would bring it back. The server’s log says why; once that is put right, “studio rollback "+rel.ID+"” on the server sets the content back.")
			return
		case err != nil:
			h.kit.Log.Warn("studio: make live refused", "release", rel.ID, "err", err)
			h.refuseRelease(w, r, http.StatusUnprocessableEntity, "“"+rel.Subject()+"” could not be made live ("+err.Error()+"). Nothing was changed: the live release still serves the site.")
			return
		}
		h.kit.Log.Info("studio: release made live", "release", rel.ID, "account", page.Actor(r), "commit", commit)
		if commit != "" {
			back.Set("content", "back")
		}
	}
	http.Redirect(w, r, "/studio/releases?"+back.Encode(), http.StatusSeeOther)
}

// releaseToMakeLive is the release of the path's id when it can be made
// live; otherwise it answers with the releases page saying why, and ok
// false.
func (h *Handler) releaseToMakeLive(w http.ResponseWriter, r *http.Request) (*published.Release, bool) {
	id := r.PathValue("id")
	list, err := h.opts.Releases.List()
	if err != nil {
		h.kit.Log.Error("studio: read releases", "err", err)
		h.kit.Fail(w, r, http.StatusInternalServerError, "Not done", "Nothing was changed: the releases cannot be read just now. Try again in a minute.", "/studio/releases")
		return nil, false
	}
	var rel *published.Release
	for i := range list {
		if list[i].ID == id {
			rel = &list[i]
		}
	}
	switch {
	case rel == nil:
		if p, err := h.opts.Releases.Release(id); err == nil && p.Preview {
			h.refuseRelease(w, r, http.StatusConflict, "Release “"+id+"” is a preview of unpublished changes: a preview is never made live. Publish the changes on the Content page instead. Nothing was changed.")
		} else {
			h.refuseRelease(w, r, http.StatusNotFound, "There is no release “"+id+"”: only the newest are kept. Nothing was changed.")
		}
	case rel.ID == h.opts.Releases.Live() || rel.Status == published.Ready:
		return rel, true
	case rel.Status == published.Failed:
		h.refuseRelease(w, r, http.StatusConflict, "“"+rel.Subject()+"” failed to build, so it cannot be made live: fix the problems listed with it and commit again. Nothing was changed.")
	default:
		h.refuseRelease(w, r, http.StatusConflict, "“"+rel.Subject()+"” is still being built: it can be made live once it is ready. Nothing was changed.")
	}
	return nil, false
}

// Publish is POST /studio/releases/publish: a build of main now.
func (h *Handler) Publish(w http.ResponseWriter, r *http.Request) {
	if !h.opts.Releases.CanBuild() {
		h.refuseRelease(w, r, http.StatusConflict, "Nothing was published. "+NoBuilder)
		return
	}
	id, err := h.opts.Releases.Publish()
	if err != nil {
		h.kit.Log.Error("studio: publish", "err", err)
		h.refuseRelease(w, r, http.StatusInternalServerError, "Main could not be queued to build ("+err.Error()+"). The live release still serves the site.")
		return
	}
	h.kit.Log.Info("studio: publish", "release", id, "account", page.Actor(r))
	http.Redirect(w, r, "/studio/releases?"+url.Values{"queued": {id}}.Encode(), http.StatusSeeOther)
}

// seconds says a build's duration: "34 s", "2 min 5 s".
func seconds(s float64) string {
	n := int(s + 0.5)
	if n < 60 {
		return fmt.Sprintf("%d s", max(n, 1))
	}
	return fmt.Sprintf("%d min %d s", n/60, n%60)
}

// bytesText says a size in the units a person reads: "740 kB", "12.3 MB".
func bytesText(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.0f kB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}
