// Package repo is the content as a git repository the server owns
// (DATA_DIR/content.git, go-git: no git binary): main, whose commits are
// built and made live, the editor's draft and its merge onto main, the
// exports a build reads, the objects copies of the server share, and the
// bundle a backup holds.
package repo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"

	"studio/internal/filestamp"
	"studio/internal/sitecontent"
)

// mainBranch is the branch whose commits are built and made live.
const mainBranch = plumbing.ReferenceName("refs/heads/main")

// A Repository is the content as a bare git repository: what content/
// holds in the source tree, images included. The server commits to it (the
// workspace's editor) and a person with access to the server may push to
// its main; go-git reads and writes it, so the server needs no git binary.
type Repository struct {
	// Blobs, when set, is a folder of the content's files by their git
	// hash, shared by the exports: each file is written out once, and every
	// export of it is a hard link (a 300-product catalogue's 685 MB of
	// photographs took 11 s to write out for each build, and as much disk
	// for each release kept).
	Blobs string
	// Snapshots is where Snapshot writes trees out for previews
	// (snapshot.go); "" when this server makes none.
	Snapshots string
	// Logger is told of damaged blobs (written again); slog's default if nil.
	Logger *slog.Logger

	mu   sync.Mutex // go-git's storage is not safe for concurrent use
	repo *git.Repository
	path string
	// checked holds the blobs the exports found intact, as they were
	// then (checkBlobs); under mu.
	checked map[plumbing.Hash]filestamp.Stamp
}

// A Commit is what a release says of the content it was built from.
type Commit struct {
	Hash    string    `json:"commit"`
	Tree    string    `json:"tree"` // the files' hash: two commits of the same files build the same release
	Message string    `json:"message"`
	Author  string    `json:"author"`
	When    time.Time `json:"committedAt"`
}

// Subject is the commit message's first line, as lists show it.
func (c Commit) Subject() string {
	line, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "(no message)"
	}
	return line
}

// Open opens the bare repository at dir, making it on first
// start with one commit on main holding seed: the content embedded in
// bin/studio.
func Open(dir string, seed fs.FS) (*Repository, error) {
	repo, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		repo, err = git.PlainInitWithOptions(dir, &git.PlainInitOptions{Bare: true,
			InitOptions: git.InitOptions{DefaultBranch: mainBranch}})
		if err != nil {
			return nil, fmt.Errorf("publish: making %s: %w", dir, err)
		}
		r := &Repository{repo: repo, path: dir}
		files, err := readTree(seed)
		if err != nil {
			return nil, fmt.Errorf("publish: reading the embedded content: %w", err)
		}
		if _, err := r.Commit("", files, nil, Signature{Name: "studio", Email: "studio@localhost"}, "The content as shipped in bin/studio"); err != nil {
			return nil, err
		}
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("publish: opening %s: %w", dir, err)
	}
	r := &Repository{repo: repo, path: dir}
	if err := r.addShippedLater(seed); err != nil {
		return nil, err
	}
	if err := r.updateSchemaWords(seed); err != nil {
		return nil, err
	}
	return r, nil
}

// shippedLater are content files that came with a later bin/studio than
// the first: a repository made before has not got them.
var shippedLater = []string{"replies.json", "schema/replies.schema.json"}

// addShippedLater commits to main the files of shippedLater that seed has
// and main lacks, so an older repository gets them; a file the studio has
// (or changed) is left as it is.
func (r *Repository) addShippedLater(seed fs.FS) error {
	main, err := r.Main()
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, name := range shippedLater {
		if _, err := r.ReadFile(main.Hash, name); !errors.Is(err, object.ErrFileNotFound) {
			continue // there, or unreadable (which the next read will say)
		}
		if b, err := fs.ReadFile(seed, name); err == nil {
			files[name] = b
		}
	}
	if len(files) == 0 {
		return nil
	}
	_, err = r.Commit(main.Hash, files, nil, Signature{Name: "studio", Email: "studio@localhost"}, "New files shipped in bin/studio: "+strings.Join(slices.Sorted(maps.Keys(files)), ", "))
	return err
}

// updateSchemaWords commits to main seed's schemas (schema/*.json) whose
// words alone (their titles and descriptions: the workspace's labels and
// hints) differ from main's, so an older repository's forms say what this
// bin/studio's say. A schema whose rules differ is left as it is: its
// fields are those of the content it checks.
func (r *Repository) updateSchemaWords(seed fs.FS) error {
	names, err := fs.Glob(seed, "schema/*.json")
	if err != nil || len(names) == 0 {
		return err
	}
	main, err := r.Main()
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, name := range names {
		have, err := r.ReadFile(main.Hash, name)
		if err != nil {
			continue // missing (addShippedLater's), or unreadable (the next read says)
		}
		shipped, err := fs.ReadFile(seed, name)
		if err == nil && !bytes.Equal(have, shipped) && sameRules(have, shipped) {
			files[name] = shipped
		}
	}
	if len(files) == 0 {
		return nil
	}
	_, err = r.Commit(main.Hash, files, nil, Signature{Name: "studio", Email: "studio@localhost"}, "The forms' labels and hints, as this version of the server has them")
	return err
}

// sameRules says whether two schemas differ at most in their words: every
// "title" and "description" that is text.
func sameRules(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(withoutWords(x), withoutWords(y))
}

func withoutWords(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, item := range v {
			if _, text := item.(string); text && (k == "title" || k == "description") {
				continue
			}
			out[k] = withoutWords(item)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = withoutWords(item)
		}
		return out
	}
	return v
}

// Main is the commit main points at.
func (r *Repository) Main() (Commit, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, err := r.repo.Reference(mainBranch, true)
	if err != nil {
		return Commit{}, fmt.Errorf("publish: %s has no main branch: %w", r.path, err)
	}
	return r.commit(ref.Hash())
}

// SetMain points main at commit hash, present in the repository.
func (r *Repository) SetMain(hash string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.repo.Storer.SetReference(plumbing.NewHashReference(mainBranch, plumbing.NewHash(hash)))
}

func (r *Repository) commit(hash plumbing.Hash) (Commit, error) {
	c, err := r.repo.CommitObject(hash)
	if err != nil {
		return Commit{}, fmt.Errorf("publish: commit %s: %w", hash, err)
	}
	return commitOf(c), nil
}

// commitOf is what a release says of a git commit.
func commitOf(c *object.Commit) Commit {
	return Commit{Hash: c.Hash.String(), Tree: c.TreeHash.String(), Message: strings.TrimSpace(c.Message), Author: c.Author.Name, When: c.Author.When}
}

// A Signature names who made a commit.
type Signature struct{ Name, Email string }

// ErrMainMoved is Commit's answer when main moved since the caller read it.
var ErrMainMoved = errors.New("publish: main has moved on since this change was started")

// Commit makes a commit on main: its tree is main's with files written over
// it (path → content) and removed taken away. Given base, the commit the
// change was made on, it fails with ErrMainMoved if main is elsewhere now;
// and it never loses a commit made meanwhile by someone else.
func (r *Repository) Commit(base string, files map[string][]byte, removed []string, who Signature, message string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, err := r.repo.Reference(mainBranch, true)
	if base != "" && (err != nil || old.Hash().String() != base) {
		return "", ErrMainMoved
	}
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		old = nil
	case err != nil:
		return "", err
	}
	parent := plumbing.ZeroHash
	if old != nil {
		parent = old.Hash()
	}
	return r.commitOn(mainBranch, parent, old, files, removed, who, message)
}

// commitOn makes a commit whose parent is parent (zero: the first commit)
// and points branch at it, unless branch is no longer old (nil: it must
// not exist yet), when it is ErrMainMoved. The caller holds r.mu.
func (r *Repository) commitOn(branch plumbing.ReferenceName, parent plumbing.Hash, old *plumbing.Reference, files map[string][]byte, removed []string, who Signature, message string) (string, error) {
	s := r.repo.Storer
	var parents []plumbing.Hash
	tree := map[string]treeFile{}
	if !parent.IsZero() {
		parents = []plumbing.Hash{parent}
		var err error
		if tree, err = r.treeFiles(parent); err != nil {
			return "", err
		}
	}
	if old == nil {
		if _, err := r.repo.Reference(branch, false); err == nil {
			return "", ErrMainMoved
		}
	}
	for _, name := range removed {
		delete(tree, name)
	}
	for name, content := range files {
		if !fs.ValidPath(name) || name == "." {
			return "", fmt.Errorf("publish: %q is not a path inside the content", name)
		}
		hash, err := storeBlob(s, content)
		if err != nil {
			return "", err
		}
		tree[name] = treeFile{mode: filemode.Regular, hash: hash}
	}
	root, err := writeTree(s, tree, "")
	if err != nil {
		return "", err
	}
	sig := object.Signature{Name: who.Name, Email: who.Email, When: time.Now()}
	hash, err := r.storeCommit(root, parents, sig, sig, message)
	if err != nil {
		return "", err
	}
	if err := s.CheckAndSetReference(plumbing.NewHashReference(branch, hash), old); err != nil {
		if errors.Is(err, storage.ErrReferenceHasChanged) {
			return "", ErrMainMoved
		}
		return "", err
	}
	return hash.String(), nil
}

// storeCommit stores a commit of tree root and returns its hash; no branch
// points at it yet. The caller holds r.mu.
func (r *Repository) storeCommit(root plumbing.Hash, parents []plumbing.Hash, author, committer object.Signature, message string) (plumbing.Hash, error) {
	commit := &object.Commit{Author: author, Committer: committer, Message: message, TreeHash: root, ParentHashes: parents}
	obj := r.repo.Storer.NewEncodedObject()
	if err := commit.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}

// StoreFiles stores the files of fsys as a tree and returns its hash, for
// CommitTree: the embedded content, which the repository may not hold.
func (r *Repository) StoreFiles(fsys fs.FS) (string, error) {
	files, err := readTree(fsys)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	tree := make(map[string]treeFile, len(files))
	for name, content := range files {
		hash, err := storeBlob(r.repo.Storer, content)
		if err != nil {
			return "", err
		}
		tree[name] = treeFile{mode: filemode.Regular, hash: hash}
	}
	hash, err := writeTree(r.repo.Storer, tree, "")
	return hash.String(), err
}

// treeFiles is every file of commit hash, by path.
func (r *Repository) treeFiles(hash plumbing.Hash) (map[string]treeFile, error) {
	c, err := r.repo.CommitObject(hash)
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	files := map[string]treeFile{}
	err = t.Files().ForEach(func(f *object.File) error {
		files[f.Name] = treeFile{mode: f.Mode, hash: f.Hash}
		return nil
	})
	return files, err
}

// ReadFile is the file name of commit hash; fs.ErrNotExist-like errors
// when it has none.
func (r *Repository) ReadFile(hash, name string) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		return nil, fmt.Errorf("publish: commit %s: %w", hash, err)
	}
	f, err := c.File(name)
	if err != nil {
		return nil, fmt.Errorf("publish: %s in commit %.7s: %w", name, hash, err)
	}
	contents, err := f.Contents()
	return []byte(contents), err
}

// Log is the newest n commits from hash back, following first parents.
func (r *Repository) Log(hash string, n int) ([]Commit, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var list []Commit
	c, err := r.repo.CommitObject(plumbing.NewHash(hash))
	for err == nil && len(list) < n {
		list = append(list, commitOf(c))
		if c.NumParents() == 0 {
			return list, nil
		}
		c, err = c.Parent(0)
	}
	return list, err
}

// KeepAside names commit hash refs/heads/unshared-<time>, so a commit
// that lost the race for main is not lost, and returns the branch's name.
func (r *Repository) KeepAside(hash string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := plumbing.ReferenceName("refs/heads/unshared-" + time.Now().UTC().Format("20060102-150405"))
	return name.Short(), r.repo.Storer.SetReference(plumbing.NewHashReference(name, plumbing.NewHash(hash)))
}

// Location is the time zone the site.json of commit hash names, UTC when
// it names none that loads.
func (r *Repository) Location(hash string) *time.Location {
	var site sitecontent.Site
	b, err := r.ReadFile(hash, "site.json")
	if err == nil && json.Unmarshal(b, &site) == nil {
		if loc, err := time.LoadLocation(site.TimeZone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// IsFirstCommit says whether commit hash has no parent.
func (r *Repository) IsFirstCommit(hash string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.repo.CommitObject(plumbing.NewHash(hash))
	return err == nil && c.NumParents() == 0
}

// Contains says whether commit descends from (or is) ancestor.
func (r *Repository) Contains(commit, ancestor string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, err := r.repo.CommitObject(plumbing.NewHash(ancestor))
	if err != nil {
		return false
	}
	c, err := r.repo.CommitObject(plumbing.NewHash(commit))
	if err != nil {
		return false
	}
	ok, err := a.IsAncestor(c)
	return err == nil && ok
}
