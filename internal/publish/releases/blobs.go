package releases

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The blobs of this copy: DATA_DIR/releases/.blobs/<sha256>, the files of
// its releases hard-linked to them, so a file common to two releases is
// fetched and kept once. The copies of the server on one PostgreSQL
// database fill them (publish.Shared): the copy that builds from its own
// releases' files, the others from the database.

func (rs *Releases) blobPath(hash []byte) string {
	return filepath.Join(rs.dir, ".blobs", hex.EncodeToString(hash))
}

// Files lists release id's files (client/, content/ and its list of files)
// by slash path, with their SHA-256, and links each into the blobs.
func (rs *Releases) Files(id string) (paths []string, hashes [][]byte, err error) {
	dir := rs.Dir(id)
	keep := func(name string) error {
		hash, err := fileHash(name)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, name)
		paths, hashes = append(paths, filepath.ToSlash(rel)), append(hashes, hash)
		return rs.keepBlob(name, hash)
	}
	for _, half := range []string{"client", "content"} {
		err := filepath.WalkDir(filepath.Join(dir, half), func(name string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			return keep(name)
		})
		if err != nil {
			return nil, nil, fmt.Errorf("publish: reading release %s: %w", id, err)
		}
	}
	// The list of its files too, so each copy checks its own (manifest.go).
	if err := keep(filepath.Join(dir, manifestFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("publish: reading release %s: %w", id, err)
	}
	return paths, hashes, nil
}

// ReadFile reads the file path (slash-separated) of release id, checked
// against its SHA-256 hash, as Files listed it.
func (rs *Releases) ReadFile(id, path string, hash []byte) ([]byte, error) {
	body, err := os.ReadFile(filepath.Join(rs.Dir(id), filepath.FromSlash(path)))
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], hash) {
		return nil, fmt.Errorf("publish: release %s: %s changed while it was stored", id, path)
	}
	return body, nil
}

// Has says whether release id's files are on this copy: built here, or
// fetched before.
func (rs *Releases) Has(id string) bool {
	_, err := os.Stat(filepath.Join(rs.Dir(id), "client"))
	return err == nil
}

// MissingBlobs is those of hashes whose blob this copy lacks or holds
// damaged: the blobs are used only while their bytes still hash to their
// names, as a release's file written into would be another's too.
func (rs *Releases) MissingBlobs(hashes [][]byte) ([][]byte, error) {
	if err := os.MkdirAll(filepath.Join(rs.dir, ".blobs"), 0o755); err != nil {
		return nil, err
	}
	var missing [][]byte
	seen := map[string]bool{}
	for _, h := range hashes {
		if seen[string(h)] {
			continue
		}
		seen[string(h)] = true
		if intact, err := rs.blobIntact(h); !intact {
			if !errors.Is(err, fs.ErrNotExist) {
				rs.logger().Warn("publish: a shared blob was damaged; it is fetched again", damage(rs.blobPath(h), err)...)
			}
			missing = append(missing, h)
		}
	}
	return missing, nil
}

// WriteBlob stores body as the blob of hash, read-only, once it is sure
// body hashes to it.
func (rs *Releases) WriteBlob(hash, body []byte) error {
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], hash) {
		return fmt.Errorf("the database's copy of file %x does not hash to its name", hash)
	}
	if err := writeAtomic(rs.blobPath(hash), body); err != nil {
		return err
	}
	return os.Chmod(rs.blobPath(hash), 0o444)
}

// Assemble makes release r's directory of its files (slash path → the
// SHA-256 of a blob this copy has), each a link to its blob, and its
// release.json. The directory appears whole or not at all.
func (rs *Releases) Assemble(r Release, files map[string][]byte) error {
	tmp, err := os.MkdirTemp(rs.dir, ".fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for p, h := range files {
		if !fs.ValidPath(p) {
			return fmt.Errorf("publish: release %s: a file outside the release: %q", r.ID, p)
		}
		name := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.Link(rs.blobPath(h), name); err != nil {
			return fmt.Errorf("publish: release %s: %s: %w", r.ID, p, err)
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, "release.json"), b, 0o644); err != nil {
		return err
	}
	os.RemoveAll(rs.Dir(r.ID)) // a directory left without its release.json
	return os.Rename(tmp, rs.Dir(r.ID))
}

// keepBlob links file, whose SHA-256 is hash, into the blobs, read-only,
// when they lack its bytes; a blob whose bytes no longer hash to its name
// is replaced (the releases holding it keep the damaged bytes).
func (rs *Releases) keepBlob(file string, hash []byte) error {
	blob := rs.blobPath(hash)
	intact, err := rs.blobIntact(hash)
	if intact {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		rs.logger().Warn("publish: a shared blob was damaged; it is replaced", damage(blob, err)...)
	}
	if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(file, 0o444); err != nil {
		return err
	}
	// Linked under a temporary name, then renamed over a damaged blob.
	tmp := filepath.Join(filepath.Dir(blob), fmt.Sprintf(".tmp-%x-%d", hash, time.Now().UnixNano()))
	if err := os.Link(file, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, blob); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// blobIntact says whether this copy's blob of hash holds bytes whose
// SHA-256 is hash, and why not when it cannot be read.
func (rs *Releases) blobIntact(hash []byte) (bool, error) {
	sum, err := fileHash(rs.blobPath(hash))
	if err != nil {
		return false, err
	}
	return bytes.Equal(sum, hash), nil
}

// DropUnusedBlobs deletes the blobs no release of this copy links to.
func (rs *Releases) DropUnusedBlobs() {
	entries, _ := os.ReadDir(filepath.Join(rs.dir, ".blobs"))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink == 1 && !strings.HasPrefix(e.Name(), ".tmp-") {
				os.Remove(filepath.Join(rs.dir, ".blobs", e.Name()))
			}
		}
	}
}

// RemoveAllBut deletes the directories of the releases keep does not
// name, and the blobs only they held.
func (rs *Releases) RemoveAllBut(keep map[string]bool) {
	entries, _ := os.ReadDir(rs.dir)
	for _, e := range entries {
		if e.IsDir() && validID(e.Name()) && !keep[e.Name()] {
			rs.Remove(e.Name())
		}
	}
	rs.DropUnusedBlobs()
}

// damage is the attributes of a log line about a damaged blob: the blob,
// and why it cannot be read when it cannot.
func damage(blob string, err error) []any {
	args := []any{"blob", blob}
	if err != nil {
		args = append(args, "err", err)
	}
	return args
}
