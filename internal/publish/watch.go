package publish

import (
	"context"
	"fmt"
	"time"
)

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
		p.buildDraftAhead()
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
