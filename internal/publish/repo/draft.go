package repo

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
)

// The draft: the workspace's editor saves each change as a commit on the
// branch "draft", started from main; Publish puts the draft on main (where
// it is built and made live like any commit) and Discard drops it. Until
// then the live site is untouched.

const draftBranch = plumbing.ReferenceName("refs/heads/draft")

// ErrDraftMoved is SaveDraft's answer when someone saved (or published, or
// discarded) since the change was started: nothing was saved.
var ErrDraftMoved = errors.New("publish: the content has changed since this change was started")

// A ConflictError is PublishDraft's answer when main changed the same files
// as the draft since the draft began (a developer's push): nothing moved.
type ConflictError struct{ Files []string }

func (e *ConflictError) Error() string {
	return "publish: main changed " + strings.Join(e.Files, ", ") + " since the draft began"
}

// Draft is the commit the editor works on: the draft's newest, or main's
// when nothing is unpublished (draft false).
func (r *Repository) Draft() (c Commit, draft bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, err := r.head()
	if err != nil {
		return Commit{}, false, err
	}
	c, err = r.commit(ref.Hash())
	return c, ref.Name() == draftBranch, err
}

// head is the draft's reference, or main's when there is no draft.
func (r *Repository) head() (*plumbing.Reference, error) {
	ref, err := r.repo.Reference(draftBranch, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		ref, err = r.repo.Reference(mainBranch, true)
	}
	if err != nil {
		return nil, fmt.Errorf("publish: %s: %w", r.path, err)
	}
	return ref, nil
}

// SaveDraft commits files (path → content) and removed onto the draft,
// starting it from main if there is none. base is the commit Draft gave
// when the change was started: if the draft is elsewhere now the answer is
// ErrDraftMoved and nothing is saved.
func (r *Repository) SaveDraft(base string, files map[string][]byte, removed []string, who Signature, message string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, err := r.head()
	if err != nil {
		return "", err
	}
	if ref.Hash().String() != base {
		return "", ErrDraftMoved
	}
	var expected *plumbing.Reference // the draft's ref as it must still be: none yet when starting from main
	if ref.Name() == draftBranch {
		expected = ref
	}
	hash, err := r.commitOn(draftBranch, ref.Hash(), expected, files, removed, who, message)
	if errors.Is(err, ErrMainMoved) {
		return "", ErrDraftMoved
	}
	return hash, err
}

// Unpublished is the draft's commits that main does not have, newest first.
func (r *Repository) Unpublished() ([]Commit, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	draft, main, fork, err := r.draftAndMain()
	if err != nil || draft == nil {
		return nil, err
	}
	var list []Commit
	for c := draft; c.Hash != fork.Hash && c.Hash != main.Hash; {
		list = append(list, commitOf(c))
		if c.NumParents() == 0 {
			break
		}
		if c, err = c.Parent(0); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// draftAndMain reads the draft's newest commit (nil: no draft), main's,
// and the commit the draft began from. The caller holds r.mu.
func (r *Repository) draftAndMain() (draft, main, fork *object.Commit, err error) {
	mainRef, err := r.repo.Reference(mainBranch, true)
	if err != nil {
		return nil, nil, nil, err
	}
	if main, err = r.repo.CommitObject(mainRef.Hash()); err != nil {
		return nil, nil, nil, err
	}
	ref, err := r.repo.Reference(draftBranch, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, main, main, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if draft, err = r.repo.CommitObject(ref.Hash()); err != nil {
		return nil, nil, nil, err
	}
	bases, err := draft.MergeBase(main)
	if err != nil || len(bases) == 0 {
		return nil, nil, nil, fmt.Errorf("publish: the draft and main share no commit: %w", err)
	}
	return draft, main, bases[0], nil
}

// PublishDraft puts the draft on main and drops it, returning main's new
// commit (main's own when there was nothing to publish). When main moved
// since the draft began, the draft's changed files are written over main
// in one commit by who, unless main changed one of them too (a
// *ConflictError: nothing moves).
func (r *Repository) PublishDraft(who Signature) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	draft, main, fork, err := r.draftAndMain()
	if err != nil {
		return "", err
	}
	mainRef := plumbing.NewHashReference(mainBranch, main.Hash)
	hash := main.Hash.String()
	switch {
	case draft == nil || draft.Hash == fork.Hash:
		// nothing unpublished
	case fork.Hash == main.Hash:
		// Main is where the draft began: main takes the draft's commits.
		if err := r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(mainBranch, draft.Hash), mainRef); err != nil {
			return "", err
		}
		hash = draft.Hash.String()
	default:
		files, removed, conflicts, err := r.replay(fork, draft, main)
		if err != nil {
			return "", err
		}
		if len(conflicts) > 0 {
			return "", &ConflictError{Files: conflicts}
		}
		content := map[string][]byte{}
		for name, h := range files {
			blob, err := r.repo.BlobObject(h)
			if err != nil {
				return "", err
			}
			if content[name], err = readBlob(blob); err != nil {
				return "", err
			}
		}
		if hash, err = r.commitOn(mainBranch, main.Hash, mainRef, content, removed, who, "Published the draft"); err != nil {
			return "", err
		}
	}
	if draft != nil {
		if err := r.repo.Storer.RemoveReference(draftBranch); err != nil {
			return "", err
		}
	}
	return hash, nil
}

// replay is what the draft changed since fork (files written, by blob, and
// files removed), and which of those main changed too.
func (r *Repository) replay(fork, draft, main *object.Commit) (map[string]plumbing.Hash, []string, []string, error) {
	before, err := r.treeFiles(fork.Hash)
	if err != nil {
		return nil, nil, nil, err
	}
	after, err := r.treeFiles(draft.Hash)
	if err != nil {
		return nil, nil, nil, err
	}
	theirs, err := r.treeFiles(main.Hash)
	if err != nil {
		return nil, nil, nil, err
	}
	written := map[string]plumbing.Hash{}
	var removed, conflicts []string
	for name, f := range after {
		if before[name] != f {
			written[name] = f.hash
			if theirs[name] != before[name] && theirs[name] != f {
				conflicts = append(conflicts, name)
			}
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			removed = append(removed, name)
			if _, ok := theirs[name]; ok && theirs[name] != before[name] {
				conflicts = append(conflicts, name)
			}
		}
	}
	slices.Sort(conflicts)
	return written, removed, conflicts, nil
}

// DiscardDraft drops the draft: the editor starts again from main.
func (r *Repository) DiscardDraft() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.repo.Storer.RemoveReference(draftBranch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil
	}
	return err
}

func readBlob(b *object.Blob) ([]byte, error) {
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	buf := make([]byte, b.Size)
	_, err = io.ReadFull(rd, buf)
	return buf, err
}

// CommitTree makes a commit on main whose files are exactly those of tree
// (a tree in the repository, an earlier commit's): the way back to an
// earlier version that keeps the history. base is main as the caller read
// it: if main is elsewhere now the answer is ErrMainMoved. When main's
// files are tree's already nothing is made and the answer is "". The
// unpublished changes, if any, stay unpublished on top of the new commit
// (moveDraft).
func (r *Repository) CommitTree(base, tree string, who Signature, message string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, err := r.repo.Reference(mainBranch, true)
	if err != nil {
		return "", fmt.Errorf("publish: %s has no main branch: %w", r.path, err)
	}
	if old.Hash().String() != base {
		return "", ErrMainMoved
	}
	main, err := r.repo.CommitObject(old.Hash())
	if err != nil {
		return "", fmt.Errorf("publish: commit %s: %w", base, err)
	}
	if main.TreeHash.String() == tree {
		return "", nil
	}
	if _, err := r.repo.TreeObject(plumbing.NewHash(tree)); err != nil {
		return "", fmt.Errorf("publish: the files %s are not in %s: %w", tree, r.path, err)
	}
	sig := object.Signature{Name: who.Name, Email: who.Email, When: time.Now()}
	hash, err := r.storeCommit(plumbing.NewHash(tree), []plumbing.Hash{old.Hash()}, sig, sig, message)
	if err != nil {
		return "", err
	}
	if err := r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(mainBranch, hash), old); err != nil {
		if errors.Is(err, storage.ErrReferenceHasChanged) {
			return "", ErrMainMoved
		}
		return "", err
	}
	if err := r.moveDraft(main, hash); err != nil {
		return hash.String(), fmt.Errorf("publish: main is back to the earlier version, but the unpublished changes could not be moved on top of it: %w", err)
	}
	return hash.String(), nil
}

// moveDraft puts the draft's commits since it began from main (was, main
// before CommitTree moved it) on top of main's new commit onto: each
// commit again, with its message and author, holding the files it changed,
// so the unpublished changes stay unpublished and publishing them does not
// bring back what main left behind. A commit whose changes onto has already
// is left out; when none is left, there is no draft. The caller holds r.mu.
func (r *Repository) moveDraft(was *object.Commit, onto plumbing.Hash) error {
	ref, err := r.repo.Reference(draftBranch, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	draft, err := r.repo.CommitObject(ref.Hash())
	if err != nil {
		return err
	}
	bases, err := draft.MergeBase(was)
	if err != nil || len(bases) == 0 {
		return fmt.Errorf("publish: the draft and main share no commit: %w", err)
	}
	var commits []*object.Commit // the draft's own, newest first
	for c := draft; c.Hash != bases[0].Hash && c.NumParents() > 0; {
		commits = append(commits, c)
		if c, err = c.Parent(0); err != nil {
			return err
		}
	}
	tree, err := r.treeFiles(onto)
	if err != nil {
		return err
	}
	head, headTree := onto, plumbing.ZeroHash
	if c, err := r.repo.CommitObject(onto); err == nil {
		headTree = c.TreeHash
	}
	for _, c := range slices.Backward(commits) {
		before, err := r.treeFiles(c.ParentHashes[0])
		if err != nil {
			return err
		}
		after, err := r.treeFiles(c.Hash)
		if err != nil {
			return err
		}
		for name, f := range after {
			if before[name] != f {
				tree[name] = f
			}
		}
		for name := range before {
			if _, ok := after[name]; !ok {
				delete(tree, name)
			}
		}
		root, err := writeTree(r.repo.Storer, tree, "")
		if err != nil {
			return err
		}
		if root == headTree {
			continue
		}
		committer := c.Committer
		committer.When = time.Now()
		if head, err = r.storeCommit(root, []plumbing.Hash{head}, c.Author, committer, c.Message); err != nil {
			return err
		}
		headTree = root
	}
	if head == onto {
		return r.repo.Storer.RemoveReference(draftBranch)
	}
	return r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(draftBranch, head), ref)
}
