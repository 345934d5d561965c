package publish

import (
	"cmp"
	"time"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// Building the draft ahead of its publishing. The owner saves, looks at
// the preview, and presses Publish: meanwhile the draft's files are built
// into a release of their own, marked Preview (hidden from the list, never
// made live). Publish puts those files on main, and the release built of
// them becomes main's: live at once when it is ready, or as soon as its
// build ends. A release is the same files built by the same code, whatever
// the commit (queueIfNew), so this is the build main would have had.
//
// Main's builds come first: a draft's build waits while one is queued. A
// draft's build under way is not stopped for main's (it would stop the
// renderer mid-step); main's build waits for it, and links the pages it
// rendered. A server that shares its releases with copies (Shared) builds
// only what is published.

// buildDraftAhead queues a build of the draft once it has stayed as saved
// for DraftQuiet (the preview the owner opens after a save comes first:
// both would share the renderer), unless a release of its files is made,
// under way or failed (a draft the check refuses is said by the preview,
// and by Publish).
func (p *Publisher) buildDraftAhead() {
	if p.Shared != nil || !p.Builds() {
		return
	}
	draft, isDraft, err := p.Repo.Draft()
	if err != nil || !isDraft {
		return
	}
	if draft.Hash != p.seenDraft {
		p.seenDraft, p.draftSaved, p.draftTaken = draft.Hash, time.Now(), false
		return
	}
	if p.draftTaken || time.Since(p.draftSaved) < cmp.Or(p.DraftQuiet, 2*time.Second) {
		return
	}
	p.draftTaken = true
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
		return
	}
	for _, r := range list {
		if p.sameBuild(r, draft.Tree) {
			return
		}
	}
	r := releases.Release{ID: p.Releases.NewID(time.Now(), draft.Hash), Commit: draft, CodeVersion: p.CodeVersion, Format: releases.Format,
		Status: releases.Queued, QueuedAt: time.Now(), Preview: true}
	if err := p.records().Put(r); err != nil {
		p.Log.Error("publish: queueing the draft's build", "err", err)
		return
	}
	p.mu.Lock()
	p.ahead.queued = &r
	p.mu.Unlock()
	p.dropOldDrafts(list)
	p.Log.Info("publish: the draft is built ahead of its publishing", "release", r.ID, "commit", draft.Hash)
	p.wakeWorker()
}

// dropOldDrafts deletes the drafts' releases of list that are not the one
// queued or under way: the draft has moved on from them.
func (p *Publisher) dropOldDrafts(list []releases.Release) {
	p.mu.Lock()
	keep := map[string]bool{p.ahead.running: true}
	if p.ahead.queued != nil {
		keep[p.ahead.queued.ID] = true
	}
	p.mu.Unlock()
	for _, r := range list {
		if r.Preview && !keep[r.ID] {
			if err := p.records().Remove(r.ID); err != nil {
				p.Log.Error("publish: deleting an older draft's release", "release", r.ID, "err", err)
			}
		}
	}
}

// takeDraftBuild makes the draft's release of c's files main's release of
// c, when there is one, and says so: served at once when it is ready (as a
// build of c ending is), queued in main's place when it waits, made live
// when its build ends when under way.
func (p *Publisher) takeDraftBuild(c repo.Commit) (string, bool) {
	list, err := p.records().List()
	if err != nil {
		return "", false
	}
	for _, r := range list {
		if !r.Preview || !p.sameBuild(r, c.Tree) || r.Status == releases.Failed {
			continue
		}
		r.Preview, r.Commit = false, c
		p.mu.Lock()
		switch {
		case p.ahead.queued != nil && p.ahead.queued.ID == r.ID:
			p.ahead.queued = nil
			if err := p.pendLocked(r); err != nil {
				p.Log.Error("publish: queueing the draft's release for main", "release", r.ID, "err", err)
			}
		case p.ahead.running == r.ID:
			// Its build records it as main's from its next stage on
			// (putBuild), and makes it live as it ends (endDraftBuild).
			p.ahead.takenFor = &c
			p.mu.Unlock()
			p.Log.Info("publish: main takes the release being built of the draft", "release", r.ID, "commit", c.Hash)
			// Listed as main's now, its record as its build last wrote it.
			p.ahead.writing.Lock()
			defer p.ahead.writing.Unlock()
			if now, err := p.records().Get(r.ID); err == nil {
				now.Preview, now.Commit = false, c
				p.records().Put(now)
			}
			return r.ID, true
		case r.Status != releases.Ready:
			p.mu.Unlock()
			// Built since the list was read, or a build a stop
			// interrupted (Start drops it).
			now, err := p.records().Get(r.ID)
			if err != nil || now.Status != releases.Ready || !now.Preview {
				continue
			}
			r = now
			r.Preview, r.Commit = false, c
			p.mu.Lock()
		}
		p.mu.Unlock()
		if err := p.records().Put(r); err != nil {
			p.Log.Error("publish: taking the draft's release for main", "release", r.ID, "err", err)
			return "", false
		}
		p.Log.Info("publish: main takes the release built of the draft", "release", r.ID, "commit", c.Hash, "status", r.Status)
		if r.Status == releases.Ready {
			p.goLive(r)
		}
		p.wakeWorker()
		return r.ID, true
	}
	return "", false
}

// putBuild records r, a release being built, as main's if Publish took
// it (takeDraftBuild), one writer at a time: takeDraftBuild writes a
// draft's record under way too.
func (p *Publisher) putBuild(r *releases.Release) error {
	p.ahead.writing.Lock()
	defer p.ahead.writing.Unlock()
	p.mu.Lock()
	p.promoteLocked(r)
	p.mu.Unlock()
	return p.records().Put(*r)
}

func (p *Publisher) promoteLocked(r *releases.Release) {
	if p.ahead.running == r.ID && p.ahead.takenFor != nil {
		r.Preview, r.Commit = false, *p.ahead.takenFor
	}
}

// endDraftBuild ends r's build as the draft's under way, with main's
// commit if Publish took it meanwhile (at once: a Publish from now on
// finds it ended, in its record), and says whether it was taken since
// its record was last written.
func (p *Publisher) endDraftBuild(r *releases.Release) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ahead.running != r.ID {
		return false
	}
	was := r.Preview
	p.promoteLocked(r)
	p.ahead.running, p.ahead.takenFor = "", nil
	return was && !r.Preview
}

func (p *Publisher) wakeWorker() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}
