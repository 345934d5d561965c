package publish

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// Serving a release: at start, on a switch, and what a damaged one gives way to.

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

// dropPreviewReleases deletes at start the releases built of a draft
// (ahead.go; an older server's previews too): the draft is built again,
// if it is still there, at the first look.
func (p *Publisher) dropPreviewReleases() {
	list, err := p.records().List()
	if err != nil {
		p.Log.Error("publish: reading the releases", "err", err)
		return
	}
	for _, r := range list {
		if r.Preview {
			p.Log.Info("publish: a release built of a draft before the start is deleted", "release", r.ID)
			if err := p.records().Remove(r.ID); err != nil {
				p.Log.Error("publish: deleting a release built of a draft", "release", r.ID, "err", err)
			}
		}
	}
}

// Load reads release id as the server serves it, fetching its files first
// when another copy built it: the switch's.
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
