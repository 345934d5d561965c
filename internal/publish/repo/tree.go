package repo

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Git trees made from files, in any object store.

// readTree reads every file of fsys, by slash-separated path.
func readTree(fsys fs.FS) (map[string][]byte, error) {
	files := make(map[string][]byte)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		files[name] = b
		return err
	})
	return files, err
}

// TreeHash is the hash git gives a tree of the files of fsys: equal to a
// commit's Tree when that commit holds exactly those files.
func TreeHash(fsys fs.FS) (string, error) {
	files, err := readTree(fsys)
	if err != nil {
		return "", err
	}
	s := memory.NewStorage()
	tree := make(map[string]treeFile, len(files))
	for name, content := range files {
		hash, err := storeBlob(s, content)
		if err != nil {
			return "", err
		}
		tree[name] = treeFile{mode: filemode.Regular, hash: hash}
	}
	hash, err := writeTree(s, tree, "")
	return hash.String(), err
}

func storeBlob(s storer.EncodedObjectStorer, content []byte) (plumbing.Hash, error) {
	obj := s.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(content); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}

type treeFile struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// writeTree stores the tree of the files under dir ("" for the root) and
// those below it, and returns its hash.
func writeTree(s storer.EncodedObjectStorer, files map[string]treeFile, dir string) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	subdirs := map[string]bool{}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for name, f := range files {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		rest := name[len(prefix):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			subdirs[rest[:i]] = true
			continue
		}
		entries = append(entries, object.TreeEntry{Name: rest, Mode: f.mode, Hash: f.hash})
	}
	for sub := range subdirs {
		hash, err := writeTree(s, files, path.Join(dir, sub))
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: sub, Mode: filemode.Dir, Hash: hash})
	}
	// Git's order: by name, a directory's as if it ended in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	obj := s.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.SetEncodedObject(obj)
}
