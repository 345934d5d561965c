package repo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// The content repository in a backup is a git bundle (version 2): a header
// naming each branch's commit, then one pack of every object the branches
// reach. `git clone content.bundle` reads it too.

const bundleSignature = "# v2 git bundle\n"

// A Bundle says what a backup of the content repository holds.
type Bundle struct {
	Refs    map[string]string // every branch (refs/heads/main, …) and its commit
	Commits int               // the commits the branches reach
}

// Branches is the branches' short names, sorted: "draft, main".
func (b Bundle) Branches() string {
	var names []string
	for name := range b.Refs {
		names = append(names, plumbing.ReferenceName(name).Short())
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Backup writes every branch of the bare repository at dir, with
// every commit, tree and file they reach, to file (which must not exist),
// synced. A server may be committing meanwhile, from another process: the
// branches are read first and their objects after, and an object is
// always written (whole, by a rename) before a branch names it, so every
// object of the branches read is there; later commits are not in the
// backup, and no object is ever deleted.
func Backup(dir, file string) (Bundle, error) {
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return Bundle{}, fmt.Errorf("publish: no content repository to back up: %w", err)
	}
	// Large files (photographs) are read as they are written out, not held
	// in memory all at once.
	s := filesystem.NewStorageWithOptions(osfs.New(dir), cache.NewObjectLRUDefault(),
		filesystem.Options{LargeObjectThreshold: 1 << 20})
	refs, err := readBranches(s)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: the branches of %s: %w", dir, err)
	}
	main, ok := refs[mainBranch]
	if !ok {
		return Bundle{}, fmt.Errorf("publish: %s has no main branch", dir)
	}
	heads := slices.Collect(maps.Values(refs))
	objects, err := revlist.Objects(s, heads, nil)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: the objects of %s: %w", dir, err)
	}
	commits, err := countCommits(s, heads)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: the commits of %s: %w", dir, err)
	}

	f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: backup: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	w.WriteString(bundleSignature)
	for _, name := range slices.Sorted(maps.Keys(refs)) {
		fmt.Fprintf(w, "%s %s\n", refs[name], name)
	}
	// HEAD, for git: a clone of the bundle checks out main.
	fmt.Fprintf(w, "%s HEAD\n\n", main)
	// No deltas: a photograph has none worth finding, and looking for them
	// would compare every pair of large files.
	if _, err := packfile.NewEncoder(w, s, false).Encode(objects, 0); err != nil {
		return Bundle{}, fmt.Errorf("publish: backup of %s: %w", dir, err)
	}
	if err := w.Flush(); err != nil {
		return Bundle{}, fmt.Errorf("publish: backup: %w", err)
	}
	if err := f.Sync(); err != nil {
		return Bundle{}, fmt.Errorf("publish: backup: %w", err)
	}
	if err := f.Close(); err != nil {
		return Bundle{}, fmt.Errorf("publish: backup: %w", err)
	}
	return Bundle{Refs: refNames(refs), Commits: commits}, nil
}

// readBranches reads every branch (and tag) and checks that its commit is
// there. go-git rewrites a branch's file in place, so a branch read while
// it moves may be empty or cut short: it is read again, for a second at
// most.
func readBranches(s *filesystem.Storage) (map[plumbing.ReferenceName]plumbing.Hash, error) {
	var err error
	for range 50 {
		var refs map[plumbing.ReferenceName]plumbing.Hash
		if refs, err = readBranchesOnce(s); err == nil {
			return refs, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, err
}

func readBranchesOnce(s *filesystem.Storage) (map[plumbing.ReferenceName]plumbing.Hash, error) {
	iter, err := s.IterReferences()
	if err != nil {
		return nil, err
	}
	refs := map[plumbing.ReferenceName]plumbing.Hash{}
	err = iter.ForEach(func(r *plumbing.Reference) error {
		if r.Type() != plumbing.HashReference || !strings.HasPrefix(r.Name().String(), "refs/") {
			return nil // HEAD names main
		}
		if _, err := object.GetCommit(s, r.Hash()); err != nil {
			return fmt.Errorf("%s: commit %s: %w", r.Name(), r.Hash(), err)
		}
		refs[r.Name()] = r.Hash()
		return nil
	})
	return refs, err
}

// Restore makes dir, which must not exist, a bare repository
// holding what the bundle file holds, with the same branches. It checks
// that every object each branch reaches is there and is what its hash
// says, and syncs the repository to disk. On an error it removes dir.
func Restore(file, dir string) (b Bundle, err error) {
	f, err := os.Open(file)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	refs, err := readBundleHeader(r)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: %s is not a backup of the content: %w", file, err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return Bundle{}, fmt.Errorf("publish: %s already exists", dir)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{Bare: true,
		InitOptions: git.InitOptions{DefaultBranch: mainBranch}})
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: making %s: %w", dir, err)
	}
	if err := packfile.UpdateObjectStorage(repo.Storer, r); err != nil {
		return Bundle{}, fmt.Errorf("publish: %s is damaged: its objects: %w", file, err)
	}
	for name, hash := range refs {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(name, hash)); err != nil {
			return Bundle{}, fmt.Errorf("publish: %s: %w", dir, err)
		}
	}
	heads := slices.Collect(maps.Values(refs))
	if err := checkObjects(repo.Storer, heads); err != nil {
		return Bundle{}, fmt.Errorf("publish: %s is damaged: %w", file, err)
	}
	commits, err := countCommits(repo.Storer, heads)
	if err != nil {
		return Bundle{}, fmt.Errorf("publish: %s is damaged: %w", file, err)
	}
	if err := syncAll(dir); err != nil {
		return Bundle{}, fmt.Errorf("publish: %s: %w", dir, err)
	}
	return Bundle{Refs: refNames(refs), Commits: commits}, nil
}

// readBundleHeader reads a bundle's header up to its pack: the branches
// and their commits. A bundle that needs commits it does not hold (git's
// incremental bundles) is not a backup.
func readBundleHeader(r *bufio.Reader) (map[plumbing.ReferenceName]plumbing.Hash, error) {
	sig, err := r.ReadString('\n')
	if err != nil || sig != bundleSignature {
		return nil, errors.New("it does not begin as a git bundle (version 2) does")
	}
	refs := map[plumbing.ReferenceName]plumbing.Hash{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("its list of branches is cut short: %w", err)
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			break
		}
		hash, name, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(hash, "-") || !plumbing.IsHash(hash) {
			return nil, fmt.Errorf("%q is not a branch and its commit", line)
		}
		if name == "HEAD" {
			continue
		}
		if !strings.HasPrefix(name, "refs/") {
			return nil, fmt.Errorf("%q is not a branch", name)
		}
		refs[plumbing.ReferenceName(name)] = plumbing.NewHash(hash)
	}
	if _, ok := refs[mainBranch]; !ok {
		return nil, errors.New("it has no main branch")
	}
	return refs, nil
}

// checkObjects reads every object the commits heads reach and checks its
// hash.
func checkObjects(s storer.EncodedObjectStorer, heads []plumbing.Hash) error {
	objects, err := revlist.Objects(s, heads, nil)
	if err != nil {
		return err
	}
	for _, h := range objects {
		obj, err := s.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return fmt.Errorf("object %s: %w", h, err)
		}
		rd, err := obj.Reader()
		if err != nil {
			return fmt.Errorf("object %s: %w", h, err)
		}
		hasher := plumbing.NewHasher(obj.Type(), obj.Size())
		_, err = io.Copy(hasher, rd)
		rd.Close()
		if err != nil {
			return fmt.Errorf("object %s: %w", h, err)
		}
		if sum := hasher.Sum(); sum != h {
			return fmt.Errorf("object %s holds other bytes (%s)", h, sum)
		}
	}
	return nil
}

// countCommits counts the commits heads reach.
func countCommits(s storer.EncodedObjectStorer, heads []plumbing.Hash) (int, error) {
	seen := map[plumbing.Hash]bool{}
	todo := slices.Clone(heads)
	for len(todo) > 0 {
		h := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := object.GetCommit(s, h)
		if err != nil {
			return 0, fmt.Errorf("commit %s: %w", h, err)
		}
		todo = append(todo, c.ParentHashes...)
	}
	return len(seen), nil
}

// syncAll syncs every file and directory under dir to disk: go-git syncs
// nothing.
func syncAll(dir string) error {
	return filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}

func refNames(refs map[plumbing.ReferenceName]plumbing.Hash) map[string]string {
	names := make(map[string]string, len(refs))
	for name, hash := range refs {
		names[name.String()] = hash.String()
	}
	return names
}
