package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
	"studio/internal/store"
)

// The queue of builds, one at a time, and what a build leaves: a ready
// release, or a failed one saying why; the releases past Keep deleted.

// queueIfNew queues commit unless a release of its files by this code is
// ready (and not damaged), under way or failed (a failure is retried by
// Publish, not in a loop). A ready one that cannot be made live (damaged
// since it was built) is said, and main is built again.
func (p *Publisher) queueIfNew(c repo.Commit) {
	if !p.Builds() {
		return
	}
	if c.Tree == p.embeddedTree && p.Live() == EmbeddedID {
		return // the embedded build is this content, built by this code
	}
	if _, ok := p.takeDraftBuild(c); ok {
		return // built, or under way, as the draft (ahead.go)
	}
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
		return
	}
	for _, r := range list {
		if !r.Preview && p.sameBuild(r, c.Tree) {
			if r.Status == releases.Ready && r.ID != p.Live() {
				// The same files again (a revert), or a build a stop kept
				// from going live: the release made of them serves.
				if !p.Manual {
					if err := p.serve(r.ID, true); err != nil {
						p.setProblem(fmt.Sprintf("%s; serving %s %s", unservable("release", r.ID, err), p.Live(), p.untilRebuilt()), p.isHeld())
						continue
					}
				}
			}
			return
		}
	}
	if _, err := p.queue(c); err != nil {
		p.Log.Error("publish: queueing main", "commit", c.Hash, "err", err)
	}
}

// sameBuild says whether r is, or will be, a build of these files by this
// code, undamaged: whatever its commit, what a build of them makes.
func (p *Publisher) sameBuild(r releases.Release, tree string) bool {
	return r.Tree == tree && r.CodeVersion == p.CodeVersion && len(r.Damage) == 0
}

// underWay is the release of main of these files by this code that is
// queued or being built, if any.
func (p *Publisher) underWay(tree string) string {
	list, err := p.records().List()
	if err != nil {
		return ""
	}
	for _, r := range list {
		if !r.Preview && p.sameBuild(r, tree) && (r.Status == releases.Queued || r.Status == releases.Building) {
			return r.ID
		}
	}
	return ""
}

// queue puts a build of c in the queue, which holds one: a newer commit
// replaces the one queued.
func (p *Publisher) queue(c repo.Commit) (string, error) {
	if p.Builder == nil {
		return "", ErrNoBuilder
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if queued := p.pending; queued != nil && queued.Commit.Hash == c.Hash {
		return queued.ID, nil
	}
	r := releases.Release{ID: p.Releases.NewID(time.Now(), c.Hash), Commit: c, CodeVersion: p.CodeVersion, Format: releases.Format,
		Status: releases.Queued, QueuedAt: time.Now()}
	if err := p.records().Put(r); err != nil {
		return "", err
	}
	if err := p.pendLocked(r); err != nil {
		return "", err
	}
	p.Log.Info("publish: queued", "release", r.ID, "commit", c.Hash, "message", c.Message)
	p.wakeWorker()
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

// pendLocked makes r main's queued build, the one queued before it
// superseded (its record deleted). The caller holds p.mu.
func (p *Publisher) pendLocked(r releases.Release) error {
	if queued := p.pending; queued != nil {
		p.Log.Info("publish: a queued build is superseded by a newer commit", "release", queued.ID, "commit", r.Hash)
		if err := p.records().Remove(queued.ID); err != nil {
			return err
		}
	}
	p.pending = &r
	return nil
}

// next takes the queued build, if any: main's first, else the draft's.
func (p *Publisher) next() *releases.Release {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.pending; r != nil {
		p.pending = nil
		return r
	}
	r := p.ahead.queued
	if r != nil {
		p.ahead.queued = nil
		p.ahead.running = r.ID
	}
	return r
}

// build makes release r and, when it is good and nothing says wait, makes
// it live. Whatever fails, the live release keeps serving.
func (p *Publisher) build(ctx context.Context, r releases.Release) {
	start := time.Now()
	r.Status = releases.Building
	err := p.make(ctx, &r, start)
	taken := p.endDraftBuild(&r)
	if err != nil {
		p.failed(ctx, r, start, err)
		return
	}
	p.Log.Info("publish: built", "release", r.ID, "seconds", r.BuildSeconds, "peak_mib", r.BuildPeakMiB, "bytes", r.Size, "draft", r.Preview)
	if r.Preview {
		return // until Publish takes it (ahead.go)
	}
	if taken {
		if err := p.putBuild(&r); err != nil {
			p.Log.Error("publish: recording the draft's release as main's", "release", r.ID, "err", err)
			return
		}
	}
	if p.Observe != nil {
		p.Observe("", r.BuildSeconds, "ready")
	}
	p.goLive(r)
	p.prune()
}

// goLive makes ready release r live, unless Manual says wait for "Make
// live" (Manual publishing still takes an upgrade's rebuild of the live
// content).
func (p *Publisher) goLive(r releases.Release) {
	live, err := p.records().Get(p.Live())
	if !p.Manual || (err == nil && live.Tree == r.Tree) || p.isHeld() {
		if err := p.serve(r.ID, true); err != nil {
			p.Log.Error("publish: switching", "release", r.ID, "err", err)
		}
	}
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
	return p.putBuild(r)
}

// setStage records the stage release r's build has come to.
func (p *Publisher) setStage(r *releases.Release, start time.Time, stage string) {
	r.Stage = stage
	if err := p.putBuild(r); err != nil {
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
		if r.Preview {
			p.records().Remove(r.ID) // the draft's: built again after the start
			return
		}
		os.RemoveAll(client)
		p.Log.Info("publish: a build stopped by the shutdown; main is built again at the next start", "release", r.ID)
		return
	}
	problems := p.problems(err)
	r.Status, r.Stage, r.Problems = releases.Failed, "", problems
	r.BuildSeconds = time.Since(start).Seconds()
	if err := p.putBuild(&r); err != nil {
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

// prune deletes the releases of main past the newest Keep, never the live
// one or one under way.
func (p *Publisher) prune() {
	list, err := p.records().List()
	if err != nil {
		return
	}
	live := p.Live()
	kept := 0
	for _, r := range list {
		if r.Preview {
			continue // dropPreviewReleases's
		}
		if kept++; kept > p.Keep && r.ID != live && r.Status != releases.Queued && r.Status != releases.Building {
			p.Log.Info("publish: an old release is deleted", "release", r.ID)
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
