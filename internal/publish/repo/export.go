package repo

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"studio/internal/filestamp"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/sync/errgroup"
)

// A LinkError is Export's answer for a commit holding symbolic links: one
// line per link, as the content check prints its problems.
type LinkError struct{ Problems []string }

func (e *LinkError) Error() string {
	return fmt.Sprintf("%d problem(s) in the content: %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// Export writes the files of commit hash into dir, which must not exist.
// A commit holding a symbolic link is refused whole, before anything is
// written, with a *LinkError naming each: written out, a link would be
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
		return &LinkError{Problems: links}
	}
	return r.exportFiles(hash, dir, tree, nil)
}

// exportFiles writes the files of tree (of commit or tree hash) into dir,
// each linked from its blob once checked (checkBlobs); a blob sizeOnly
// says yes to is checked by its size alone.
func (r *Repository) exportFiles(hash, dir string, tree *object.Tree, sizeOnly func(*object.File) bool) error {
	// Submodules are not listed.
	var files []*object.File
	if err := tree.Files().ForEach(func(f *object.File) error { files = append(files, f); return nil }); err != nil {
		return err
	}
	var checks map[plumbing.Hash]blobCheck
	if r.Blobs != "" {
		defer r.pruneBlobs()
		checks = r.checkBlobs(files, sizeOnly)
	}
	for _, f := range files {
		if err := r.exportFile(hash, dir, f, checks); err != nil {
			return err
		}
	}
	return nil
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

// exportFile writes f, a file of commit hash, into dir: linked from its
// blob when checks (by hash) found it intact.
func (r *Repository) exportFile(hash, dir string, f *object.File, checks map[plumbing.Hash]blobCheck) error {
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
	if check := checks[f.Hash]; !check.intact {
		if !errors.Is(check.err, fs.ErrNotExist) {
			r.logger().Warn("publish: a blob of the build cache was damaged; it is written again from git", damage(blob, check.err, "file", f.Name)...)
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
		checks[f.Hash] = blobCheck{intact: true} // another file of the same bytes links it
	}
	return os.Link(blob, target)
}

// A blobCheck is what checking a blob found: whether its bytes hash to
// its name, why not when it cannot be read, and the file as it was then.
type blobCheck struct {
	intact  bool
	err     error
	stamp   filestamp.Stamp
	stamped bool // stamp is known
}

// checkBlobs checks the blob of each hash of files, on every core (a
// 300-product catalogue's 685 MB took 1.2-1.5 s on one). A blob this
// process found intact in an export is not read again while its stamp is
// the same (package filestamp). A blob of a file sizeOnly says
// yes to (a preview's photographs) is taken when it has the file's size.
func (r *Repository) checkBlobs(files []*object.File, sizeOnly func(*object.File) bool) map[plumbing.Hash]blobCheck {
	var hashes []plumbing.Hash
	checks := map[plumbing.Hash]blobCheck{}
	for _, f := range files {
		if _, ok := checks[f.Hash]; ok {
			continue
		}
		if sizeOnly != nil && sizeOnly(f) {
			info, err := os.Stat(filepath.Join(r.Blobs, f.Hash.String()))
			checks[f.Hash] = blobCheck{intact: err == nil && info.Size() == f.Size, err: err}
			continue
		}
		checks[f.Hash] = blobCheck{}
		hashes = append(hashes, f.Hash)
	}
	found := make([]blobCheck, len(hashes))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, h := range hashes {
		g.Go(func() error {
			found[i] = r.checkBlob(filepath.Join(r.Blobs, h.String()), h)
			return nil
		})
	}
	g.Wait()
	read := time.Now()
	if r.checked == nil {
		r.checked = map[plumbing.Hash]filestamp.Stamp{}
	}
	for i, h := range hashes {
		checks[h] = found[i]
		if found[i].intact && found[i].stamped && found[i].stamp.SettledBy(read) {
			r.checked[h] = found[i].stamp
		} else {
			delete(r.checked, h)
		}
	}
	return checks
}

// checkBlob says whether the file blob holds the bytes of the git blob
// hash (git names a blob by the SHA-1 of "blob <size>\0" and its bytes),
// and why not when it cannot be read; without reading it when the last
// export found it intact and it is unchanged since.
func (r *Repository) checkBlob(blob string, hash plumbing.Hash) blobCheck {
	if info, err := os.Stat(blob); err == nil {
		if now, ok := filestamp.Of(info); ok && r.checked[hash] == now {
			return blobCheck{intact: true, stamp: now, stamped: true}
		}
	}
	f, err := os.Open(blob)
	if err != nil {
		return blobCheck{err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return blobCheck{err: err}
	}
	stamp, stamped := filestamp.Of(info)
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", info.Size())
	if _, err := io.Copy(h, f); err != nil {
		return blobCheck{err: err}
	}
	return blobCheck{intact: bytes.Equal(h.Sum(nil), hash[:]), stamp: stamp, stamped: stamped}
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
func (r *Repository) pruneBlobs() { r.DropUnlinkedBlobs(24 * time.Hour) }

// DropUnlinkedBlobs deletes the blobs no release links whose links last
// changed at least age ago (0: all of them, for a build short of disk).
func (r *Repository) DropUnlinkedBlobs(age time.Duration) {
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
