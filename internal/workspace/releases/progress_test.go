package releases

import (
	"testing"
	"time"

	published "studio/internal/publish/releases"
)

// Each state of a publish in the studio's words; a queued one waits for
// another publish only when another is really under way before it.
func TestAPublishsProgressIsSaidInTheStudiosWords(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	queued := published.Release{ID: "r3", Status: published.Queued, QueuedAt: t0}
	older := func(s published.Status) published.Release {
		return published.Release{ID: "r2", Status: s, QueuedAt: t0.Add(-time.Minute)}
	}
	newer := published.Release{ID: "r4", Status: published.Queued, QueuedAt: t0.Add(time.Minute)}
	building := func(stage string) published.Release {
		return published.Release{ID: "r3", Status: published.Building, Stage: stage}
	}
	sameTree := func(id, code string) published.Release {
		r := published.Release{ID: id, Status: published.Ready, CodeVersion: code}
		r.Tree = "tree-a"
		return r
	}
	cases := []struct {
		name string
		rel  published.Release
		list []published.Release
		want Progress
	}{
		{"queued, nothing else under way", queued, []published.Release{queued, older(published.Ready)}, Progress{Words: "Checking", UnderWay: true}},
		{"queued behind a build", queued, []published.Release{queued, older(published.Building)}, Progress{Words: "Waiting for another publish to finish", UnderWay: true}},
		{"queued behind an older queued one", queued, []published.Release{queued, older(published.Queued)}, Progress{Words: "Waiting for another publish to finish", UnderWay: true}},
		{"queued before a newer queued one", queued, []published.Release{newer, queued}, Progress{Words: "Checking", UnderWay: true}},
		{"reading its content", building("reading the commit"), nil, Progress{Words: "Checking", UnderWay: true}},
		{"checking the content", building("checking the content"), nil, Progress{Words: "Checking", UnderWay: true}},
		{"making the images", building("making the images"), nil, Progress{Words: "Making the pictures", UnderWay: true}},
		{"making the images, counted", building("making the images: 3 of 5"), nil, Progress{Words: "Making the pictures 3 of 5", UnderWay: true}},
		{"prerendering", building("prerendering the pages"), nil, Progress{Words: "Making the pages", UnderWay: true}},
		{"a step of the pages not named", building("running sitemap"), nil, Progress{Words: "Making the pages", UnderWay: true}},
		{"checking the release", building("checking the release"), nil, Progress{Words: "Checking the new version", UnderWay: true}},
		{"live", published.Release{ID: "r3", Status: published.Ready}, nil, Progress{Words: "Live", Live: true}},
		{"ready, not live", published.Release{ID: "r9", Status: published.Ready}, nil, Progress{Words: "Ready to go live", Ready: true}},
		{"ready, its content live in another build", sameTree("r9", "code1"), []published.Release{sameTree("r9", "code1"), sameTree("r3", "code1")}, Progress{Words: "Live", Live: true}},
		{"ready, its content live by other code", sameTree("r9", "code2"), []published.Release{sameTree("r9", "code2"), sameTree("r3", "code1")}, Progress{Words: "Ready to go live", Ready: true}},
		{"failed", published.Release{ID: "r3", Status: published.Failed}, nil, Progress{Words: "Stopped", Failed: true}},
	}
	for _, c := range cases {
		if got := ProgressOf(c.rel, c.list, "r3"); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
