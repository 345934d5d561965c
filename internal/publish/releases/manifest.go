package releases

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"studio/internal/filestamp"
)

// A release's files are listed, with their SHA-256 and size, in its
// manifest (DATA_DIR/releases/<id>/files.sha256, one "<sha256> <size>
// <path>" a line, the paths under client/ and content/), written when the
// build ends; release.json records the manifest's own SHA-256, so neither
// changes unnoticed. The list is a file of its own, not a field of
// release.json: a 300-product release has some 15,000 files, and every
// list of the releases reads each release.json.
//
// A release is checked against it (Releases.Verify) before it may go live
// and when a server starts on it: every file it serves hashed, on every
// core, and the photographs' originals in content/images, which nothing
// reads after the build, by their size (a 300-product release's 685 MB of
// them doubled the time of a start); `studio releases --verify` hashes
// every file (VerifyAll). See docs/publishing.md, "Releases are checked".
const manifestFile = "files.sha256"

// A DamageError names the files of a release that are not what its build
// made: changed, missing, or there without being made.
type DamageError struct {
	ID    string
	Files []string // "content/catalogue.json (changed)"
}

func (e *DamageError) Error() string {
	return fmt.Sprintf("publish: release %s is damaged: %s", e.ID, e.Short())
}

// Short is the damaged files as a person reads them, the first few.
func (e *DamageError) Short() string {
	const shown = 3
	s := strings.Join(e.Files[:min(len(e.Files), shown)], ", ")
	if len(e.Files) > shown {
		s += fmt.Sprintf(" and %d more", len(e.Files)-shown)
	}
	return s
}

// WriteManifest lists the files of release id (client/ and content/) in
// its manifest, and returns the manifest's SHA-256.
func (rs *Releases) WriteManifest(id string) (string, error) {
	dir := rs.Dir(id)
	var names []string
	for _, half := range []string{"client", "content"} {
		err := filepath.WalkDir(filepath.Join(dir, half), func(name string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			rel, err := filepath.Rel(dir, name)
			names = append(names, filepath.ToSlash(rel))
			return err
		})
		if err != nil {
			return "", err
		}
	}
	entries, err := rs.hashed.files(dir, names)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %d %s\n", e.hash, e.size, e.path)
	}
	if err := writeAtomic(filepath.Join(dir, manifestFile), b.Bytes()); err != nil {
		return "", err
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

// readManifest reads release directory dir's manifest, checked against
// want, the SHA-256 release.json records.
func readManifest(dir, want string) ([]manifestEntry, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
		return nil, errors.New("changed")
	}
	var entries []manifestEntry
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		hash, rest, _ := strings.Cut(sc.Text(), " ")
		size, path, _ := strings.Cut(rest, " ")
		n, err := strconv.ParseInt(size, 10, 64)
		if err != nil || len(hash) != 64 || !fs.ValidPath(path) {
			return nil, fmt.Errorf("line %q is not \"<sha256> <size> <path>\"", sc.Text())
		}
		entries = append(entries, manifestEntry{path: path, size: n, hash: hash})
	}
	return entries, nil
}

// Verify checks release r's files against its manifest as a switch does:
// every file there, of its size, the files it serves of their hash, and no
// other. A damaged release is a *DamageError naming its files. A release
// built before manifests (no Manifest) is not checked. A file with the
// stamp of one the last manifest written hashed (hashMemo: the same file,
// not written since) is taken at that hash, as that manifest took it: a
// build's switch reads again only the files the build wrote.
func (rs *Releases) Verify(r Release) error { return rs.verify(r, isOriginal, true) }

// VerifyAll is Verify reading every file, the originals too.
func (rs *Releases) VerifyAll(r Release) error { return rs.verify(r, nil, false) }

// isOriginal says whether a release's file is a photograph's original,
// which the build read and nothing serves.
func isOriginal(name string) bool { return strings.HasPrefix(name, "content/images/") }

func (rs *Releases) verify(r Release, sizeOnly func(string) bool, byStamp bool) error {
	if r.Manifest == "" {
		return nil
	}
	dir := rs.Dir(r.ID)
	want, err := readManifest(dir, r.Manifest)
	if err != nil {
		return &DamageError{ID: r.ID, Files: []string{manifestFile + " (" + strings.TrimPrefix(err.Error(), "open "+dir+"/") + ")"}}
	}
	var damaged []string
	var present []string
	listed := make(map[string]manifestEntry, len(want))
	for _, e := range want {
		listed[e.path] = e
	}
	for _, half := range []string{"client", "content"} {
		err := filepath.WalkDir(filepath.Join(dir, half), func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, name)
			rel = filepath.ToSlash(rel)
			if _, ok := listed[rel]; !ok || !d.Type().IsRegular() {
				damaged = append(damaged, rel+" (not made by the build)")
				return nil
			}
			present = append(present, rel)
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			damaged = append(damaged, half+"/ (missing)")
		} else if err != nil {
			return err
		}
	}
	got, err := hashEach(dir, present, func(name, file string) (int64, string, error) {
		info, err := os.Stat(file)
		if err != nil {
			return 0, "", err
		}
		if sizeOnly != nil && sizeOnly(name) {
			return info.Size(), "", nil
		}
		if stamp, ok := filestamp.Of(info); ok && byStamp {
			if hash, known := rs.hashed.known(stamp); known {
				return info.Size(), hash, nil
			}
		}
		sum, err := fileHash(file)
		return info.Size(), hex.EncodeToString(sum), err
	})
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(got))
	for _, g := range got {
		seen[g.path] = true
		if e := listed[g.path]; g.size != e.size || (g.hash != "" && g.hash != e.hash) {
			damaged = append(damaged, g.path+" (changed)")
		}
	}
	for _, e := range want {
		if !seen[e.path] {
			damaged = append(damaged, e.path+" (missing)")
		}
	}
	if len(damaged) == 0 {
		return nil
	}
	sort.Strings(damaged)
	return &DamageError{ID: r.ID, Files: damaged}
}

// Sync makes a built release's files durable before it may go live:
// one syncfs(2) for the file system that holds it (its files, their
// directories), rather than an fsync for each of its thousands of files,
// most of them links to the caches' files that earlier builds wrote.
func (rs *Releases) Sync(id string) error {
	dir := rs.Dir(id)
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := unix.Syncfs(int(d.Fd())); err != nil {
		return fmt.Errorf("publish: syncing release %s: %w", filepath.Base(dir), err)
	}
	return nil
}
