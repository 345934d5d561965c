package publish

import (
	"context"
	"time"
)

// The publisher's side of Shared: how a copy of the server follows the
// others on one PostgreSQL database.

// shareMainAtStart makes main the same on this copy as on the others: the
// first copy shares its own; a later one takes the shared main.
func (p *Publisher) shareMainAtStart(ctx context.Context) error {
	st, err := p.Shared.State(ctx)
	if err != nil {
		return err
	}
	if st.Main == "" {
		ok, err := p.Shared.PushMain(ctx, p.Repo, "", p.seenMain)
		if err != nil || ok {
			return err
		}
		if st, err = p.Shared.State(ctx); err != nil { // another copy shared first
			return err
		}
	}
	if st.Main != p.seenMain {
		return p.takeSharedMain(ctx, st.Main)
	}
	return nil
}

// shareMain shares the commit main moved to on this copy (a push, the
// editor). When another copy moved main meanwhile, theirs stays main and
// this copy's commit is kept as a branch: nothing is lost.
func (p *Publisher) shareMain(ctx context.Context, hash string) {
	ok, err := p.Shared.PushMain(ctx, p.Repo, p.seenMain, hash)
	if err != nil {
		p.Log.Error("publish: sharing main with the other copies; trying again", "commit", hash, "err", err)
		return
	}
	if ok {
		p.seenMain = hash
		return
	}
	st, err := p.Shared.State(ctx)
	if err == nil {
		err = p.takeSharedMain(ctx, st.Main)
	}
	if err != nil {
		p.Log.Error("publish: taking the shared main", "err", err)
	}
}

// takeSharedMain points this copy's main at the shared commit hash. A local
// commit the shared main does not contain is kept as a branch (not the
// commit of the embedded content every copy makes on its first start).
func (p *Publisher) takeSharedMain(ctx context.Context, hash string) error {
	local, _ := p.Repo.Main()
	if err := p.Shared.FetchCommit(ctx, p.Repo, hash); err != nil {
		return err
	}
	if local.Hash != "" && local.Hash != hash && !(local.Tree == p.embeddedTree && p.Repo.IsFirstCommit(local.Hash)) && !p.Repo.Contains(hash, local.Hash) {
		branch, err := p.Repo.KeepAside(local.Hash)
		if err != nil {
			return err
		}
		p.Log.Warn("publish: another copy moved main at the same time: its commit is main, this copy's is kept as a branch",
			"commit", local.Hash, "branch", branch, "main", hash)
	}
	if err := p.Repo.SetMain(hash); err != nil {
		return err
	}
	p.seenMain = hash
	return nil
}

// followShared brings this copy to the shared state: main, the live
// release, the builder's lock, a build asked for on another copy.
func (p *Publisher) followShared(ctx context.Context) {
	p.lastLook = time.Now()
	st, err := p.Shared.State(ctx)
	if err != nil {
		p.Log.Warn("publish: reading the shared state", "err", err)
		return
	}
	if local, err := p.Repo.Main(); err == nil && st.Main != "" && st.Main != p.seenMain && local.Hash == p.seenMain {
		if err := p.takeSharedMain(ctx, st.Main); err != nil {
			p.Log.Error("publish: taking the shared main", "commit", st.Main, "err", err)
		} else if main, err := p.Repo.Main(); err == nil {
			p.Log.Info("publish: main moved on another copy", "commit", main.Hash, "message", main.Message, "author", main.Author)
			p.queueIfNew(main)
		}
	}
	if st.Live != "" && st.Live != p.Live() {
		p.switching.Lock()
		err := p.switchTo(st.Live, false)
		if err == nil {
			err = p.setLiveFile(st.Live) // so a restart serves it, and the live file does not switch back
			p.dropReleasesGone()
		}
		p.switching.Unlock()
		if err != nil && p.unservable != st.Live { // tried again at each look, said once
			p.Log.Error("publish: the release live on the other copies cannot be served here; this copy keeps its own", "release", st.Live, "err", err)
		}
		p.unservable = ""
		if err != nil {
			p.unservable = st.Live
		}
	}
	p.tryToBuild(ctx)
	if p.Builds() && st.PublishAsked && p.Shared.TakePublishRequest(ctx) {
		if _, err := p.Publish(); err != nil {
			p.Log.Error("publish: a build asked for on another copy", "err", err)
		}
	}
}

// tryToBuild makes this copy the one that builds when it has the builder
// and takes the lock, and notices when it has lost it.
func (p *Publisher) tryToBuild(ctx context.Context) {
	if p.Builder == nil {
		return
	}
	was := p.Builds()
	now := p.Shared.TryBuild(ctx)
	p.mu.Lock()
	p.builds = now
	p.mu.Unlock()
	switch {
	case now && !was:
		p.Log.Info("publish: this copy builds for every copy (it holds the builder's lock)")
		p.dropInterrupted() // the builds of a copy that stopped
		if main, err := p.Repo.Main(); err == nil {
			p.queueIfNew(main)
		}
	case was && !now:
		p.Log.Warn("publish: this copy no longer holds the builder's lock; another copy builds")
	}
}

// dropReleasesGone deletes this copy's directories of the releases the
// copy that builds has deleted, and the files only they held.
func (p *Publisher) dropReleasesGone() {
	list, err := p.Shared.List()
	if err != nil {
		return
	}
	keep := map[string]bool{p.Live(): true}
	for _, r := range list {
		keep[r.ID] = true
	}
	p.Releases.RemoveAllBut(keep)
}
