package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"studio/content"
	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// fakeBuilder "builds" a client of one file, tagline.txt, holding the
// content's site tagline, so a test can tell releases apart by what they
// serve. A build waits while the test holds it (hold, then let), and fails
// with problems when the tagline asks it to.
type fakeBuilder struct {
	mu     sync.Mutex
	held   chan struct{} // closed by let
	builds []string      // taglines built, in order

	// Previews (preview_test.go).
	checked    []string // the folders checked, in order
	checkFails int      // checks still to fail, as a renderer that stopped
	described  int
}

func (b *fakeBuilder) hold() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held = make(chan struct{})
}

func (b *fakeBuilder) let() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.held)
	b.held = nil
}

func (b *fakeBuilder) Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (build.Stats, error) {
	stage("building")
	b.mu.Lock()
	held := b.held
	b.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-ctx.Done():
			return build.Stats{}, ctx.Err()
		}
	}
	tagline := readTagline(os.DirFS(contentDir))
	b.mu.Lock()
	b.builds = append(b.builds, tagline)
	b.mu.Unlock()
	if strings.HasPrefix(tagline, "no space") {
		return build.Stats{}, fmt.Errorf("publish: prerendering the pages failed: %w", syscall.ENOSPC)
	}
	if strings.HasPrefix(tagline, "broken") {
		return build.Stats{}, &build.ContentError{Problems: []string{"content/site.json: tagline: " + tagline}}
	}
	if err := os.MkdirAll(clientDir, 0o755); err != nil {
		return build.Stats{}, err
	}
	return build.Stats{PeakMiB: 1}, os.WriteFile(filepath.Join(clientDir, "tagline.txt"), []byte(tagline), 0o644)
}

func readTagline(fsys fs.FS) string {
	var site struct{ Tagline string }
	b, _ := fs.ReadFile(fsys, "site.json")
	json.Unmarshal(b, &site)
	return site.Tagline
}

// fakeTarget records what it serves: the live release's id and the
// tagline its client says.
type fakeTarget struct {
	releases *releases.Releases // where the live file is
	mu       sync.Mutex
	id       string
	tagline  string
	switched []string // every release switched to, in order
	problem  string   // what the publisher last reported (Report)
	hold     bool
}

func (t *fakeTarget) Report(problem string, hold bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.problem, t.hold = problem, hold
}

func (t *fakeTarget) reported() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.problem, t.hold
}

func (t *fakeTarget) Check(id string, client fs.FS, c *sitecontent.Content) error {
	if _, err := fs.Stat(client, "tagline.txt"); err != nil && id != EmbeddedID {
		return errors.New("no tagline.txt")
	}
	return nil
}

func (t *fakeTarget) Switch(id string, client fs.FS, c *sitecontent.Content) error {
	b, _ := fs.ReadFile(client, "tagline.txt")
	t.mu.Lock()
	defer t.mu.Unlock()
	t.id, t.tagline = id, string(b)
	t.switched = append(t.switched, id)
	return nil
}

func (t *fakeTarget) serving() (string, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.id, t.tagline
}

var embeddedClient = fstest.MapFS{"tagline.txt": {Data: []byte("embedded")}}

// site holds a data dir's repository and releases, and starts publishers on them.
type site struct {
	t        *testing.T
	dir      string
	repo     *repo.Repository
	releases *releases.Releases
	builder  *fakeBuilder
	keep     int
	stop     context.CancelFunc // the last publisher started
}

func newSite(t *testing.T) *site {
	dir := t.TempDir()
	r, err := repo.Open(filepath.Join(dir, "content.git"), content.Files)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := releases.Open(filepath.Join(dir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	return &site{t: t, dir: dir, repo: r, releases: rs, builder: &fakeBuilder{}, keep: 10}
}

// lookEvery is how often the tests' publishers look for a commit, a
// rollback or a change of the live file: a server looks four times a
// second, and a test would wait a quarter of a second at each step.
const lookEvery = 10 * time.Millisecond

// start runs a publisher of code version until the test ends.
func (s *site) start(version string) (*Publisher, *fakeTarget) {
	s.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s.t.Cleanup(cancel)
	s.stop = cancel
	target := &fakeTarget{releases: s.releases, id: EmbeddedID, tagline: "embedded"}
	p := &Publisher{Repo: s.repo, Releases: s.releases, Builder: s.builder, Target: target, CodeVersion: version,
		Embedded: Embedded{Client: embeddedClient, Content: content.Files}, Keep: s.keep, Log: slog.New(slog.DiscardHandler), LookEvery: lookEvery, DraftQuiet: lookEvery}
	if err := p.Start(ctx); err != nil {
		s.t.Fatal(err)
	}
	// A build under way (a draft's, say) ends before the data dir goes
	// (cleanups run last first).
	s.t.Cleanup(func() { cancel(); p.Wait() })
	return p, target
}

// commitTagline commits a site.json whose tagline is tagline.
func (s *site) commitTagline(tagline string) string {
	s.t.Helper()
	hash, err := s.repo.Commit("", map[string][]byte{"site.json": s.siteJSON(tagline)}, nil, repo.Signature{Name: "Owner", Email: "owner@example.com"}, "Tagline: "+tagline)
	if err != nil {
		s.t.Fatal(err)
	}
	return hash
}

// siteJSON is the embedded site.json with tagline as its tagline.
func (s *site) siteJSON(tagline string) []byte {
	s.t.Helper()
	b, err := fs.ReadFile(content.Files, "site.json")
	if err != nil {
		s.t.Fatal(err)
	}
	var site map[string]any
	json.Unmarshal(b, &site)
	site["tagline"] = tagline
	b, _ = json.MarshalIndent(site, "", "  ")
	return b
}

// waitFor polls cond until it holds. The two minutes are for a machine
// under load: how soon it holds is a benchmark's question, not a test's.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// servingTagline says whether target serves the release of tagline and
// the live file names it.
func servingTagline(target *fakeTarget, want string) func() bool {
	return func() bool {
		id, got := target.serving()
		if got != want {
			return false
		}
		live, err := target.releases.Live()
		return err == nil && (live == id || live == "" && id == EmbeddedID)
	}
}

func TestTheEmbeddedContentIsTheFirstCommitAndRelease(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	main, err := s.repo.Main()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := repo.TreeHash(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	if main.Tree != tree {
		t.Errorf("the first commit's tree is %s, want the embedded content's %s", main.Tree, tree)
	}
	out := filepath.Join(t.TempDir(), "content")
	if err := s.repo.Export(main.Hash, out); err != nil {
		t.Fatal(err)
	}
	if exported, _ := repo.TreeHash(os.DirFS(out)); exported != tree {
		t.Errorf("exporting the first commit gives tree %s, want %s", exported, tree)
	}
	p, target := s.start("v1")
	// Start queues a build of main before it returns, when main needs one:
	// nothing is queued, so nothing will be built.
	if list, _ := s.releases.List(); len(list) != 0 {
		t.Errorf("releases after the first start: %+v; want none", list)
	}
	if id, _ := target.serving(); id != EmbeddedID || p.Live() != EmbeddedID {
		t.Errorf("serving %s, want the embedded build", id)
	}
	if len(s.builder.builds) != 0 {
		t.Errorf("built %v; the embedded build is the first commit's release and needs no build", s.builder.builds)
	}
	// Reopened, the repository is not seeded again.
	again, err := repo.Open(filepath.Join(s.dir, "content.git"), content.Files)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := again.Main(); m.Hash != main.Hash {
		t.Errorf("reopened, main is %s, want %s", m.Hash, main.Hash)
	}
}

func TestACommitGoesLiveAndAnEarlierReleaseComesBack(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("first")
	waitFor(t, "the first commit live", servingTagline(target, "first"))
	firstID := p.Live()
	s.commitTagline("second")
	waitFor(t, "the second commit live", servingTagline(target, "second"))

	r, err := s.releases.Get(p.Live())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != releases.Ready || r.Message != "Tagline: second" || r.Author != "Owner" || r.CodeVersion != "v1" || r.BuildSeconds <= 0 || r.Size <= 0 {
		t.Errorf("release.json = %+v, want ready with the commit's message and author, the code version, build time and size", r)
	}
	if live, _ := s.releases.Live(); live != r.ID {
		t.Errorf("the live file says %q, want %q", live, r.ID)
	}

	// Rollback: instant, no build.
	builds := len(s.builder.builds)
	if err := p.MakeLive(firstID); err != nil {
		t.Fatal(err)
	}
	if _, tagline := target.serving(); tagline != "first" {
		t.Errorf("after MakeLive(%s) serving %q, want first", firstID, tagline)
	}
	if len(s.builder.builds) != builds {
		t.Errorf("rolling back built again")
	}
	// studio rollback writes the live file; the running server follows it.
	if err := s.releases.SetLive(r.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the server to follow the live file", servingTagline(target, "second"))
	if err := p.MakeLive("no-such-release"); err == nil {
		t.Error("MakeLive of a release that does not exist succeeded")
	}
}

func TestAFailedBuildKeepsTheLiveRelease(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("good")
	waitFor(t, "good live", servingTagline(target, "good"))
	good := p.Live()
	s.commitTagline("broken on purpose")
	var failed releases.Release
	waitFor(t, "the broken build to fail", func() bool {
		list, _ := s.releases.List()
		for _, r := range list {
			if r.Status == releases.Failed {
				failed = r
				return true
			}
		}
		return false
	})
	if want := "content/site.json: tagline: broken on purpose"; len(failed.Problems) != 1 || failed.Problems[0] != want {
		t.Errorf("the failed release's problems are %q, want [%q]", failed.Problems, want)
	}
	if id, tagline := target.serving(); id != good || tagline != "good" {
		t.Errorf("after a failed build serving %s (%q), want %s", id, tagline, good)
	}
	if err := p.MakeLive(failed.ID); err == nil {
		t.Error("a failed release was made live")
	}
	if _, err := os.Stat(filepath.Join(s.releases.Dir(failed.ID), "client")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed release kept its client build: %v", err)
	}
}

func TestANewerCommitSupersedesAQueuedOne(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	_, target := s.start("v1")
	s.builder.hold() // the first build waits
	s.commitTagline("one")
	waitFor(t, "the first build to start", func() bool {
		list, _ := s.releases.List()
		return len(list) == 1 && list[0].Status == releases.Building
	})
	s.commitTagline("two")
	waitFor(t, "two queued", func() bool { list, _ := s.releases.List(); return len(list) == 2 })
	s.commitTagline("three")
	waitFor(t, "three queued in place of two", func() bool {
		list, _ := s.releases.List()
		return len(list) == 2 && list[0].Status == releases.Queued && strings.HasSuffix(list[0].Message, "three")
	})
	s.builder.let()
	waitFor(t, "three live", servingTagline(target, "three"))
	s.builder.mu.Lock()
	defer s.builder.mu.Unlock()
	if got := strings.Join(s.builder.builds, ","); got != "one,three" {
		t.Errorf("built %s, want one,three (two superseded while queued)", got)
	}
}

func TestARestartServesTheLastLiveRelease(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("kept")
	waitFor(t, "kept live", servingTagline(target, "kept"))
	live := p.Live()

	// The same bin/studio again: the live release serves at once, no build.
	s.stop()
	builds := len(s.builder.builds)
	p2, target2 := s.start("v1")
	if id, tagline := target2.serving(); id != live || tagline != "kept" || p2.Live() != live {
		t.Errorf("after a restart serving %s (%q), want %s", id, tagline, live)
	}
	// Start queues a build of main before it returns, when main needs one:
	// nothing is queued, so nothing will be built.
	list, _ := s.releases.List()
	for _, r := range list {
		if r.Status == releases.Queued || r.Status == releases.Building {
			t.Errorf("a restart queued a build: %+v", r)
		}
	}
	if len(s.builder.builds) != builds {
		t.Errorf("a restart built again")
	}
}

func TestAnUpgradeServesTheOldReleaseWhileItRebuilds(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("content")
	waitFor(t, "v1's release live", servingTagline(target, "content"))
	old := p.Live()

	s.builder.hold()
	s.stop()
	p2, target2 := s.start("v2")
	if id, _ := target2.serving(); id != old {
		t.Errorf("a new bin/studio serves %s at start, want the last live release %s while it rebuilds", id, old)
	}
	waitFor(t, "the rebuild to start", func() bool {
		list, _ := s.releases.List()
		return len(list) == 2 && list[0].Status == releases.Building && list[0].CodeVersion == "v2"
	})
	s.builder.let()
	waitFor(t, "v2's release live", func() bool { id, _ := target2.serving(); return id != old })
	if r, _ := s.releases.Get(p2.Live()); r.CodeVersion != "v2" || readTagline(s.releases.Content(r.ID)) != "content" {
		t.Errorf("live after the upgrade: %+v, want the same content built by v2", r)
	}
}

func TestABuildTheStopInterruptedIsBuiltAgain(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.commitTagline("interrupted")
	main, _ := s.repo.Main()
	// What a server killed mid-build leaves behind.
	stale := releases.Release{ID: "20260101-000000-" + main.Hash[:7], Commit: main, CodeVersion: "v1", Format: releases.Format, Status: releases.Building, Stage: "prerendering the pages"}
	if err := s.releases.Put(stale); err != nil {
		t.Fatal(err)
	}
	_, target := s.start("v1")
	waitFor(t, "the commit built again and live", servingTagline(target, "interrupted"))
	if _, err := s.releases.Get(stale.ID); err == nil {
		t.Error("the interrupted build's record is still there")
	}
}

func TestOnlyTheNewestReleasesAreKept(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.keep = 3
	_, target := s.start("v1")
	for _, tagline := range []string{"a", "b", "c", "d", "e"} {
		s.commitTagline(tagline)
		waitFor(t, tagline+" live", servingTagline(target, tagline))
	}
	var got []string
	waitFor(t, "the oldest two deleted", func() bool {
		list, _ := s.releases.List()
		got = got[:0]
		for _, r := range list {
			got = append(got, strings.TrimPrefix(r.Message, "Tagline: "))
		}
		return strings.Join(got, ",") == "e,d,c"
	})
}

func TestCommitRefusesToLoseAConcurrentCommit(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	// Two changes started from the same main: the second must not
	// overwrite the first.
	started, _ := s.repo.Main()
	s.commitTagline("first")
	_, err := s.repo.Commit(started.Hash, map[string][]byte{"pages/about.md": []byte("# About\n")}, nil, repo.Signature{Name: "Second"}, "a change started before first")
	if !errors.Is(err, repo.ErrMainMoved) {
		t.Errorf("a commit on a main that moved: %v, want repo.ErrMainMoved", err)
	}
	if m, _ := s.repo.Main(); m.Message != "Tagline: first" {
		t.Errorf("main is %q, want the first change", m.Message)
	}
	for _, bad := range []string{"../escape", "/etc/passwd", "", "a//b"} {
		if _, err := s.repo.Commit("", map[string][]byte{bad: []byte("x")}, nil, repo.Signature{Name: "x"}, "bad path"); err == nil {
			t.Errorf("a commit of the path %q was made", bad)
		}
	}
}
