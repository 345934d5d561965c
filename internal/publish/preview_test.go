package publish

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// draftTagline saves a site.json whose tagline is tagline on the draft and
// returns the draft's commit.
func (s *site) draftTagline(tagline string) repo.Commit {
	s.t.Helper()
	base, _, err := s.repo.Draft()
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.repo.SaveDraft(base.Hash, map[string][]byte{"site.json": s.siteJSON(tagline)}, nil, owner, "Draft tagline: "+tagline); err != nil {
		s.t.Fatal(err)
	}
	c, _, err := s.repo.Draft()
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// preview asks p for a preview of c.
func preview(t *testing.T, p *Publisher, c repo.Commit) string {
	t.Helper()
	id, err := p.Preview(c)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// waitReady waits for release id to be ready and returns it.
func waitReady(t *testing.T, p *Publisher, id string) releases.Release {
	t.Helper()
	var r releases.Release
	waitFor(t, "release "+id+" ready", func() bool {
		var err error
		r, err = p.Release(id)
		return err == nil && r.Status == releases.Ready
	})
	return r
}

func (b *fakeBuilder) built() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.builds, ",")
}

func TestAPreviewIsBuiltButNeverMadeLive(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	id := preview(t, p, s.draftTagline("draft"))
	r := waitReady(t, p, id)
	if !r.Preview || r.Message != "Draft tagline: draft" {
		t.Errorf("the preview's record: %+v, want a preview of the draft's commit", r)
	}
	if b, _ := os.ReadFile(filepath.Join(s.releases.Dir(id), "client", "tagline.txt")); string(b) != "draft" {
		t.Errorf("the preview's client says %q, want the draft's tagline", b)
	}
	// The worker builds one at a time: once main's next commit is live,
	// the preview's build has ended, without a switch.
	s.commitTagline("published")
	waitFor(t, "main's commit live", servingTagline(target, "published"))
	target.mu.Lock()
	switched := slices.Clone(target.switched)
	target.mu.Unlock()
	if slices.Contains(switched, id) {
		t.Errorf("the preview was switched to: %v", switched)
	}
	list, _ := p.List()
	for _, r := range list {
		if r.ID == id {
			t.Error("the list of releases (the releases.Releases page's) shows the preview")
		}
	}
	if err := p.MakeLive(id); err == nil {
		t.Error("a preview was made live")
	}
	// `studio rollback` refuses a preview; the live file naming one by
	// other means does not switch to it either.
	if err := s.releases.SetLive(id); err != nil {
		t.Fatal(err)
	}
	// The watch's look at the live file refuses it, and says so.
	waitFor(t, "the live file's preview refused", func() bool {
		problem, _ := target.reported()
		return strings.Contains(problem, "release "+id+" cannot be served") && strings.Contains(problem, "named by the live file")
	})
	if live, _ := target.serving(); live == id || p.Live() == id {
		t.Error("the server followed a live file naming a preview")
	}
}

func TestMainAndPreviewsQueuedTogetherAreAllBuilt(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.builder.hold()
	s.commitTagline("one")
	waitFor(t, "one building", func() bool {
		list, _ := s.releases.List()
		return len(list) == 1 && list[0].Status == releases.Building
	})
	first := preview(t, p, s.draftTagline("draft a"))
	s.commitTagline("two")
	queued := func(message string) func() bool {
		return func() bool {
			list, _ := s.releases.List()
			for _, r := range list {
				if r.Message == message && r.Status == releases.Queued {
					return true
				}
			}
			return false
		}
	}
	waitFor(t, "two queued beside the preview", queued("Tagline: two"))
	if r, err := p.Release(first); err != nil || r.Status != releases.Queued {
		t.Fatalf("a build of main queued after a preview dropped it: %+v, %v", r, err)
	}
	second := preview(t, p, s.draftTagline("draft b"))
	s.commitTagline("three")
	waitFor(t, "three queued in place of two", queued("Tagline: three"))
	s.builder.let()
	waitFor(t, "three live", servingTagline(target, "three"))
	waitReady(t, p, second)
	if _, err := p.Release(first); err == nil {
		t.Error("the preview a newer one replaced in the queue is still there")
	}
	if got := s.builder.built(); got != "one,three,draft b" {
		t.Errorf("built %s, want one,three,draft b: each kind replaced in the queue by its own kind only, main first", got)
	}
}

func TestTheSameFilesGiveTheSamePreview(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, _ := s.start("v1")
	s.builder.hold()
	draft := s.draftTagline("same")
	id := preview(t, p, draft)
	waitFor(t, "the preview building", func() bool { r, _ := p.Release(id); return r.Status == releases.Building })
	if again := preview(t, p, draft); again != id {
		t.Errorf("asked again while it builds: %s, want %s", again, id)
	}
	s.builder.let()
	waitReady(t, p, id)
	s.draftTagline("other")
	back := s.draftTagline("same") // another commit, the same files
	if again := preview(t, p, back); again != id {
		t.Errorf("a commit of the same files: %s, want the ready preview %s", again, id)
	}
	if got := s.builder.built(); got != "same" {
		t.Errorf("built %s, want the one preview", got)
	}
}

func TestOnlyTheNewestTwoPreviewsAreKept(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.keep = 2
	p, target := s.start("v1")
	for _, tagline := range []string{"a", "b"} {
		s.commitTagline(tagline)
		waitFor(t, tagline+" live", servingTagline(target, tagline))
	}
	var previews []string
	for _, tagline := range []string{"p1", "p2", "p3"} {
		id := preview(t, p, s.draftTagline(tagline))
		waitReady(t, p, id)
		previews = append(previews, id)
	}
	// Its record (release.json) may be gone before the rest of its directory.
	waitFor(t, "the oldest preview deleted, its directory too", func() bool {
		list, _ := s.releases.List()
		var got []string
		for _, r := range list {
			got = append(got, strings.TrimPrefix(strings.TrimPrefix(r.Message, "Tagline: "), "Draft tagline: "))
		}
		_, err := os.Stat(s.releases.Dir(previews[0]))
		return strings.Join(got, ",") == "p3,p2,b,a" && os.IsNotExist(err)
	})
}

func TestPublishingAPreviewedDraftBuildsMain(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	id := preview(t, p, s.draftTagline("previewed"))
	waitReady(t, p, id)
	if _, err := s.repo.PublishDraft(owner); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the draft live", servingTagline(target, "previewed"))
	if live := p.Live(); live == id {
		t.Error("the preview itself was made live")
	}
}
