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
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
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
	if r.Blobs != "" {
		defer r.pruneBlobs()
	}
	// Submodules are not listed.
	return tree.Files().ForEach(func(f *object.File) error { return r.exportFile(hash, dir, f, false) })
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

// exportFile writes f, a file of commit (or tree) hash, into dir. With
// sizeOnly, a blob of f's size is taken as it is, unhashed (Snapshot's
// photographs' originals).
func (r *Repository) exportFile(hash, dir string, f *object.File, sizeOnly bool) error {
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
	if intact, err := blobUsable(blob, f, sizeOnly); !intact {
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

// blobUsable is blobIntact, or with sizeOnly a look at blob's size alone.
func blobUsable(blob string, f *object.File, sizeOnly bool) (bool, error) {
	if !sizeOnly {
		return blobIntact(blob, f.Hash)
	}
	info, err := os.Stat(blob)
	return err == nil && info.Size() == f.Size, err
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
