// Package publish turns the studio's content into live releases without a
// developer: the content lives in a git repository the server owns
// (DATA_DIR/content.git), each commit on main is built by the front end's
// own pipeline into a release (DATA_DIR/releases/<id>/), and a release that
// passes its checks is switched live whole; any earlier good one can be
// switched back to at once.
package publish

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"
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
	// Logger is told of damaged blobs (written again); slog's default if nil.
	Logger *slog.Logger

	mu   sync.Mutex // go-git's storage is not safe for concurrent use
	repo *git.Repository
	path string
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

// OpenRepository opens the bare repository at dir, making it on first
// start with one commit on main holding seed: the content embedded in
// bin/studio.
func OpenRepository(dir string, seed fs.FS) (*Repository, error) {
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

// setMain points main at commit hash, present in the repository.
func (r *Repository) setMain(hash string) error {
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

// Export writes the files of commit hash into dir, which must not exist.
// A commit holding a symbolic link is refused whole, before anything is
// written, with a *ContentError naming each: written out, a link would be
// a file holding its target's path, or, followed, a way out of the
// content. A submodule is not content, and is left out.
func (r *Repository) Export(hash, dir string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		return fmt.Errorf("publish: commit %s: %w", hash, err)
	}
	tree, err := c.Tree()
	if err != nil {
		return err
	}
	if links, err := symbolicLinks(tree); err != nil {
		return err
	} else if len(links) > 0 {
		return &ContentError{Problems: links}
	}
	if r.Blobs != "" {
		defer r.pruneBlobs()
	}
	// Submodules are not listed.
	return tree.Files().ForEach(func(f *object.File) error { return r.exportFile(hash, dir, f) })
}

// symbolicLinks is the content check's line for each symbolic link of
// tree, found by the tree's entries alone (no file is read).
func symbolicLinks(tree *object.Tree) ([]string, error) {
	var links []string
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			return links, nil
		}
		if err != nil {
			return nil, err
		}
		if entry.Mode == filemode.Symlink {
			links = append(links, fmt.Sprintf("content/%s is a symbolic link: only ordinary files can be published (commit the file itself)", name))
		}
	}
}

// exportFile writes f, a file of commit hash, into dir.
func (r *Repository) exportFile(hash, dir string, f *object.File) error {
	if !fs.ValidPath(f.Name) {
		return fmt.Errorf("publish: commit %.7s: %q is not a path inside the content", hash, f.Name)
	}
	target := filepath.Join(dir, filepath.FromSlash(f.Name))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	if r.Blobs == "" {
		return writeBlob(f, target, 0o644)
	}
	blob := filepath.Join(r.Blobs, f.Hash.String())
	// A blob is shared by every export of it, so one written into
	// through any of them (a release's content/) would reach the next
	// build: it is used only while its bytes still hash to its name.
	if intact, err := blobIntact(blob, f.Hash); !intact {
		if !errors.Is(err, fs.ErrNotExist) {
			r.logger().Warn("publish: a blob of the build cache was damaged; it is written again from git", damage(blob, err, "file", f.Name)...)
		}
		// Read-only: an export's file is the one blob every export
		// shares. Renamed over a damaged one, it leaves the exports
		// that hold the damaged bytes with them.
		tmp := fmt.Sprintf("%s.%d.tmp", blob, time.Now().UnixNano())
		if err := os.MkdirAll(r.Blobs, 0o755); err != nil {
			return err
		}
		if err := writeBlob(f, tmp, 0o444); err != nil {
			os.Remove(tmp)
			return err
		}
		if err := os.Rename(tmp, blob); err != nil {
			return err
		}
	}
	return os.Link(blob, target)
}

// blobIntact says whether the file blob holds the bytes of the git blob
// hash (git names a blob by the SHA-1 of "blob <size>\0" and its bytes),
// and why not when it cannot be read.
func blobIntact(blob string, hash plumbing.Hash) (bool, error) {
	f, err := os.Open(blob)
	if err != nil {
		return false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return false, err
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", info.Size())
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return bytes.Equal(h.Sum(nil), hash[:]), nil
}

// damage is the attributes of a log line about a damaged blob: the blob,
// why it cannot be read when it cannot, and more.
func damage(blob string, err error, more ...any) []any {
	args := append([]any{"blob", blob}, more...)
	if err != nil {
		args = append(args, "err", err)
	}
	return args
}

func (r *Repository) logger() *slog.Logger {
	if r.Logger == nil {
		return slog.Default()
	}
	return r.Logger
}

func writeBlob(f *object.File, target string, mode os.FileMode) error {
	src, err := f.Reader()
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// pruneBlobs deletes the blobs no export has used for a day: those with
// no other link (no release keeps them) whose links last changed a day ago.
func (r *Repository) pruneBlobs() { r.dropUnlinkedBlobs(24 * time.Hour) }

// dropUnlinkedBlobs deletes the blobs no release links whose links last
// changed at least age ago (0: all of them, for a build short of disk).
func (r *Repository) dropUnlinkedBlobs(age time.Duration) {
	if r.Blobs == "" {
		return
	}
	entries, _ := os.ReadDir(r.Blobs)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok || st.Nlink > 1 || time.Since(time.Unix(st.Ctim.Unix())) < age {
			continue
		}
		os.Remove(filepath.Join(r.Blobs, e.Name()))
	}
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

// storeFiles stores the files of fsys as a tree and returns its hash, for
// CommitTree: the embedded content, which the repository may not hold.
func (r *Repository) storeFiles(fsys fs.FS) (string, error) {
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
