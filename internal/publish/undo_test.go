package publish

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"studio/content"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

var owner = repo.Signature{Name: "Owner", Email: "owner@example.com"}

// readOn is the file name of commit hash.
func readOn(t *testing.T, r *repo.Repository, hash, name string) string {
	t.Helper()
	b, err := r.ReadFile(hash, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var meena = repo.Signature{Name: "Meena", Email: "meena@example.com"}

// siteLocation is the time zone content/site.json names.
func siteLocation(t *testing.T) *time.Location {
	t.Helper()
	var site struct{ TimeZone string }
	b, err := fs.ReadFile(content.Files, "site.json")
	if err == nil {
		err = json.Unmarshal(b, &site)
	}
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation(site.TimeZone)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// twoReleases starts a publisher with the releases of "first" and
// "second" built, second live, and returns first's.
func (s *site) twoReleases() (*Publisher, *fakeTarget, releases.Release) {
	s.t.Helper()
	p, target := s.start("v1")
	s.commitTagline("first")
	waitFor(s.t, "first live", servingTagline(target, "first"))
	first, err := s.releases.Get(p.Live())
	if err != nil {
		s.t.Fatal(err)
	}
	s.commitTagline("second")
	waitFor(s.t, "second live", servingTagline(target, "second"))
	return p, target, first
}

func TestARollbackMakesTheOlderContentMainsAgain(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target, first := s.twoReleases()
	before, _ := s.repo.Main()

	hash, err := p.Rollback(first.ID, meena)
	if err != nil {
		t.Fatal(err)
	}
	if id, tagline := target.serving(); id != first.ID || tagline != "first" {
		t.Errorf("after the rollback serving %s (%q), want %s (first)", id, tagline, first.ID)
	}
	main, _ := s.repo.Main()
	want := "Back to the version of " + first.When.In(siteLocation(t)).Format("2 Jan 15:04") + " (Owner)"
	if hash == "" || main.Hash != hash || main.Tree != first.Tree || main.Message != want || main.Author != "Meena" {
		t.Errorf("main after the rollback: %+v (returned %q), want a commit of the files %s, %q, by Meena", main, hash, first.Tree, want)
	}
	if log, _ := s.repo.Log(main.Hash, 2); len(log) != 2 || log[1].Hash != before.Hash {
		t.Errorf("the way back's parent is %v, want main before it (%s): the history keeps everything", log, before.Hash)
	}
	if list, _ := s.repo.Unpublished(); len(list) != 0 {
		t.Errorf("unpublished after the rollback: %v, want none", list)
	}

	// The next publish, of something else, starts from what is live.
	if _, err := s.repo.Commit("", map[string][]byte{"pages/notes.md": []byte("# Notes\n")}, nil, owner, "Notes"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the next commit live", func() bool { id, _ := target.serving(); return id != first.ID })
	if _, tagline := target.serving(); tagline != "first" {
		t.Errorf("after the next publish the site says %q, want first: the undone change came back", tagline)
	}
	s.builder.mu.Lock()
	defer s.builder.mu.Unlock()
	if got := strings.Join(s.builder.builds, ","); got != "first,second,first" {
		t.Errorf("built %s, want first,second,first: the way back is the live release's files, built already", got)
	}
}

func TestUnpublishedChangesStayOnTopOfTheOlderVersion(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target, first := s.twoReleases()
	main, _ := s.repo.Main()
	draft, err := s.repo.SaveDraft(main.Hash, map[string][]byte{"pages/notes.md": []byte("# Notes\n")}, nil, meena, "Notes: a new page")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.repo.SaveDraft(draft, map[string][]byte{"pages/notes.md": []byte("# Notes\n\nMore.\n")}, nil, owner, "Notes: more"); err != nil {
		t.Fatal(err)
	}

	back, err := p.Rollback(first.ID, meena)
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.repo.Unpublished()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range list {
		got = append(got, c.Author+": "+c.Message)
	}
	if want := []string{"Owner: Notes: more", "Meena: Notes: a new page"}; !slices.Equal(got, want) {
		t.Errorf("unpublished after the rollback: %q, want %q", got, want)
	}
	head, isDraft, _ := s.repo.Draft()
	if !isDraft || readTagline(mapFS(t, s.repo, head.Hash)) != "first" || readOn(t, s.repo, head.Hash, "pages/notes.md") != "# Notes\n\nMore.\n" {
		t.Errorf("the draft after the rollback is not the older version with its own changes on top")
	}
	if log, _ := s.repo.Log(head.Hash, 3); len(log) != 3 || log[2].Hash != back {
		t.Errorf("the draft's commits are not on top of the way back %s: %v", back, log)
	}

	if _, err := s.repo.PublishDraft(owner); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the draft published and live", func() bool { id, _ := target.serving(); return id != first.ID })
	if _, tagline := target.serving(); tagline != "first" {
		t.Errorf("publishing the draft made the site say %q, want first: the undone change came back", tagline)
	}
}

// mapFS is the site.json of commit hash, for readTagline.
func mapFS(t *testing.T, r *repo.Repository, hash string) fs.FS {
	t.Helper()
	b, err := r.ReadFile(hash, "site.json")
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{"site.json": {Data: b}}
}

func TestARollbackToTheSameFilesMakesNoCommit(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target, first := s.twoReleases()
	second := p.Live()
	main, _ := s.repo.Main()
	if hash, err := p.Rollback(second, meena); err != nil || hash != "" {
		t.Errorf("a rollback to the live release made commit %q (%v), want none", hash, err)
	}
	// The first release's files committed again (a revert with git): its
	// release serves, and a rollback to it has nothing to commit.
	s.commitTagline("first")
	waitFor(t, "the first release back", servingTagline(target, "first"))
	main, _ = s.repo.Main()
	if hash, err := p.Rollback(first.ID, meena); err != nil || hash != "" {
		t.Errorf("a rollback to the files main has made commit %q (%v), want none", hash, err)
	}
	if now, _ := s.repo.Main(); now.Hash != main.Hash {
		t.Errorf("main moved to %s (%s)", now.Hash, now.Message)
	}
}

func TestARollbackToTheEmbeddedBuildCommitsItsContent(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target, _ := s.twoReleases()
	if _, err := p.Rollback(EmbeddedID, meena); err != nil {
		t.Fatal(err)
	}
	if id, _ := target.serving(); id != EmbeddedID {
		t.Errorf("serving %s, want the embedded build", id)
	}
	tree, _ := repo.TreeHash(content.Files)
	if main, _ := s.repo.Main(); main.Tree != tree || main.Message != "Back to the content as shipped in bin/studio" {
		t.Errorf("main after a rollback to the embedded build: %+v, want the embedded content's files %s", main, tree)
	}
}

func TestStudioRollbackIsDoneByTheRunningServer(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	_, target, first := s.twoReleases()
	before, _ := s.repo.Main()

	if err := s.releases.RequestRollback("no-such-release"); err != nil {
		t.Fatal(err)
	}
	refused := waitForAnswer(t, s.releases)
	if refused.Error == "" || refused.Commit != "" {
		t.Errorf("the answer to a rollback to no release: %+v, want an error", refused)
	}
	if main, _ := s.repo.Main(); main.Hash != before.Hash {
		t.Errorf("a refused rollback moved main to %s", main.Message)
	}

	if err := s.releases.RequestRollback(first.ID); err != nil {
		t.Fatal(err)
	}
	a := waitForAnswer(t, s.releases)
	main, _ := s.repo.Main()
	if a.Error != "" || a.Commit != main.Hash || main.Tree != first.Tree || main.Author != "studio" || a.Message != main.Message ||
		!strings.HasPrefix(a.Message, "Back to the version of ") {
		t.Errorf("the answer %+v, main %+v: want the way back to %s, by studio", a, main, first.ID)
	}
	if id, _ := target.serving(); id != first.ID {
		t.Errorf("serving %s, want %s", id, first.ID)
	}
}

func waitForAnswer(t *testing.T, rs *releases.Releases) releases.RollbackAnswer {
	t.Helper()
	var a releases.RollbackAnswer
	waitFor(t, "the server's answer to studio rollback", func() bool {
		got, ok, err := rs.TakeRollbackAnswer()
		if err != nil {
			t.Fatal(err)
		}
		a = got
		return ok
	})
	return a
}

// With copies on PostgreSQL, a rollback on one switches every copy, and its
// commit is main on every copy: the copy that builds builds nothing for it.
func TestARollbackOnOneCopyMovesEveryCopysMain(t *testing.T) {
	t.Parallel()
	copies, _ := startCopies(t, 2)
	b := builder(t, copies)
	other := copies[0]
	if other == b {
		other = copies[1]
	}
	other.site.commitTagline("first")
	allServe(t, copies, "first")
	first, err := other.publisher.Release(other.publisher.Live())
	if err != nil {
		t.Fatal(err)
	}
	other.site.commitTagline("second")
	allServe(t, copies, "second")

	hash, err := other.publisher.Rollback(first.ID, meena)
	if err != nil || hash == "" {
		t.Fatalf("Rollback: %q, %v", hash, err)
	}
	allServe(t, copies, "first")
	waitFor(t, "the way back to be main on the copy that builds", func() bool { m, _ := b.site.repo.Main(); return m.Hash == hash })
	if m, _ := b.site.repo.Main(); m.Tree != first.Tree || m.Author != "Meena" {
		t.Errorf("main on the copy that builds: %+v, want the files of %s by Meena", m, first.ID)
	}

	// The next commit, of something else, keeps the undone text undone.
	if _, err := other.site.repo.Commit("", map[string][]byte{"pages/notes.md": []byte("# Notes\n")}, nil, owner, "Notes"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the next commit live on both", func() bool {
		for _, c := range copies {
			if id, _ := c.target.serving(); id == first.ID {
				return false
			}
		}
		return true
	})
	allServe(t, copies, "first")
	b.site.builder.mu.Lock()
	defer b.site.builder.mu.Unlock()
	if got := strings.Join(b.site.builder.builds, ","); got != "first,second,first" {
		t.Errorf("built %s, want first,second,first: the way back is the live release's files, built already", got)
	}
}
