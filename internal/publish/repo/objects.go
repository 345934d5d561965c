package repo

import (
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// The objects of commits, one by one, for the copies of the server that
// share main through their database (publish.Shared).

// An Object is a git object as it is stored: its hash, kind and bytes.
type Object struct {
	Hash string
	Kind int // plumbing.ObjectType
	Body []byte
}

// Objects calls each with every object commit hash reaches that commit
// old (""; none) does not: what sharing hash on top of old adds.
func (r *Repository) Objects(old, hash string, each func(Object) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ignore []plumbing.Hash
	if old != "" {
		ignore = append(ignore, plumbing.NewHash(old))
	}
	objects, err := revlist.Objects(r.repo.Storer, []plumbing.Hash{plumbing.NewHash(hash)}, ignore)
	if err != nil {
		return fmt.Errorf("publish: the objects of commit %s: %w", hash, err)
	}
	for _, h := range objects {
		obj, err := r.repo.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return err
		}
		rd, err := obj.Reader()
		if err != nil {
			return err
		}
		body, err := io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return err
		}
		if err := each(Object{Hash: h.String(), Kind: int(obj.Type()), Body: body}); err != nil {
			return err
		}
	}
	return nil
}

// FetchCommit stores the objects of commit hash the repository lacks,
// each read by get. An object is stored only after every object it names,
// so a fetch stopped halfway leaves nothing dangling.
func (r *Repository) FetchCommit(hash string, get func(hash string) (Object, error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.repo.Storer
	var later []plumbing.EncodedObject // commits and trees, stored last, the first found last
	want := []plumbing.Hash{plumbing.NewHash(hash)}
	seen := map[plumbing.Hash]bool{}
	for len(want) > 0 {
		h := want[len(want)-1]
		want = want[:len(want)-1]
		if seen[h] || st.HasEncodedObject(h) == nil {
			continue
		}
		seen[h] = true
		o, err := get(h.String())
		if err != nil {
			return fmt.Errorf("publish: the shared content's object %s: %w", h, err)
		}
		obj, names, err := decodeObject(st, o)
		if err != nil {
			return err
		}
		if obj.Type() == plumbing.BlobObject {
			if _, err := st.SetEncodedObject(obj); err != nil {
				return err
			}
			continue
		}
		want = append(want, names...)
		later = append(later, obj)
	}
	for i := len(later) - 1; i >= 0; i-- {
		if _, err := st.SetEncodedObject(later[i]); err != nil {
			return err
		}
	}
	return nil
}

// decodeObject makes o an object of st, and names the objects it names: a
// commit's tree and parents, a tree's files and folders.
func decodeObject(st storer.EncodedObjectStorer, o Object) (plumbing.EncodedObject, []plumbing.Hash, error) {
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.ObjectType(o.Kind))
	w, err := obj.Writer()
	if err != nil {
		return nil, nil, err
	}
	if _, err := w.Write(o.Body); err != nil {
		return nil, nil, err
	}
	w.Close()
	var names []plumbing.Hash
	switch obj.Type() {
	case plumbing.CommitObject:
		c, err := object.DecodeCommit(st, obj)
		if err != nil {
			return nil, nil, err
		}
		names = append(append(names, c.TreeHash), c.ParentHashes...)
	case plumbing.TreeObject:
		t, err := object.DecodeTree(st, obj)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range t.Entries {
			if e.Mode.IsFile() || e.Mode == filemode.Dir {
				names = append(names, e.Hash)
			}
		}
	}
	return obj, names, nil
}
