package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"studio/internal/sitecontent"
)

// Undo that lasts: making an earlier release live (Rollback) also makes
// its content main's again, by one new commit, so the next publish starts
// from what is live and the history keeps everything.

// Shell is who a rollback from the shell (`studio rollback`) is by.
var Shell = Signature{Name: "studio", Email: "studio@localhost"}

// CommitBackTo makes main's files those of release id by one commit,
// "Back to the version of 28 Nov 20:19 (Meena)", by who, and returns it:
// "" when main has those files already. Unpublished changes stay
// unpublished, on top of it (Repository.CommitTree). It switches nothing:
// Rollback does both; `studio rollback` with no server running calls it
// alone.
func (p *Publisher) CommitBackTo(id string, who Signature) (string, error) {
	var tree, message string
	if id == EmbeddedID {
		var err error
		if tree, err = p.Repo.storeFiles(p.Embedded.Content); err != nil {
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
		tree, message = r.Tree, BackToMessage(r.Commit, p.Repo.location(r.Commit.Hash))
	}
	// Main may move between reading it and the commit (a publish): the
	// way back is made on top of whatever main is then.
	for range 3 {
		main, err := p.Repo.Main()
		if err != nil {
			return "", err
		}
		hash, err := p.Repo.CommitTree(main.Hash, tree, who, message)
		if errors.Is(err, ErrMainMoved) {
			continue
		}
		if err == nil && hash != "" {
			p.Log.Info("publish: main is back to the content of a release", "release", id, "commit", hash, "message", message, "author", who.Name)
		}
		return hash, err
	}
	return "", ErrMainMoved
}

// BackToMessage is the message of the commit that takes main back to
// commit c: "Back to the version of 28 Nov 20:19 (Meena)", its time in
// loc, the site's time zone.
func BackToMessage(c Commit, loc *time.Location) string {
	return fmt.Sprintf("Back to the version of %s (%s)", c.When.In(loc).Format("2 Jan 15:04"), c.Author)
}

// location is the time zone the site.json of commit hash names, UTC when
// it names none that loads.
func (r *Repository) location(hash string) *time.Location {
	var site sitecontent.Site
	b, err := r.ReadFile(hash, "site.json")
	if err == nil && json.Unmarshal(b, &site) == nil {
		if loc, err := time.LoadLocation(site.TimeZone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// A RollbackAnswer is what the running server did with `studio rollback`'s
// request.
type RollbackAnswer struct {
	Release string `json:"release"`
	Commit  string `json:"commit,omitempty"`  // main's new commit; "" when main had the release's files already
	Message string `json:"message,omitempty"` // its message
	Error   string `json:"error,omitempty"`   // why it was refused: then nothing changed
}

const (
	rollbackRequest = "rollback-requested"
	rollbackAnswer  = "rollback-answer"
)

// RequestRollback asks the running server to make release id live and its
// content main's (`studio rollback`); its publisher takes the request
// within a second and leaves its answer for TakeRollbackAnswer.
func (rs *Releases) RequestRollback(id string) error {
	os.Remove(filepath.Join(rs.dir, rollbackAnswer)) // an answer to an earlier request
	return writeAtomic(filepath.Join(rs.dir, rollbackRequest), []byte(id+"\n"))
}

// TakeRollbackAnswer reads and removes the server's answer to
// RequestRollback; ok false while there is none yet.
func (rs *Releases) TakeRollbackAnswer() (a RollbackAnswer, ok bool, err error) {
	name := filepath.Join(rs.dir, rollbackAnswer)
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false, nil
	}
	if err != nil {
		return a, false, err
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return a, false, fmt.Errorf("publish: %s: %w", name, err)
	}
	return a, true, os.Remove(name)
}

// answerRollback does a rollback `studio rollback` asked for, if it did,
// and leaves the answer.
func (p *Publisher) answerRollback() {
	b, err := os.ReadFile(filepath.Join(p.Releases.dir, rollbackRequest))
	if err != nil {
		return
	}
	os.Remove(filepath.Join(p.Releases.dir, rollbackRequest))
	a := RollbackAnswer{Release: strings.TrimSpace(string(b))}
	if a.Commit, err = p.Rollback(a.Release, Shell); err != nil {
		a.Error = err.Error()
		p.Log.Error("publish: studio rollback", "release", a.Release, "err", err)
	} else if a.Commit != "" {
		if c, err := p.Repo.Main(); err == nil && c.Hash == a.Commit {
			a.Message = c.Message
		}
	}
	out, _ := json.Marshal(a)
	if err := writeAtomic(filepath.Join(p.Releases.dir, rollbackAnswer), out); err != nil {
		p.Log.Error("publish: answering studio rollback", "err", err)
	}
}
