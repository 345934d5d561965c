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
	return map[page.Name][]page.View{
		releasesPage: {&ListView{}, &ListView{Frame: page.Frame{Title: "Releases", Section: "releases", ShowReleases: true, Notice: "“New tagline” is live."},
			NoBuilder: NoBuilder, Building: true, Releases: []Row{
				{Release: published.Release{ID: "20260302-083000-bbbbbbb", Commit: repo.Commit{Hash: "bbbbbbb3333", Message: "New tagline", Author: "Asha", When: at}, Status: published.Failed,
					Problems: []string{"site.json: tagline: empty"}}, Title: "New tagline", Short: "bbbbbbb", Label: "Failed", Class: "failed", Took: "12 s", Size: "12.3 MB", Open: true},
				{Release: published.Release{ID: publish.EmbeddedID, Status: published.Ready}, Title: "The site as built into bin/studio", Label: "Ready", CanMakeLive: true}}}},
		makeLivePage: {&makeLiveView{}, &makeLiveView{Frame: page.Frame{Title: "Make “Old tagline” live?", Section: "releases"},
			Release:     published.Release{ID: "20260302-082000-ccccccc", Commit: repo.Commit{Hash: "ccccccc4444", Message: "Old tagline", Author: "Meera", When: at}, Status: published.Ready},
			Unpublished: []repo.Commit{{Hash: "ddd", Message: "Studio details: Tagline", Author: "asha", When: at}}}},
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
