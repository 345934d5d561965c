// Package publish turns the studio's content into live releases without a
// developer: the content lives in a git repository the server owns
// (repo), each commit on main is built by the front end's own pipeline
// (build) into a release (releases), and a release that passes its checks
// is switched live whole; any earlier good one can be switched back to at
// once. This package is the queue of builds and the switch (Publisher),
// and, with PostgreSQL, what the copies of the server share (Shared).
package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// A Target is the server a publisher switches: Check is the smoke test
// (every route present, the pages parse, their CSP hashes made), Switch
// makes a release live from the next request on.
type Target interface {
	Check(id string, client fs.FS, content *sitecontent.Content) error
	Switch(id string, client fs.FS, content *sitecontent.Content) error
	// Report says what went wrong with publishing, for /readyz ("" when all
	// is well). hold: no release of the content can be served, so the
	// pages answer 503 rather than show the shipped content in its place.
	Report(problem string, hold bool)
}

// EmbeddedID names the build inside bin/studio as a release.
const EmbeddedID = "embedded"

// The build inside bin/studio: the first release, and the one to fall back to.
type Embedded struct {
	Client  fs.FS
	Content fs.FS // the content it was built from: content/ as embedded
}

// A Publisher builds main's commits one at a time and makes each good one
// live (or, with Manual, waits for "Make live"). It watches main for pushes
// and DATA_DIR for `studio rollback`. Between them it builds the editor's
// draft ahead of its publishing (ahead.go), never made live until then.
type Publisher struct {
	Repo        *repo.Repository
	Releases    *releases.Releases
	Builder     Builder // nil: this server cannot build; it serves what is built
	Target      Target
	Embedded    Embedded
	CodeVersion string // which bin/studio: a release records the one that built it
	Manual      bool   // a good build waits for "Make live"
	Keep        int    // releases kept; older ones are deleted
	Log         *slog.Logger
	Observe     func(stage string, seconds float64, result string) // the metrics: a build's duration and result (result "" while under way)
	Shared      *Shared                                            // PostgreSQL: the copies of the server share releases, main and one builder; nil: this server alone
	FreeBytes   func(dir string) (uint64, error)                   // the free space of dir's disk; nil: statfs (tests give less)
	LookEvery   time.Duration                                      // how often watch looks; zero: a quarter of a second (tests look more often)
	DraftQuiet  time.Duration                                      // how long the draft stays as saved before it is built ahead of its publishing (ahead.go); zero: 2 s

	wake         chan struct{}
	running      sync.WaitGroup
	switching    sync.Mutex // one switch at a time, the live file written with it
	mu           sync.Mutex
	pending      *releases.Release // main's build, queued, not yet started; a newer commit replaces it
	live         string            // the release this server serves
	seenMain     string            // main as this copy last built or shared it
	seenDraft    string            // the draft as last looked at (buildDraftAhead)
	draftSaved   time.Time         // when seenDraft was first seen
	draftTaken   bool              // seenDraft's build is queued, or not needed
	ahead        aheadQueue        // the draft's build (ahead.go)
	embeddedTree string
	builds       bool         // this copy builds: it has the builder and, with Shared, the builder's lock
	lastLook     time.Time    // with Shared: when the shared state was last read
	unservable   string       // with Shared: a live release this copy cannot serve, said once
	problem      string       // what went wrong that the studio should know ("" when all is well): /readyz and the releases.Releases page say it
	hold         bool         // no release of the content can be served: the pages answer 503
	liveFile     string       // what the live file said when last read or written here (followLiveFile)
	previews     previewTrees // the drafts' trees made ready to render (previews.go)
}

// An aheadQueue is the draft's build (ahead.go): the one queued (the
// newest draft's) and the one under way, with the commit of main Publish
// took it for, if it did.
type aheadQueue struct {
	queued   *releases.Release
	running  string
	takenFor *repo.Commit
	writing  sync.Mutex // the records of builds under way, written one at a time (putBuild)
}

// previewTrees are the drafts' trees made ready to render, the few last
// used (as many as repo.KeptSnapshots keeps).
type previewTrees struct {
	mu    sync.Mutex
	trees map[string]*previewTree
	order []string // the most recently used last
}

// A previewTree is a tree's snapshot, checked and described; ready closes
// once it is, or err says why not.
type previewTree struct {
	ready    chan struct{}
	snapshot build.Snapshot
	content  *sitecontent.Content
	err      error // a *build.ContentError for a draft the check refuses
}

// A Builder turns the content in contentDir into a client build in
// clientDir, calling stage as each step begins. A build that fails for
// its content returns a *build.ContentError.
type Builder interface {
	Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (build.Stats, error)
}

// records is where the release.json of each release is kept: the release
// directories (Releases) of a server alone, the database (Shared) of copies.
type records interface {
	Get(id string) (releases.Release, error)
	Put(r releases.Release) error
	List() ([]releases.Release, error)
	Remove(id string) error
}

func (p *Publisher) records() records {
	if p.Shared != nil {
		return p.Shared
	}
	return p.Releases
}

// Start serves the release the live file names, checked (startServing
// says what when it cannot); drops builds a stop interrupted; queues main
// when no release of it has been made by this code, and makes a ready one
// live that a stop kept from going live; then builds and watches until ctx
// ends.
func (p *Publisher) Start(ctx context.Context) error {
	p.wake = make(chan struct{}, 1)
	if p.Keep < 2 {
		p.Keep = 2
	}
	tree, err := repo.TreeHash(p.Embedded.Content)
	if err != nil {
		return fmt.Errorf("publish: the embedded content: %w", err)
	}
	p.embeddedTree = tree
	main, err := p.Repo.Main()
	if err != nil {
		return err
	}
	p.seenMain = main.Hash
	p.live = EmbeddedID
	live, err := p.Releases.Live()
	if err != nil {
		p.Log.Error("publish: reading the live file", "err", err)
	}
	p.liveFile = live
	if p.Shared != nil {
		if err := p.shareMainAtStart(ctx); err != nil {
			return err
		}
		st, err := p.Shared.State(ctx)
		if err != nil {
			return fmt.Errorf("publish: the shared state: %w", err)
		}
		live = st.Live
		// The live file follows the database, so a copy that was stopped
		// while the others switched does not switch them back.
		if err := p.setLiveFile(cmp.Or(live, EmbeddedID)); err != nil {
			return err
		}
	} else {
		p.builds = p.Builder != nil
		p.dropInterrupted()
	}
	p.startServing(live, main)
	if p.Shared != nil {
		p.tryToBuild(ctx)
	}
	if p.Builds() {
		p.dropPreviewReleases()
	}
	if p.Shared == nil {
		// Main moved while the server was stopped, or this is a new bin/studio
		// (an upgrade: the content is rebuilt with this code and switched to
		// when good; meanwhile the last live release serves).
		p.queueIfNew(main)
	}
	p.running.Add(2)
	go func() { defer p.running.Done(); p.work(ctx) }()
	go func() { defer p.running.Done(); p.watch(ctx) }()
	return nil
}

// setProblem records what went wrong with publishing (""; nothing), says
// it in the log when it changes, and tells the server (/readyz; hold: the
// pages answer 503).
func (p *Publisher) setProblem(problem string, hold bool) {
	p.mu.Lock()
	changed := problem != p.problem || hold != p.hold
	p.problem, p.hold = problem, hold
	p.mu.Unlock()
	if !changed {
		return
	}
	if problem != "" {
		p.Log.Error("publish: " + problem)
	}
	if p.Target != nil {
		p.Target.Report(problem, hold)
	}
}

// Problem is what went wrong with publishing that the studio should know:
// a damaged release and what serves instead; "" when all is well. held:
// no release of the content can be served, and the pages answer 503 (the
// embedded build, Live, is not shown to visitors).
func (p *Publisher) Problem() (problem string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.problem, p.hold
}

// Wait returns once the publisher has stopped, after Start's ctx ended: a
// build under way has been stopped and recorded.
func (p *Publisher) Wait() { p.running.Wait() }

// Live is the id of the release this server serves.
func (p *Publisher) Live() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live
}

// CanBuild says whether this server has the builder, or (with Shared)
// can ask the copy that builds.
func (p *Publisher) CanBuild() bool { return p.Builder != nil || p.Shared != nil }

// Builds says whether this copy is the one that builds.
func (p *Publisher) Builds() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.builds
}

// List is every release of main, newest first, the embedded build last
// (not the releases built of a draft, until Publish takes one).
func (p *Publisher) List() ([]releases.Release, error) {
	all, err := p.records().List()
	if err != nil {
		return nil, err
	}
	var list []releases.Release
	for _, r := range all {
		if !r.Preview {
			list = append(list, r)
		}
	}
	return append(list, releases.Release{ID: EmbeddedID, Commit: repo.Commit{Message: "The site as built into bin/studio", Tree: p.embeddedTree},
		CodeVersion: p.CodeVersion, Format: releases.Format, Status: releases.Ready}), nil
}

// Publish queues a build of main now, even of a commit built before (a
// build that failed for want of disk space, say), and returns its id:
// the draft's release of its files when there is one (takeDraftBuild), or
// a build of them already queued or under way.
func (p *Publisher) Publish() (string, error) {
	if p.Shared != nil && !p.Builds() {
		return "", p.Shared.AskPublish(context.Background()) // the copy that builds takes it within seconds
	}
	main, err := p.Repo.Main()
	if err != nil {
		return "", err
	}
	if id, ok := p.takeDraftBuild(main); ok {
		return id, nil
	}
	if id := p.underWay(main.Tree); id != "" {
		return id, nil // the watch took the draft's release first
	}
	return p.queue(main)
}

// PublishNew is Publish for the draft just put on main (the Content
// page's Publish): the watch may have taken the draft's release, built
// ahead, and made it live already, and building that commit again would
// make the same files. Publish still builds again on request.
func (p *Publisher) PublishNew() (string, error) {
	main, err := p.Repo.Main()
	if err != nil {
		return "", err
	}
	if live, err := p.records().Get(p.Live()); err == nil && live.Commit.Hash == main.Hash && p.sameBuild(live, main.Tree) {
		return live.ID, nil
	}
	return p.Publish()
}

// Draft is the commit a preview of the editor's work builds: the draft's
// newest, or main's when nothing is unpublished (draft false).
func (p *Publisher) Draft() (c repo.Commit, draft bool, err error) { return p.Repo.Draft() }

// Release reads release id's record.
func (p *Publisher) Release(id string) (releases.Release, error) { return p.records().Get(id) }

// MakeLive switches to release id, built before: instant, no rebuild.
func (p *Publisher) MakeLive(id string) error { return p.serve(id, true) }

// Rollback makes release id live, as MakeLive, and then its content main's
// by one commit by who (CommitBackTo), which it returns: "" when main had
// those files already. Main's new commit is the live release's files, so
// the watcher builds nothing for it.
func (p *Publisher) Rollback(id string, who repo.Signature) (string, error) {
	if err := p.serve(id, true); err != nil {
		return "", err
	}
	hash, err := p.CommitBackTo(id, who)
	if err != nil {
		return "", fmt.Errorf("publish: release %s is live, but the content could not be set back to it: %w", id, err)
	}
	return hash, nil
}

var ErrNoBuilder = errors.New("publishing needs the builder: this server has no front end to build with (see docs/publishing.md)")

func (p *Publisher) isHeld() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hold
}
