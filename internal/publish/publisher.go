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
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
	"studio/internal/store"
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
// and DATA_DIR for `studio rollback`. Between them it builds the
// previews the editor asks for (Preview), which are never made live.
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

	wake         chan struct{}
	running      sync.WaitGroup
	switching    sync.Mutex // one switch at a time, the live file written with it
	mu           sync.Mutex
	pending      *releases.Release // main's build, queued, not yet started; a newer commit replaces it
	preview      *releases.Release // a preview's build, queued, not yet started; a newer preview replaces it
	live         string            // the release this server serves
	seenMain     string            // main as this copy last built or shared it
	embeddedTree string
	builds       bool      // this copy builds: it has the builder and, with Shared, the builder's lock
	lastLook     time.Time // with Shared: when the shared state was last read
	unservable   string    // with Shared: a live release this copy cannot serve, said once
	problem      string    // what went wrong that the studio should know ("" when all is well): /readyz and the releases.Releases page say it
	hold         bool      // no release of the content can be served: the pages answer 503
	liveFile     string    // what the live file said when last read or written here (followLiveFile)
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
	} else {
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

// startServing serves release live at start-up. When it cannot (it is
// damaged, or the live file names none though releases were made), it
// serves an intact release of the same content if there is one, otherwise
// the newest intact release, records it as live, and says what happened
// (Problem); main is then rebuilt (queueIfNew skips damaged releases). The
// embedded build serves only when no release was ever made and main holds
// the content it was built from (a new site); with other content and
// nothing intact to serve (a restore's first start), the pages answer 503
// until main is built.
func (p *Publisher) startServing(live string, main repo.Commit) {
	if live == EmbeddedID {
		return // chosen: studio rollback embedded
	}
	tree, what := main.Tree, ""
	if live != "" {
		err := p.serve(live, false)
		if err == nil {
			return
		}
		what = unservable("the live release", live, err)
		if r, err := p.records().Get(live); err == nil {
			tree = r.Tree
		}
	}
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
	}
	if live == "" {
		made := false
		for _, r := range list {
			made = made || (!r.Preview && r.Status == releases.Ready)
		}
		if !made && main.Tree == p.embeddedTree {
			return // a new site: the embedded build is main's content
		}
		if !made {
			p.setProblem("no release of the content has been built yet (a restore's first start, or the releases were deleted), so the pages answer 503 "+p.untilRebuilt(), true)
			return
		}
		what = "the live file (DATA_DIR/releases/live) names no release"
	}
	if id := p.serveIntact(list, tree, live); id != "" {
		r, _ := p.records().Get(id)
		if r.Tree == main.Tree {
			p.setProblem(fmt.Sprintf("%s; serving %s, a release of the same content", what, id), false)
		} else {
			p.setProblem(fmt.Sprintf("%s; serving %s %s", what, id, p.untilRebuilt()), false)
		}
		return
	}
	if main.Tree == p.embeddedTree {
		p.setProblem(what+"; no other release is intact, so the site as built into bin/studio serves: it holds main's content", false)
		return
	}
	p.setProblem(what+"; no release of the content is intact, so the pages answer 503 "+p.untilRebuilt(), true)
}

// untilRebuilt says how long what serves in the place of main's release
// serves.
func (p *Publisher) untilRebuilt() string {
	if !p.CanBuild() {
		return "until main is built: this server has no builder (BUILDER_DIR)"
	}
	return "while main is rebuilt"
}

// serveIntact makes live, and records as live, the first release of list
// (newest first) that is ready, intact and of the content tree, or failing
// that the newest intact one; never except. It returns its id, "" when
// none serves.
func (p *Publisher) serveIntact(list []releases.Release, tree, except string) string {
	for _, sameContent := range []bool{true, false} {
		for _, r := range list {
			if r.Preview || r.Status != releases.Ready || r.Format != releases.Format || len(r.Damage) > 0 || r.ID == except || (sameContent && r.Tree != tree) {
				continue
			}
			if p.serve(r.ID, true) == nil { // a damaged one is marked so by the switch
				return r.ID
			}
		}
	}
	return ""
}

// markDamaged records r's damaged files, so that it is not offered or
// served again.
func (p *Publisher) markDamaged(r releases.Release, damage *releases.DamageError) {
	r.Damage = damage.Files
	if err := p.records().Put(r); err != nil {
		p.Log.Error("publish: recording a damaged release", "release", r.ID, "err", err)
	}
}

// unservable says why release id (what: "the live release") cannot be
// served, as a person reads it.
func unservable(what, id string, err error) string {
	if damage := (*releases.DamageError)(nil); errors.As(err, &damage) {
		return fmt.Sprintf("%s %s was damaged (%s)", what, id, damage.Short())
	}
	return fmt.Sprintf("%s %s cannot be served (%v)", what, id, err)
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

// dropInterrupted deletes the releases whose build a stop interrupted:
// main is built again.
func (p *Publisher) dropInterrupted() {
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
		return
	}
	for _, r := range list {
		if r.Status == releases.Queued || r.Status == releases.Building {
			p.Log.Info("publish: a build a stop interrupted is dropped, and main built again", "release", r.ID)
			if err := p.records().Remove(r.ID); err != nil {
				p.Log.Error("publish: dropping an interrupted build", "release", r.ID, "err", err)
			}
		}
	}
}

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

// List is every release of main, newest first, the embedded build last:
// not the previews, which are no one's to make live (Release reads one).
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
// build that failed for want of disk space, say), and returns its id.
func (p *Publisher) Publish() (string, error) {
	if p.Shared != nil && !p.Builds() {
		return "", p.Shared.AskPublish(context.Background()) // the copy that builds takes it within seconds
	}
	main, err := p.Repo.Main()
	if err != nil {
		return "", err
	}
	return p.queue(main, false)
}

// keptPreviews is how many previews are kept: the one being looked at and
// the one before it. They do not count toward Keep.
const keptPreviews = 2

// ErrPreviewElsewhere is Preview's answer on a copy that does not build:
// the draft it would preview is in this copy's content repository alone.
var ErrPreviewElsewhere = errors.New("publish: previews are built by the copy of the server that builds, and this is not it")

// Preview builds commit c (the editor's draft) into a release that is
// never made live, for the studio to look at, and returns its id. A
// preview of the same files by this code, ready or under way, is returned
// instead of building again. It waits behind a build of main, never
// replacing one; a newer preview replaces a queued one.
func (p *Publisher) Preview(c repo.Commit) (string, error) {
	if p.Builder == nil {
		return "", ErrNoBuilder
	}
	if p.Shared != nil && !p.Builds() {
		return "", ErrPreviewElsewhere
	}
	list, err := p.records().List()
	if err != nil {
		return "", err
	}
	for _, r := range list {
		if r.Preview && r.Tree == c.Tree && r.CodeVersion == p.CodeVersion && r.Status != releases.Failed {
			return r.ID, nil
		}
	}
	return p.queue(c, true)
}

// Draft is the commit a preview of the editor's work builds: the draft's
// newest, or main's when nothing is unpublished (draft false).
func (p *Publisher) Draft() (c repo.Commit, draft bool, err error) { return p.Repo.Draft() }

// Release reads release id's record: how a preview's build goes.
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

// queueIfNew queues commit unless a release of its files by this code is
// ready (and not damaged), under way or failed (a failure is retried by
// Publish, not in a loop).
func (p *Publisher) queueIfNew(c repo.Commit) {
	if !p.Builds() {
		return
	}
	if c.Tree == p.embeddedTree && p.Live() == EmbeddedID {
		return // the embedded build is this content, built by this code
	}
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
		return
	}
	for _, r := range list {
		if !r.Preview && r.Tree == c.Tree && r.CodeVersion == p.CodeVersion && len(r.Damage) == 0 {
			if r.Status == releases.Ready && r.ID != p.Live() {
				// The same files again (a revert), or a build a stop kept
				// from going live: the release made of them serves.
				if !p.Manual {
					if err := p.serve(r.ID, true); err != nil {
						p.Log.Error("publish: switching", "release", r.ID, "err", err)
					}
				}
			}
			return
		}
	}
	if _, err := p.queue(c, false); err != nil {
		p.Log.Error("publish: queueing main", "commit", c.Hash, "err", err)
	}
}

var ErrNoBuilder = errors.New("publishing needs the builder: this server has no front end to build with (see docs/publishing.md)")

// queue puts a build of c in its slot, main's or (preview) the previews':
// each slot holds one, so neither kind ever pushes out the other.
func (p *Publisher) queue(c repo.Commit, preview bool) (string, error) {
	if p.Builder == nil {
		return "", ErrNoBuilder
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	slot := &p.pending
	if preview {
		slot = &p.preview
	}
	if queued := *slot; queued != nil {
		if queued.Commit.Hash == c.Hash {
			return queued.ID, nil
		}
		p.Log.Info("publish: a queued build is superseded by a newer commit", "release", queued.ID, "commit", c.Hash)
		if err := p.records().Remove(queued.ID); err != nil {
			return "", err
		}
	}
	r := releases.Release{ID: p.Releases.NewID(time.Now(), c.Hash), Commit: c, CodeVersion: p.CodeVersion, Format: releases.Format,
		Status: releases.Queued, Preview: preview, QueuedAt: time.Now()}
	if err := p.records().Put(r); err != nil {
		return "", err
	}
	*slot = &r
	p.Log.Info("publish: queued", "release", r.ID, "commit", c.Hash, "message", c.Message, "preview", preview)
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return r.ID, nil
}

// work builds the queued releases, one at a time, until ctx ends.
func (p *Publisher) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		for r := p.next(); r != nil && ctx.Err() == nil; r = p.next() {
			p.build(ctx, *r)
		}
	}
}

// next takes the queued build to make next: main's before a preview's, as
// the live site waits on it.
func (p *Publisher) next() *releases.Release {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, slot := range []**releases.Release{&p.pending, &p.preview} {
		if r := *slot; r != nil {
			*slot = nil
			return r
		}
	}
	return nil
}

// build makes release r and, when it is good and nothing says wait, makes
// it live. Whatever fails, the live release keeps serving.
func (p *Publisher) build(ctx context.Context, r releases.Release) {
	start := time.Now()
	r.Status = releases.Building
	if err := p.make(ctx, &r, start); err != nil {
		p.failed(ctx, r, start, err)
		return
	}
	p.Log.Info("publish: built", "release", r.ID, "seconds", r.BuildSeconds, "peak_mib", r.BuildPeakMiB, "bytes", r.Size)
	if p.Observe != nil {
		p.Observe("", r.BuildSeconds, "ready")
	}
	// A preview is never made live. Manual publishing still takes an
	// upgrade's rebuild of the live content.
	live, err := p.records().Get(p.Live())
	if !r.Preview && (!p.Manual || (err == nil && live.Tree == r.Tree) || p.isHeld()) {
		if err := p.serve(r.ID, true); err != nil {
			p.Log.Error("publish: switching", "release", r.ID, "err", err)
		}
	}
	p.prune()
}

// make builds release r, recording each stage, up to a ready release
// checked, durable and (with Shared) stored for every copy. A build its
// content stops is a *problemsError.
func (p *Publisher) make(ctx context.Context, r *releases.Release, start time.Time) error {
	dir := p.Releases.Dir(r.ID)
	setStage := func(stage string) { p.setStage(r, start, stage) }
	setStage("checking the disk space")
	if err := p.makeRoom(r.ID); err != nil {
		return err
	}
	setStage("reading the commit")
	contentDir := filepath.Join(dir, "content")
	if err := p.Repo.Export(r.Commit.Hash, contentDir); err != nil {
		return err
	}
	// A path that leaves its folder stops the build before the front end's
	// tools read the content.
	if problems := sitecontent.PathProblems(os.DirFS(contentDir)); len(problems) > 0 {
		return &problemsError{problems}
	}
	logFile, err := os.Create(filepath.Join(dir, "build.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	stats, err := p.Builder.Build(ctx, contentDir, filepath.Join(dir, "client"), setStage, logFile)
	r.BuildPeakMiB = stats.PeakMiB
	if err != nil {
		return err
	}
	setStage("checking the release")
	if r.Manifest, err = p.Releases.WriteManifest(r.ID); err != nil {
		return err
	}
	// Durable before it may go live: a crash after the switch finds the
	// pages the live file names.
	if err := p.Releases.Sync(r.ID); err != nil {
		return err
	}
	if err := p.check(r.ID); err != nil {
		return err
	}
	if p.Shared != nil {
		setStage("storing the release for every copy")
		if err := p.Shared.Upload(ctx, r.ID); err != nil {
			return err
		}
	}
	r.Status, r.Stage = releases.Ready, ""
	r.BuiltAt = time.Now()
	r.BuildSeconds = time.Since(start).Seconds()
	r.Size = p.Releases.Size(r.ID)
	return p.records().Put(*r)
}

// setStage records the stage release r's build has come to.
func (p *Publisher) setStage(r *releases.Release, start time.Time, stage string) {
	r.Stage = stage
	if err := p.records().Put(*r); err != nil {
		p.Log.Error("publish: recording the stage", "release", r.ID, "err", err)
	}
	p.Log.Info("publish: build stage", "release", r.ID, "stage", stage, "seconds", time.Since(start).Seconds())
	if p.Observe != nil {
		p.Observe(stage, 0, "")
	}
}

// A problemsError is a build stopped by its content, one line a problem.
type problemsError struct{ problems []string }

func (e *problemsError) Error() string { return strings.Join(e.problems, "; ") }

// problems is what a failed build says of why, one line a problem: the
// content's own, or the error in the studio's words.
func (p *Publisher) problems(err error) []string {
	if content := (*build.ContentError)(nil); errors.As(err, &content) {
		return content.Problems
	}
	if links := (*repo.LinkError)(nil); errors.As(err, &links) {
		return links.Problems // a symbolic link
	}
	if paths := (*problemsError)(nil); errors.As(err, &paths) {
		return paths.problems
	}
	return []string{p.diskFull(err).Error()}
}

// failed records release r's build as failed by err; the live release
// keeps serving. A build the shutdown stopped is left "building", which
// the next start drops (main is built again then).
func (p *Publisher) failed(ctx context.Context, r releases.Release, start time.Time, err error) {
	client := filepath.Join(p.Releases.Dir(r.ID), "client")
	if ctx.Err() != nil {
		os.RemoveAll(client)
		p.Log.Info("publish: a build stopped by the shutdown; main is built again at the next start", "release", r.ID)
		return
	}
	problems := p.problems(err)
	r.Status, r.Stage, r.Problems = releases.Failed, "", problems
	r.BuildSeconds = time.Since(start).Seconds()
	if err := p.records().Put(r); err != nil {
		p.Log.Error("publish: recording the failure", "release", r.ID, "err", err)
	}
	os.RemoveAll(client)
	p.Log.Warn("publish: build failed; the live release keeps serving", "release", r.ID, "problems", problems)
	if len(problems) == 1 && strings.HasPrefix(problems[0], "not enough disk space") {
		// Said where the studio looks (/readyz, the Releases page)
		// until a release goes live.
		p.setProblem(fmt.Sprintf("release %s was not built: %s", r.ID, problems[0]), p.isHeld())
	}
	if p.Observe != nil {
		p.Observe("", r.BuildSeconds, "failed")
	}
	p.prune() // a disk that filled gets its room back for the next try
}

// Load reads release id as the server serves it, fetching its files first
// when another copy built it: the switch's, and the server's for a preview.
func (p *Publisher) Load(id string) (fs.FS, *sitecontent.Content, error) {
	if id == EmbeddedID {
		c, err := sitecontent.Load(p.Embedded.Content)
		return p.Embedded.Client, c, err
	}
	r, err := p.records().Get(id)
	if err != nil {
		return nil, nil, err
	}
	if r.Format != releases.Format {
		return nil, nil, fmt.Errorf("publish: release %s has layout %d; this bin/studio serves layout %d", id, r.Format, releases.Format)
	}
	if p.Shared != nil {
		if err := p.Shared.Fetch(context.Background(), id); err != nil {
			return nil, nil, err
		}
	}
	c, err := sitecontent.Load(p.Releases.Content(id))
	if err != nil {
		return nil, nil, err
	}
	return p.Releases.Client(id), c, nil
}

func (p *Publisher) check(id string) error {
	client, content, err := p.Load(id)
	if err != nil {
		return err
	}
	return p.Target.Check(id, client, content)
}

// serve switches the server to release id; record also makes it the live
// release of record: the live file (a restart serves id) and, with Shared,
// every copy's.
func (p *Publisher) serve(id string, record bool) error {
	p.switching.Lock()
	defer p.switching.Unlock()
	return p.switchTo(id, record)
}

// switchTo is serve with p.switching held.
func (p *Publisher) switchTo(id string, record bool) error {
	if id != EmbeddedID {
		r, err := p.records().Get(id)
		if err != nil {
			return err
		}
		if r.Status != releases.Ready {
			return fmt.Errorf("publish: release %s is %s, not ready: it cannot be made live", id, r.Status)
		}
		if r.Preview {
			return fmt.Errorf("publish: release %s is a preview of unpublished changes: it cannot be made live", id)
		}
		if err := p.verify(r); err != nil {
			if damage := (*releases.DamageError)(nil); errors.As(err, &damage) && len(r.Damage) == 0 {
				p.markDamaged(r, damage)
			}
			return err
		}
	}
	client, content, err := p.Load(id)
	if err != nil {
		return err
	}
	if err := p.Target.Switch(id, client, content); err != nil {
		return err
	}
	p.mu.Lock()
	p.live = id
	p.mu.Unlock()
	p.setProblem("", false) // a release serves, chosen: what went wrong before is over
	if !record {
		return nil
	}
	if err := p.setLiveFile(id); err != nil {
		return err
	}
	if p.Shared != nil {
		return p.Shared.SetLive(context.Background(), id)
	}
	return nil
}

// watch builds main when it moves (a push, a commit from the workspace),
// follows the live file when another process changes it and does what
// `studio rollback` asks (answerRollback), four times a second (LookEvery):
// a rollback from the shell is live within a second. Each look is a small
// file read. With Shared it also follows the other copies: at once on
// their notice, and every sharedPoll in any case.
func (p *Publisher) watch(ctx context.Context) {
	every := p.LookEvery
	if every == 0 {
		every = 250 * time.Millisecond
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	var notices chan struct{}
	if p.Shared != nil {
		notices = p.Shared.notices
	}
	for {
		noticed := false
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-notices:
			noticed = true
		}
		if main, err := p.Repo.Main(); err == nil && main.Hash != p.seenMain {
			p.Log.Info("publish: main moved", "commit", main.Hash, "message", main.Message, "author", main.Author)
			if p.Shared != nil {
				p.shareMain(ctx, main.Hash)
			} else {
				p.seenMain = main.Hash
			}
			if main, err := p.Repo.Main(); err == nil {
				p.queueIfNew(main)
			}
		}
		p.followLiveFile()
		p.answerRollback()
		if p.Releases.TakePublishRequest() {
			if _, err := p.Publish(); err != nil {
				p.Log.Error("publish: studio publish", "err", err)
			}
		}
		if p.Shared != nil && (noticed || time.Since(p.lastLook) >= sharedPoll) {
			p.followShared(ctx)
		}
	}
}

// followLiveFile switches to the release the live file names when another
// process changed it (the content's main is left as it is: `studio
// rollback` asks for Rollback instead). It acts on a change of the file
// alone: a live file naming a release that cannot be served (startServing
// served another) is tried, and said, once.
func (p *Publisher) followLiveFile() {
	p.switching.Lock()
	defer p.switching.Unlock()
	id, err := p.Releases.Live()
	if err != nil || id == "" || id == p.liveFile {
		return
	}
	p.liveFile = id
	if id == p.Live() {
		return
	}
	if err := p.switchTo(id, p.Shared != nil); err != nil {
		p.setProblem(fmt.Sprintf("%s, named by the live file (studio rollback), so %s still serves", unservable("release", id, err), p.Live()), p.isHeld())
	}
}

// setLiveFile writes the live file, and remembers what it wrote, so that
// followLiveFile knows its own change. The caller holds p.switching.
func (p *Publisher) setLiveFile(id string) error {
	p.liveFile = id
	return p.Releases.SetLive(id)
}

// verify checks release r's files before it is served (Releases.Verify).
// A copy of a shared release fetches it first, and fetches it again when
// its copy is damaged: the database holds every file.
func (p *Publisher) verify(r releases.Release) error {
	if p.Shared == nil {
		return p.Releases.Verify(r)
	}
	if err := p.Shared.Fetch(context.Background(), r.ID); err != nil {
		return err
	}
	err := p.Releases.Verify(r)
	if damage := (*releases.DamageError)(nil); errors.As(err, &damage) {
		p.Log.Warn("publish: this copy's files of a release are damaged; fetching them again", "release", r.ID, "files", damage.Files)
		if err := p.Releases.Remove(r.ID); err != nil {
			return err
		}
		if err := p.Shared.Fetch(context.Background(), r.ID); err != nil {
			return err
		}
		return p.Releases.Verify(r)
	}
	return err
}

func (p *Publisher) isHeld() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hold
}

// prune deletes the releases of main past the newest Keep and the previews
// past the newest keptPreviews, never the live one or one under way.
func (p *Publisher) prune() {
	list, err := p.records().List()
	if err != nil {
		return
	}
	live := p.Live()
	kept, previews := 0, 0
	for _, r := range list {
		count, limit := &kept, p.Keep
		if r.Preview {
			count, limit = &previews, keptPreviews
		}
		if *count++; *count > limit && r.ID != live && r.Status != releases.Queued && r.Status != releases.Building {
			p.Log.Info("publish: an old release is deleted", "release", r.ID, "preview", r.Preview)
			p.records().Remove(r.ID)
		}
	}
	if p.Shared != nil {
		if err := p.Shared.DropUnusedFiles(); err != nil {
			p.Log.Error("publish: deleting the files of deleted releases", "err", err)
		}
	}
}

// makeRoom makes sure the disk has room for a build before it starts: as
// much as the last release took, and the space the server keeps free for
// the enquiries (store.MinFreeBytes, below which /readyz says not ready).
// Short of it, the oldest releases that are not live are deleted, one by
// one; still short, the build fails at once, saying so, and the live
// release keeps serving.
func (p *Publisher) makeRoom(building string) error {
	list, err := p.records().List()
	if err != nil {
		return err
	}
	need := uint64(store.MinFreeBytes)
	for _, r := range list {
		if r.Status == releases.Ready && r.Size > 0 {
			need += uint64(r.Size)
			break
		}
	}
	free, err := p.freeBytes()
	if err != nil {
		return err
	}
	// What no release links any more: the pages cached of deleted
	// releases, the content's files none exports.
	trim := func() {
		if t, ok := p.Builder.(interface{ TrimCaches() }); ok {
			t.TrimCaches()
		}
		p.Repo.DropUnlinkedBlobs(0)
		if free, err = p.freeBytes(); err != nil {
			p.Log.Error("publish: the free space", "err", err)
		}
	}
	if free < need {
		trim()
	}
	for i := len(list) - 1; i >= 0 && free < need; i-- {
		r := list[i]
		if r.ID == building || r.ID == p.Live() || r.Status == releases.Queued || r.Status == releases.Building {
			continue
		}
		p.Log.Info("publish: an old release is deleted to make room for a build", "release", r.ID, "free_bytes", free, "needed_bytes", need)
		if err := p.records().Remove(r.ID); err != nil {
			return err
		}
		if p.Shared != nil {
			p.Shared.DropUnusedFiles()
		}
		trim()
	}
	if free < need {
		return fmt.Errorf("not enough disk space: %s free, %s needed (the last release's size, and %s kept free for enquiries); the live site keeps serving",
			sizeText(free), sizeText(need), sizeText(store.MinFreeBytes))
	}
	return nil
}

func (p *Publisher) freeBytes() (uint64, error) {
	if p.FreeBytes != nil {
		return p.FreeBytes(p.Releases.Root())
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p.Releases.Root(), &st); err != nil {
		return 0, fmt.Errorf("publish: the free space of %s: %w", p.Releases.Root(), err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// diskFull says err in the studio's words when the disk filled during a
// build.
func (p *Publisher) diskFull(err error) error {
	if !errors.Is(err, unix.ENOSPC) {
		return err
	}
	free, _ := p.freeBytes()
	return fmt.Errorf("not enough disk space: the disk filled during the build (%s free now); the live site keeps serving, and older releases are deleted for the next try", sizeText(free))
}

// sizeText says a number of bytes as a person reads it, in the binary
// units /readyz says the disk's space in: "740 KiB", "1.2 GiB".
func sizeText[N int64 | uint64 | int](n N) string {
	switch f := float64(n); {
	case f < 1<<20:
		return fmt.Sprintf("%.0f KiB", f/(1<<10))
	case f < 1<<30:
		return fmt.Sprintf("%.0f MiB", f/(1<<20))
	default:
		return fmt.Sprintf("%.1f GiB", f/(1<<30))
	}
}
