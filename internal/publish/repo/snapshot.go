package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Snapshots: a content tree written out to be rendered a page at a time
// for the studio's preview of the draft (internal/publish, previews.go).
// Like Export, but of a tree, once (a second ask finds it), and never a
// release: the photographs' originals (images/) are linked from the blobs
// when their size is right, unhashed, as Releases.Verify checks them.

// KeptSnapshots is how many snapshots are kept, the most recently used:
// the draft as it is and the few saves before it.
const KeptSnapshots = 4

// Snapshot writes the files of tree into Snapshots/<tree>/content, unless
// they are there, and returns that folder. A tree holding a symbolic link
// is a *LinkError, as Export's. Older snapshots past KeptSnapshots are
// deleted.
func (r *Repository) Snapshot(tree string) (string, error) {
	if r.Snapshots == "" {
		return "", errors.New("publish: this repository has no folder for snapshots")
	}
	if !plumbing.IsHash(tree) {
		return "", fmt.Errorf("publish: %q is not a tree's hash", tree)
	}
	dir := filepath.Join(r.Snapshots, tree)
	content := filepath.Join(dir, "content")
	if _, err := os.Stat(content); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // used: the last to be deleted
		return content, nil
	}
	// Written aside, then renamed into place whole: a snapshot that is
	// there is complete, and two asks at once leave one.
	tmp := fmt.Sprintf("%s.%d.tmp", dir, time.Now().UnixNano())
	if err := r.exportTree(tree, filepath.Join(tmp, "content")); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(content); statErr == nil {
			return content, nil // made by another ask meanwhile
		}
		return "", err
	}
	r.pruneSnapshots()
	return content, nil
}

// exportTree writes the files of tree into dir.
func (r *Repository) exportTree(hash, dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	tree, err := r.repo.TreeObject(plumbing.NewHash(hash))
	if err != nil {
		return fmt.Errorf("publish: tree %s: %w", hash, err)
	}
	if links, err := symbolicLinks(tree); err != nil {
		return err
	} else if len(links) > 0 {
		return &LinkError{Problems: links}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return r.exportFiles(hash, dir, tree, func(f *object.File) bool { return strings.HasPrefix(f.Name, "images/") })
}

// pruneSnapshots deletes the snapshots past the KeptSnapshots most
// recently used, and what an interrupted one left.
func (r *Repository) pruneSnapshots() {
	entries, err := os.ReadDir(r.Snapshots)
	if err != nil {
		return
	}
	type snapshot struct {
		name string
		used time.Time
	}
	var kept []snapshot
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		if strings.HasSuffix(e.Name(), ".tmp") {
			if time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(filepath.Join(r.Snapshots, e.Name()))
			}
			continue
		}
		kept = append(kept, snapshot{e.Name(), info.ModTime()})
	}
	slices.SortFunc(kept, func(a, b snapshot) int { return b.used.Compare(a.used) })
	for _, s := range kept[min(len(kept), KeptSnapshots):] {
		os.RemoveAll(filepath.Join(r.Snapshots, s.name))
	}
}
