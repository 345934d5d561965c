package publish

import (
	"context"
	"errors"
	"fmt"
	"time"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// Undo that lasts: making an earlier release live (Rollback) also makes
// its content main's again, by one new commit, so the next publish starts
// from what is live and the history keeps everything.

// Shell is who a rollback from the shell (`studio rollback`) is by.
var Shell = repo.Signature{Name: "studio", Email: "studio@localhost"}

// CommitBackTo makes main's files those of release id by one commit,
// "Back to the version of 28 Nov 20:19 (Meena)", by who, and returns it:
// "" when main has those files already. Unpublished changes stay
// unpublished, on top of it (Repository.CommitTree). It switches nothing:
// Rollback does both; `studio rollback` with no server running calls it
// alone.
func (p *Publisher) CommitBackTo(id string, who repo.Signature) (string, error) {
	var tree, message string
	if id == EmbeddedID {
		var err error
		if tree, err = p.Repo.StoreFiles(p.Embedded.Content); err != nil {
			return "", fmt.Errorf("publish: storing the embedded content: %w", err)
		}
		message = "Back to the content as shipped in bin/studio"
	} else {
		r, err := p.records().Get(id)
		if err != nil {
			return "", err
		}
		if p.Shared != nil { // built on another copy, from a commit this copy may not have
			if err := p.Shared.FetchCommit(context.Background(), p.Repo, r.Commit.Hash); err != nil {
				return "", err
			}
		}
		tree, message = r.Tree, BackToMessage(r.Commit, p.Repo.Location(r.Commit.Hash))
	}
	// Main may move between reading it and the commit (a publish): the
	// way back is made on top of whatever main is then.
	for range 3 {
		main, err := p.Repo.Main()
		if err != nil {
			return "", err
		}
		hash, err := p.Repo.CommitTree(main.Hash, tree, who, message)
		if errors.Is(err, repo.ErrMainMoved) {
			continue
		}
		if err == nil && hash != "" {
			p.Log.Info("publish: main is back to the content of a release", "release", id, "commit", hash, "message", message, "author", who.Name)
		}
		return hash, err
	}
	return "", repo.ErrMainMoved
}

// BackToMessage is the message of the commit that takes main back to
// commit c: "Back to the version of 28 Nov 20:19 (Meena)", its time in
// loc, the site's time zone.
func BackToMessage(c repo.Commit, loc *time.Location) string {
	return fmt.Sprintf("Back to the version of %s (%s)", c.When.In(loc).Format("2 Jan 15:04"), c.Author)
}

// answerRollback does a rollback `studio rollback` asked for, if it did,
// and leaves the answer.
func (p *Publisher) answerRollback() {
	id, ok := p.Releases.TakeRollbackRequest()
	if !ok {
		return
	}
	a := releases.RollbackAnswer{Release: id}
	var err error
	if a.Commit, err = p.Rollback(a.Release, Shell); err != nil {
		a.Error = err.Error()
		p.Log.Error("publish: studio rollback", "release", a.Release, "err", err)
	} else if a.Commit != "" {
		if c, err := p.Repo.Main(); err == nil && c.Hash == a.Commit {
			a.Message = c.Message
		}
	}
	if err := p.Releases.AnswerRollback(a); err != nil {
		p.Log.Error("publish: answering studio rollback", "err", err)
	}
}
