package releases

import (
	"log/slog"
	"testing"
	"time"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/page"
)

// pageFixtures is a view model for each page of the releases: the zero
// one, and one with something in every list and field.
func pageFixtures() map[page.Name][]page.View {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	failed := Row{Release: published.Release{ID: "20260302-083000-bbbbbbb", Commit: repo.Commit{Hash: "bbbbbbb3333", Tree: "t2", Message: "New tagline", Author: "Asha", When: at}, Status: published.Failed,
		Problems: []string{"content/site.json: tagline: empty", "the build ran out of time"}}, Title: "New tagline", Short: "bbbbbbb", Label: "Failed", Class: "failed", Took: "12 s", Size: "12.3 MB", Open: true,
		Name: "2 Mar 2026, 08:30", When: at, By: "Asha", Changes: []string{"Studio details: tagline"},
		Fixes: []Fix{{Text: "Studio details › Tagline: empty", Href: "/studio/content/studio#f-tagline"}, {Text: "the build ran out of time"}}}
	ready := Row{Release: published.Release{ID: "20260302-082000-ccccccc", Commit: repo.Commit{Hash: "ccccccc4444", Tree: "t1", Message: "Old tagline", Author: "Meera", When: at}, Status: published.Ready},
		Title: "Old tagline", Label: "Ready", CanMakeLive: true, Name: "2 Mar 2026, 08:20", When: at, By: "Meera and Asha",
		Changes: []string{"Home page: intention text", "Kikar: description, new photograph", "FAQ: 2 answers changed"}, GoBack: "Go back to the version of 2 Mar 2026, 08:20", GoBackButton: "Go back to this version: 2 Mar 2026, 08:20"}
	live := Row{Release: published.Release{ID: "20260302-081000-ddddddd", Commit: repo.Commit{Hash: "ddddddd5555", Tree: "t0"}, Status: published.Building, Stage: "making the pictures"},
		Label: "Live", Class: "live", Live: true, Name: "2 Mar 2026, 08:10"}
	embedded := Row{Release: published.Release{ID: publish.EmbeddedID, Status: published.Ready}, Title: Installed, Name: Installed, Label: "Ready", CanMakeLive: true, GoBack: "Go back to the site as it was installed", GoBackButton: "Go back to this version: the site as it was installed"}
	return map[page.Name][]page.View{
		releasesPage: {&ListView{}, &ListView{Frame: page.Frame{Title: Title, Section: "releases", ShowReleases: true, Owner: true, Notice: "The version of 2 Mar 2026, 08:20 is live now."},
			Building: true, CanBuild: true, Releases: []Row{failed, live, ready, embedded}}},
		makeLivePage: {&goBackView{}, &goBackView{Frame: page.Frame{Title: ready.GoBack + "?", Section: "releases"}, Version: ready, Undone: []Row{failed, live},
			Unpublished: []repo.Commit{{Hash: "ddd", Message: "Studio details: Tagline", Author: "asha", When: at}}},
			&goBackView{Frame: page.Frame{Title: ready.GoBack + "?", Section: "releases"}, Version: ready, BringsBack: []string{"Kikar: new piece"}}},
	}
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
