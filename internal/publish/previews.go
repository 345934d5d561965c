package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"studio/internal/publish/build"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// Previews of the editor's draft, rendered a page at a time on request
// (the server's DraftPages, through cmd/studio): the draft's tree written
// out once (repo.Snapshot), checked and its images described once per
// tree, then each page asked for rendered by the builder's warm renderer.
// Nothing is built into a release and nothing is made live. Only the copy
// that builds renders them: the draft is in its content repository.

// A PreviewBuilder renders pages of a snapshot: the builder's warm
// renderer (build.NodeBuilder).
type PreviewBuilder interface {
	Check(ctx context.Context, contentDir string) ([]string, error)
	Describe(ctx context.Context, s build.Snapshot) error
	Render(ctx context.Context, s build.Snapshot, paths []string) ([]build.Page, error)
	Image(ctx context.Context, contentDir, name string) (string, error)
	Asset(name string) (string, error)
}

var _ PreviewBuilder = (*build.NodeBuilder)(nil)

// ErrPreviewElsewhere is the answer of a copy that does not build: the
// draft it would preview is in this copy's content repository alone.
var ErrPreviewElsewhere = errors.New("previews are made by the copy of the server that builds, and this is not it")

// CanPreview says why this server cannot render previews, nil when it can.
func (p *Publisher) CanPreview() error {
	_, err := p.previewBuilder()
	return err
}

func (p *Publisher) previewBuilder() (PreviewBuilder, error) {
	if p.Builder == nil {
		return nil, ErrNoBuilder
	}
	if p.Shared != nil && !p.Builds() {
		return nil, ErrPreviewElsewhere
	}
	b, ok := p.Builder.(PreviewBuilder)
	if !ok {
		return nil, errors.New("this server's builder cannot render previews")
	}
	return b, nil
}

// PreviewPage renders path (a page's or a resource route's) of the draft's
// tree. A draft the content check refuses is a *build.ContentError; a
// failed render, the renderer's error in plain words.
func (p *Publisher) PreviewPage(ctx context.Context, tree, path string) (build.Page, error) {
	b, t, err := p.previewOf(ctx, tree)
	if err != nil {
		return build.Page{}, err
	}
	start := time.Now()
	pages, err := b.Render(ctx, t.snapshot, []string{path})
	p.Log.Info("preview: rendered", "tree", tree, "path", path, "seconds", time.Since(start).Seconds())
	if err != nil {
		return build.Page{}, err
	}
	if len(pages) != 1 {
		return build.Page{}, fmt.Errorf("the renderer answered %d pages for %s, not one", len(pages), path)
	}
	return pages[0], nil
}

// PreviewImage makes the image file name of the draft's tree for a page
// that shows it before a build made it, and returns where it is.
func (p *Publisher) PreviewImage(ctx context.Context, tree, name string) (string, error) {
	b, t, err := p.previewOf(ctx, tree)
	if err != nil {
		return "", err
	}
	return b.Image(ctx, t.snapshot.ContentDir, name)
}

// PreviewAsset is where the code's file name (assets/…) of the code the
// previews are rendered with is, for pages that name it.
func (p *Publisher) PreviewAsset(name string) (string, error) {
	b, err := p.previewBuilder()
	if err != nil {
		return "", err
	}
	return b.Asset(name)
}

// PreviewContent is the draft's tree's content, as its pages read it.
func (p *Publisher) PreviewContent(tree string) (*sitecontent.Content, error) {
	_, t, err := p.previewOf(context.Background(), tree)
	if err != nil {
		return nil, err
	}
	return t.content, nil
}

// previewOf is the builder and tree made ready to render: once per tree,
// its snapshot checked and its images described. A check's problems are
// kept with the tree (its files do not change); another failure is not,
// so the next request tries again.
func (p *Publisher) previewOf(ctx context.Context, tree string) (PreviewBuilder, *previewTree, error) {
	b, err := p.previewBuilder()
	if err != nil {
		return nil, nil, err
	}
	// Asked again each time: it keeps the snapshot among the last used,
	// and writes it again if it was deleted meanwhile.
	start := time.Now()
	contentDir, err := p.Repo.Snapshot(tree)
	if err != nil {
		var links *repo.LinkError
		if errors.As(err, &links) {
			return nil, nil, &build.ContentError{Problems: links.Problems}
		}
		return nil, nil, err
	}
	s := build.Snapshot{ContentDir: contentDir, GeneratedDir: filepath.Join(filepath.Dir(contentDir), "generated")}
	t, leader := p.previews.take(tree, s)
	if leader {
		written := time.Since(start)
		t.content, t.err = p.prepare(ctx, b, s)
		p.previews.done(tree, t)
		p.Log.Info("preview: the draft made ready", "tree", tree, "written_seconds", written.Seconds(), "seconds", time.Since(start).Seconds())
	}
	select {
	case <-t.ready:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if t.err != nil {
		return nil, nil, t.err
	}
	return b, t, nil
}

// prepare checks snapshot s and describes its images for the renderer.
func (p *Publisher) prepare(ctx context.Context, b PreviewBuilder, s build.Snapshot) (*sitecontent.Content, error) {
	// A path that leaves its folder is refused before the front end's
	// tools read the content, as in a build.
	if problems := sitecontent.PathProblems(os.DirFS(s.ContentDir)); len(problems) > 0 {
		return nil, &build.ContentError{Problems: problems}
	}
	start := time.Now()
	problems, err := b.Check(ctx, s.ContentDir)
	p.Log.Info("preview: the draft checked", "seconds", time.Since(start).Seconds())
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &build.ContentError{Problems: problems}
	}
	if err := os.MkdirAll(s.GeneratedDir, 0o755); err != nil {
		return nil, err
	}
	if err := b.Describe(ctx, s); err != nil {
		return nil, err
	}
	return sitecontent.Load(os.DirFS(s.ContentDir))
}

// take is tree's entry, and whether the caller is to prepare it: when
// there is none, or its snapshot was written again since it was prepared
// (its description gone).
func (pt *previewTrees) take(tree string, s build.Snapshot) (*previewTree, bool) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.trees == nil {
		pt.trees = make(map[string]*previewTree)
	}
	if t, ok := pt.trees[tree]; ok {
		if _, err := os.Stat(s.GeneratedDir); err == nil || !isReady(t) || t.err != nil {
			pt.used(tree)
			return t, false
		}
	}
	t := &previewTree{ready: make(chan struct{}), snapshot: s}
	pt.trees[tree] = t
	pt.used(tree)
	for len(pt.order) > repo.KeptSnapshots {
		delete(pt.trees, pt.order[0])
		pt.order = pt.order[1:]
	}
	return t, true
}

// done marks t ready; a failure other than the content's is forgotten.
func (pt *previewTrees) done(tree string, t *previewTree) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	var content *build.ContentError
	if t.err != nil && !errors.As(t.err, &content) && pt.trees[tree] == t {
		delete(pt.trees, tree)
	}
	close(t.ready)
}

// used moves tree to the end of the order; pt.mu is held.
func (pt *previewTrees) used(tree string) {
	for i, name := range pt.order {
		if name == tree {
			pt.order = append(pt.order[:i], pt.order[i+1:]...)
			break
		}
	}
	pt.order = append(pt.order, tree)
}

func isReady(t *previewTree) bool {
	select {
	case <-t.ready:
		return true
	default:
		return false
	}
}
