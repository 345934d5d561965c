package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// The fake builder's previews: Render answers each path with the
// snapshot's tagline and the manifest Describe wrote; Check refuses a
// tagline that starts "broken", and fails (as a crashed renderer) while
// the test says.

func (b *fakeBuilder) Check(ctx context.Context, contentDir string) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.checked = append(b.checked, contentDir)
	if b.checkFails > 0 {
		b.checkFails--
		return nil, &build.RenderError{Kind: "crashed", Message: "the renderer stopped"}
	}
	if tagline := readTagline(os.DirFS(contentDir)); strings.HasPrefix(tagline, "broken") {
		return []string{"content/site.json: tagline: " + tagline}, nil
	}
	return nil, nil
}

func (b *fakeBuilder) Describe(ctx context.Context, s build.Snapshot) error {
	b.mu.Lock()
	b.described++
	b.mu.Unlock()
	return os.WriteFile(filepath.Join(s.GeneratedDir, "images.json"), []byte(`{"described":"`+readTagline(os.DirFS(s.ContentDir))+`"}`), 0o644)
}

func (b *fakeBuilder) Render(ctx context.Context, s build.Snapshot, paths []string) ([]build.Page, error) {
	manifest, err := os.ReadFile(filepath.Join(s.GeneratedDir, "images.json"))
	if err != nil {
		return nil, err
	}
	var pages []build.Page
	for _, p := range paths {
		pages = append(pages, build.Page{Path: p, Status: 200, Type: "text/html; charset=utf-8",
			Body: []byte(p + " says " + readTagline(os.DirFS(s.ContentDir)) + " with " + string(manifest))})
	}
	return pages, nil
}

func (b *fakeBuilder) Image(ctx context.Context, contentDir, name string) (string, error) {
	return filepath.Join(contentDir, name), nil
}

func (b *fakeBuilder) Asset(name string) (string, error) { return "", os.ErrNotExist }

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

// previewing starts a publisher whose repository writes snapshots.
func (s *site) previewing() *Publisher {
	s.t.Helper()
	s.repo.Snapshots = filepath.Join(s.dir, "build-cache", "snapshots")
	p, _ := s.start("v1")
	return p
}

func (b *fakeBuilder) prepared() (checks, describes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.checked), b.described
}

func TestAPreviewPageIsRenderedFromASnapshotOfTheDraft(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p := s.previewing()
	draft := s.draftTagline("draft")
	page, err := p.PreviewPage(context.Background(), draft.Tree, "/product/7")
	if err != nil {
		t.Fatal(err)
	}
	if want := `/product/7 says draft with {"described":"draft"}`; string(page.Body) != want || page.Status != 200 {
		t.Errorf("the page: %d %q, want %q: the draft's content as saved, described", page.Status, page.Body, want)
	}
	snapshot := filepath.Join(s.repo.Snapshots, draft.Tree, "content")
	if tree, _ := repo.TreeHash(os.DirFS(snapshot)); tree != draft.Tree {
		t.Errorf("the snapshot holds tree %s, want the draft's %s", tree, draft.Tree)
	}
	s.builder.mu.Lock()
	checked := slices.Clone(s.builder.checked)
	s.builder.mu.Unlock()
	if len(checked) != 1 || checked[0] != snapshot {
		t.Errorf("checked %v, want the snapshot %s", checked, snapshot)
	}
	if content, err := p.PreviewContent(draft.Tree); err != nil || content.Site.Tagline != "draft" {
		t.Errorf("the draft's content: %v, %v", content, err)
	}
	if got, err := p.PreviewImage(context.Background(), draft.Tree, "images/x.0123456789ab.640w.webp"); err != nil || got != filepath.Join(snapshot, "images/x.0123456789ab.640w.webp") {
		t.Errorf("an image: %q, %v; want one of the snapshot", got, err)
	}
	// The draft is built ahead of its publishing (ahead.go), a release
	// never made live; a preview makes none of main's.
	list, _ := s.releases.List()
	for _, r := range list {
		if !r.Preview {
			t.Errorf("a preview made a release: %+v", r)
		}
	}
}

func TestATreeIsCheckedAndDescribedOnce(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p := s.previewing()
	first := s.draftTagline("first")
	for _, path := range []string{"/", "/products", "/product/7"} {
		if _, err := p.PreviewPage(context.Background(), first.Tree, path); err != nil {
			t.Fatal(err)
		}
	}
	if checks, describes := s.builder.prepared(); checks != 1 || describes != 1 {
		t.Errorf("three pages of one tree: %d checks, %d descriptions; want one each", checks, describes)
	}
	second := s.draftTagline("second")
	page, err := p.PreviewPage(context.Background(), second.Tree, "/")
	if err != nil || !strings.HasPrefix(string(page.Body), "/ says second") {
		t.Fatalf("a new tree's page: %q, %v", page.Body, err)
	}
	if checks, describes := s.builder.prepared(); checks != 2 || describes != 2 {
		t.Errorf("after a save: %d checks, %d descriptions; want two each", checks, describes)
	}
	// A snapshot deleted meanwhile (more saves than are kept) is written
	// and described again.
	if err := os.RemoveAll(filepath.Join(s.repo.Snapshots, first.Tree)); err != nil {
		t.Fatal(err)
	}
	if page, err := p.PreviewPage(context.Background(), first.Tree, "/"); err != nil || !strings.HasPrefix(string(page.Body), "/ says first") {
		t.Errorf("a deleted snapshot's page: %q, %v", page.Body, err)
	}
	if _, describes := s.builder.prepared(); describes != 3 {
		t.Errorf("a deleted snapshot described %d times in all, want it described again", describes)
	}
}

func TestADraftThatFailsTheCheckIsItsProblems(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p := s.previewing()
	draft := s.draftTagline("broken draft")
	for range 2 {
		_, err := p.PreviewPage(context.Background(), draft.Tree, "/")
		var problems *build.ContentError
		if !errors.As(err, &problems) || len(problems.Problems) != 1 || problems.Problems[0] != "content/site.json: tagline: broken draft" {
			t.Fatalf("a draft the check refuses: %v, want its problems", err)
		}
	}
	if checks, describes := s.builder.prepared(); checks != 1 || describes != 0 {
		t.Errorf("asked twice: %d checks, %d descriptions; want the one check's problems kept, nothing described", checks, describes)
	}
}

func TestAFailedCheckIsTriedAgain(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p := s.previewing()
	s.builder.checkFails = 1
	draft := s.draftTagline("draft")
	_, err := p.PreviewPage(context.Background(), draft.Tree, "/")
	if err == nil || err.Error() != "the renderer stopped" {
		t.Fatalf("a check whose renderer stopped: %v, want its error", err)
	}
	if page, err := p.PreviewPage(context.Background(), draft.Tree, "/"); err != nil || !strings.HasPrefix(string(page.Body), "/ says draft") {
		t.Errorf("the next request: %q, %v; want the page", page.Body, err)
	}
}

func TestOnlyTheCopyThatBuildsPreviews(t *testing.T) {
	t.Parallel()
	if err := (&Publisher{}).CanPreview(); !errors.Is(err, ErrNoBuilder) {
		t.Errorf("no builder: %v", err)
	}
	elsewhere := &Publisher{Builder: &fakeBuilder{}, Shared: &Shared{}} // a copy that does not hold the builder's lock
	if err := elsewhere.CanPreview(); !errors.Is(err, ErrPreviewElsewhere) {
		t.Errorf("a copy that does not build: %v", err)
	}
	if _, err := elsewhere.PreviewPage(context.Background(), "0123456789012345678901234567890123456789", "/"); !errors.Is(err, ErrPreviewElsewhere) {
		t.Errorf("a page asked of a copy that does not build: %v", err)
	}
}

func TestTheOldPreviewReleasesAreDeletedAtStart(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	old := releases.Release{ID: "20260302-090000-d1d1d1d", Preview: true, Status: releases.Ready, Format: releases.Format}
	if err := s.releases.Put(old); err != nil {
		t.Fatal(err)
	}
	s.start("v1")
	if _, err := s.releases.Get(old.ID); err == nil {
		t.Error("a preview release an older server built is still there after a start")
	}
}
