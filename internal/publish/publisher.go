package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"studio/internal/sitecontent"
)

// A Target is the server a publisher switches: Check is the smoke test
// (every route present, the pages parse, their CSP hashes made), Switch
// makes a release live from the next request on.
type Target interface {
	Check(id string, client fs.FS, content *sitecontent.Content) error
	Switch(id string, client fs.FS, content *sitecontent.Content) error
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
	Repo        *Repository
	Releases    *Releases
	Builder     Builder // nil: this server cannot build; it serves what is built
	Target      Target
	Embedded    Embedded
	CodeVersion string // which bin/studio: a release records the one that built it
	Manual      bool   // a good build waits for "Make live"
	Keep        int    // releases kept; older ones are deleted
	Log         *slog.Logger
	Observe     func(stage string, seconds float64, result string) // the metrics: a build's duration and result (result "" while under way)
	Shared      *Shared                                            // PostgreSQL: the copies of the server share releases, main and one builder; nil: this server alone

	wake         chan struct{}
	running      sync.WaitGroup
	switching    sync.Mutex // one switch at a time, the live file written with it
	mu           sync.Mutex
	pending      *Release // main's build, queued, not yet started; a newer commit replaces it
	preview      *Release // a preview's build, queued, not yet started; a newer preview replaces it
	live         string   // the release this server serves
	seenMain     string   // main as this copy last built or shared it
	embeddedTree string
	builds       bool      // this copy builds: it has the builder and, with Shared, the builder's lock
	lastLook     time.Time // with Shared: when the shared state was last read
	unservable   string    // with Shared: a live release this copy cannot serve, said once
}

// records is where the release.json of each release is kept: the release
// directories (Releases) of a server alone, the database (Shared) of copies.
type records interface {
	Get(id string) (Release, error)
	Put(r Release) error
	List() ([]Release, error)
	Remove(id string) error
}

func (p *Publisher) records() records {
	if p.Shared != nil {
		return p.Shared
	}
	return p.Releases
}

// Start serves the release the live file names, if this code can, and
// otherwise the embedded build; drops builds a stop interrupted; queues
// main when no release of it has been made by this code; then builds and
// watches until ctx ends.
func (p *Publisher) Start(ctx context.Context) error {
	p.wake = make(chan struct{}, 1)
	if p.Keep < 2 {
		p.Keep = 2
	}
	tree, err := TreeHash(p.Embedded.Content)
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
	live, _ := p.Releases.Live()
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
		if err := p.Releases.SetLive(cmp.Or(live, EmbeddedID)); err != nil {
			return err
		}
	} else {
		p.builds = p.Builder != nil
		p.dropInterrupted()
	}
	if live != "" && live != EmbeddedID {
		if err := p.serve(live, false); err != nil {
			p.Log.Error("publish: the live release cannot be served; serving the embedded build", "release", live, "err", err)
		}
	}
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
		if r.Status == Queued || r.Status == Building {
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
func (p *Publisher) List() ([]Release, error) {
	all, err := p.records().List()
	if err != nil {
		return nil, err
	}
	var list []Release
	for _, r := range all {
		if !r.Preview {
			list = append(list, r)
		}
	}
	return append(list, Release{ID: EmbeddedID, Commit: Commit{Message: "The site as built into bin/studio", Tree: p.embeddedTree},
		CodeVersion: p.CodeVersion, Format: Format, Status: Ready}), nil
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
func (p *Publisher) Preview(c Commit) (string, error) {
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
		if r.Preview && r.Tree == c.Tree && r.CodeVersion == p.CodeVersion && r.Status != Failed {
			return r.ID, nil
		}
	}
	return p.queue(c, true)
}

// Draft is the commit a preview of the editor's work builds: the draft's
// newest, or main's when nothing is unpublished (draft false).
func (p *Publisher) Draft() (c Commit, draft bool, err error) { return p.Repo.Draft() }

// Release reads release id's record: how a preview's build goes.
func (p *Publisher) Release(id string) (Release, error) { return p.records().Get(id) }

// MakeLive switches to release id, built before: instant, no rebuild.
func (p *Publisher) MakeLive(id string) error { return p.serve(id, true) }

// Rollback makes release id live, as MakeLive, and then its content main's
// by one commit by who (CommitBackTo), which it returns: "" when main had
// those files already. Main's new commit is the live release's files, so
// the watcher builds nothing for it.
func (p *Publisher) Rollback(id string, who Signature) (string, error) {
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
// ready, under way or failed (a failure is retried by Publish, not in a loop).
func (p *Publisher) queueIfNew(c Commit) {
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
		if !r.Preview && r.Tree == c.Tree && r.CodeVersion == p.CodeVersion {
			if r.Status == Ready && r.ID != p.Live() && r.Commit.Hash != c.Hash {
				// The same files again (a revert): the release made of them serves.
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

var ErrNoBuilder = errors.New("publishing needs the builder: this server has no front end to build with (see the README, \"Publishing\")")

// queue puts a build of c in its slot, main's or (preview) the previews':
// each slot holds one, so neither kind ever pushes out the other.
func (p *Publisher) queue(c Commit, preview bool) (string, error) {
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
	r := Release{ID: p.Releases.newID(time.Now(), c.Hash), Commit: c, CodeVersion: p.CodeVersion, Format: Format,
		Status: Queued, Preview: preview, QueuedAt: time.Now()}
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
func (p *Publisher) next() *Release {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, slot := range []**Release{&p.pending, &p.preview} {
		if r := *slot; r != nil {
			*slot = nil
			return r
		}
	}
	return nil
}

// build makes release r and, when it is good and nothing says wait, makes
// it live. Whatever fails, the live release keeps serving.
func (p *Publisher) build(ctx context.Context, r Release) {
	start := time.Now()
	dir := p.Releases.Dir(r.ID)
	r.Status = Building
	setStage := func(stage string) {
		r.Stage = stage
		if err := p.records().Put(r); err != nil {
			p.Log.Error("publish: recording the stage", "release", r.ID, "err", err)
		}
		p.Log.Info("publish: build stage", "release", r.ID, "stage", stage, "seconds", time.Since(start).Seconds())
		if p.Observe != nil {
			p.Observe(stage, 0, "")
		}
	}
	fail := func(problems ...string) {
		r.Status, r.Stage, r.Problems = Failed, "", problems
		r.BuildSeconds = time.Since(start).Seconds()
		if err := p.records().Put(r); err != nil {
			p.Log.Error("publish: recording the failure", "release", r.ID, "err", err)
		}
		os.RemoveAll(filepath.Join(dir, "client"))
		p.Log.Warn("publish: build failed; the live release keeps serving", "release", r.ID, "problems", problems)
		if p.Observe != nil {
			p.Observe("", r.BuildSeconds, "failed")
		}
	}
	setStage("reading the commit")
	contentDir := filepath.Join(dir, "content")
	if err := p.Repo.Export(r.Commit.Hash, contentDir); err != nil {
		fail(err.Error())
		return
	}
	logFile, err := os.Create(filepath.Join(dir, "build.log"))
	if err != nil {
		fail(err.Error())
		return
	}
	defer logFile.Close()
	stats, err := p.Builder.Build(ctx, contentDir, filepath.Join(dir, "client"), setStage, logFile)
	r.BuildPeakMiB = stats.PeakMiB
	if content := (*ContentError)(nil); errors.As(err, &content) {
		fail(content.Problems...)
		return
	} else if err != nil {
		fail(err.Error())
		return
	}
	setStage("checking the release")
	if err := p.check(r.ID); err != nil {
		fail(err.Error())
		return
	}
	if p.Shared != nil {
		setStage("storing the release for every copy")
		if err := p.Shared.Upload(ctx, r.ID); err != nil {
			fail(err.Error())
			return
		}
	}
	r.Status, r.Stage = Ready, ""
	r.BuiltAt = time.Now()
	r.BuildSeconds = time.Since(start).Seconds()
	r.Size = dirSize(dir)
	if err := p.records().Put(r); err != nil {
		fail(err.Error())
		return
	}
	p.Log.Info("publish: built", "release", r.ID, "seconds", r.BuildSeconds, "peak_mib", r.BuildPeakMiB, "bytes", r.Size)
	if p.Observe != nil {
		p.Observe("", r.BuildSeconds, "ready")
	}
	// A preview is never made live. Manual publishing still takes an
	// upgrade's rebuild of the live content.
	live, err := p.records().Get(p.Live())
	if !r.Preview && (!p.Manual || (err == nil && live.Tree == r.Tree)) {
		if err := p.serve(r.ID, true); err != nil {
			p.Log.Error("publish: switching", "release", r.ID, "err", err)
		}
	}
	p.prune()
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
	if r.Format != Format {
		return nil, nil, fmt.Errorf("publish: release %s has layout %d; this bin/studio serves layout %d", id, r.Format, Format)
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
		if r.Status != Ready {
			return fmt.Errorf("publish: release %s is %s, not ready: it cannot be made live", id, r.Status)
		}
		if r.Preview {
			return fmt.Errorf("publish: release %s is a preview of unpublished changes: it cannot be made live", id)
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
	if !record {
		return nil
	}
	if err := p.Releases.SetLive(id); err != nil {
		return err
	}
	if p.Shared != nil {
		return p.Shared.SetLive(context.Background(), id)
	}
	return nil
}

// watch builds main when it moves (a push, a commit from the workspace),
// follows the live file when another process changes it and does what
// `studio rollback` asks (answerRollback), four times a second: a rollback
// from the shell is live within a second. Each look is a small file read.
// With Shared it also follows the other copies: at once on their notice,
// and every sharedPoll in any case.
func (p *Publisher) watch(ctx context.Context) {
	tick := time.NewTicker(250 * time.Millisecond)
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
		if p.Releases.takePublishRequest() {
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
// rollback` asks for Rollback instead).
func (p *Publisher) followLiveFile() {
	p.switching.Lock()
	defer p.switching.Unlock()
	id, err := p.Releases.Live()
	if err != nil || id == "" || id == p.Live() {
		return
	}
	if err := p.switchTo(id, p.Shared != nil); err != nil {
		p.Log.Error("publish: the live file names a release that cannot be served", "release", id, "err", err)
	}
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
		if *count++; *count > limit && r.ID != live && r.Status != Queued && r.Status != Building {
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
