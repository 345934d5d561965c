package publish

import (
	"slices"
	"testing"

	"studio/internal/publish/releases"
)

// releaseOf is the release of a tree, when there is one.
func (s *site) releaseOf(tree string) (releases.Release, bool) {
	list, err := s.releases.List()
	if err != nil {
		s.t.Fatal(err)
	}
	for _, r := range list {
		if r.Tree == tree {
			return r, true
		}
	}
	return releases.Release{}, false
}

// waitForRelease waits until the release of tree has status, and gives it.
func (s *site) waitForRelease(what, tree string, status releases.Status) releases.Release {
	s.t.Helper()
	waitFor(s.t, what, func() bool { r, ok := s.releaseOf(tree); return ok && r.Status == status })
	r, _ := s.releaseOf(tree)
	return r
}

func (b *fakeBuilder) built() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.builds)
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestTheDraftIsBuiltAheadAndGoesLiveWhenPublished(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	draft := s.draftTagline("ahead")
	r := s.waitForRelease("the draft built ahead", draft.Tree, releases.Ready)
	if !r.Preview {
		t.Errorf("the draft's release is not marked as the draft's: %+v", r)
	}
	if id, _ := target.serving(); id != EmbeddedID {
		t.Errorf("the draft's release went live (%s) before it was published", id)
	}
	list, _ := p.List()
	for _, l := range list {
		if l.ID == r.ID {
			t.Errorf("the draft's release is listed as a version of the site before it was published")
		}
	}
	if err := p.MakeLive(r.ID); err == nil {
		t.Errorf("the draft's release was made live without being published")
	}

	commit, err := s.repo.PublishDraft(owner)
	if err != nil {
		t.Fatal(err)
	}
	id, err := p.Publish()
	if err != nil {
		t.Fatal(err)
	}
	if id != r.ID {
		t.Errorf("Publish gave release %s, want the draft's %s, built already", id, r.ID)
	}
	// Live within Publish: no build to wait for.
	if !servingTagline(target, "ahead")() {
		t.Errorf("Publish returned, and the site does not serve the published draft")
	}
	got, _ := s.releases.Get(r.ID)
	if got.Preview || got.Hash != commit {
		t.Errorf("the release after Publish: preview %v, commit %s; want main's, %s", got.Preview, got.Hash, commit)
	}
	if n := count(s.builder.built(), "ahead"); n != 1 {
		t.Errorf("the draft's files were built %d times, want once", n)
	}
}

func TestAPublishWhileTheDraftBuildsWaitsForThatBuild(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.builder.hold()
	draft := s.draftTagline("under way")
	r := s.waitForRelease("the draft's build under way", draft.Tree, releases.Building)

	commit, err := s.repo.PublishDraft(owner)
	if err != nil {
		t.Fatal(err)
	}
	id, err := p.Publish()
	if err != nil || id != r.ID {
		t.Fatalf("Publish gave %q, %v; want the draft's build under way, %s", id, err, r.ID)
	}
	listed := false
	list, _ := p.List()
	for _, l := range list {
		listed = listed || (l.ID == r.ID && l.Hash == commit)
	}
	if !listed {
		t.Errorf("the draft's build under way is not listed as main's release once published")
	}
	s.builder.let()
	waitFor(t, "the published draft live", servingTagline(target, "under way"))
	if n := count(s.builder.built(), "under way"); n != 1 {
		t.Errorf("the draft's files were built %d times, want once", n)
	}
}

func TestANewerDraftReplacesTheOlderDraftsRelease(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	_, target := s.start("v1")
	older := s.draftTagline("older")
	s.waitForRelease("the older draft built", older.Tree, releases.Ready)
	newer := s.draftTagline("newer")
	s.waitForRelease("the newer draft built", newer.Tree, releases.Ready)
	if _, ok := s.releaseOf(older.Tree); ok {
		t.Errorf("the older draft's release is kept after the draft moved on")
	}
	// A push to main meanwhile is built and goes live; the draft's stays hidden.
	s.commitTagline("pushed")
	waitFor(t, "the push live", servingTagline(target, "pushed"))
	if r, ok := s.releaseOf(newer.Tree); !ok || !r.Preview {
		t.Errorf("the draft's release after a push: %+v, %v; want it kept as the draft's", r, ok)
	}
}

func TestADraftTheCheckRefusesIsNotBuiltAgainAndPublishSaysWhy(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	draft := s.draftTagline("broken ahead")
	s.waitForRelease("the draft's build failed", draft.Tree, releases.Failed)
	if _, err := s.repo.PublishDraft(owner); err != nil {
		t.Fatal(err)
	}
	id, err := p.Publish()
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "main's build failed", func() bool { r, err := s.releases.Get(id); return err == nil && r.Status == releases.Failed })
	r, _ := s.releases.Get(id)
	if r.Preview || len(r.Problems) == 0 {
		t.Errorf("main's failed release: preview %v, problems %q; want main's, saying why", r.Preview, r.Problems)
	}
	if id, _ := target.serving(); id != EmbeddedID {
		t.Errorf("a failed build went live: %s", id)
	}
}

// Publish while main's files are being built already (the watch took the
// draft's release first, or saw the push) adds no second build of them.
func TestAPublishWhileMainsFilesAreBuildingAddsNoBuild(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.builder.hold()
	s.commitTagline("pushed")
	main, _ := s.repo.Main()
	r := s.waitForRelease("main's build under way", main.Tree, releases.Building)
	id, err := p.Publish()
	if err != nil || id != r.ID {
		t.Errorf("Publish gave %q, %v; want the build under way, %s", id, err, r.ID)
	}
	s.builder.let()
	waitFor(t, "the push live", servingTagline(target, "pushed"))
	if n := count(s.builder.built(), "pushed"); n != 1 {
		t.Errorf("main's files were built %d times, want once", n)
	}
}

// The watch may see the draft put on main, and make its release built
// ahead live, before the Content page's Publish asks: PublishNew then
// gives that release and builds nothing again. Publish, asked to build
// main again, still does.
func TestAPublishOfTheDraftTheWatchMadeLiveBuildsNothingAgain(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	draft := s.draftTagline("taken")
	r := s.waitForRelease("the draft built ahead", draft.Tree, releases.Ready)
	if _, err := s.repo.PublishDraft(owner); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watch to make the draft's release live", servingTagline(target, "taken"))
	id, err := p.PublishNew()
	if err != nil || id != r.ID {
		t.Fatalf("PublishNew gave %q, %v; want the live release, %s", id, err, r.ID)
	}
	if n := count(s.builder.built(), "taken"); n != 1 {
		t.Errorf("the draft's files were built %d times, want once", n)
	}
	again, err := p.Publish()
	if err != nil || again == r.ID {
		t.Fatalf("Publish (build again) gave %q, %v; want a new build", again, err)
	}
	waitFor(t, "main built again", func() bool { return count(s.builder.built(), "taken") == 2 })
}
