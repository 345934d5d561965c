package releases

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"studio/internal/filestamp"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// Hashing a release's files, for its manifest (manifest.go): on every
// core, and, for a new release, only those whose stamp the last manifest
// did not hash (hashMemo).

type manifestEntry struct {
	path string // slash-separated, under the release directory: client/index.html
	size int64
	hash string // hex SHA-256
}

// hashEach is the entry hash makes of each file names (slash paths under
// dir), made on every core, sorted by path.
func hashEach(dir string, names []string, hash func(name, file string) (int64, string, error)) ([]manifestEntry, error) {
	entries := make([]manifestEntry, len(names))
	errs := make([]error, len(names)) // each file's, all said
	var g errgroup.Group
	g.SetLimit(runtime.NumCPU())
	for j, name := range names {
		g.Go(func() error {
			entries[j].path = name
			entries[j].size, entries[j].hash, errs[j] = hash(name, filepath.Join(dir, filepath.FromSlash(name)))
			return nil
		})
	}
	g.Wait()
	sort.Slice(entries, func(a, b int) bool { return entries[a].path < entries[b].path })
	return entries, errors.Join(errs...)
}

// hashMemo is what the last manifest hashed, by each file's stamp
// (package filestamp). A new release shares most of its files with the
// one before, by hard link (the blobs of its content, its pictures, the
// pages the build did not render again): those are not read again, a
// 300-product release's 971 MB taking a look at each file's stamp.
type hashMemo struct {
	mu     sync.Mutex
	hashes map[filestamp.Stamp]string
}

// files hashes names (slash paths under dir), those of a stamp it knows
// from the last call excepted, and remembers them for the next.
func (m *hashMemo) files(dir string, names []string) ([]manifestEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	read := time.Now()
	var found sync.Map // filestamp.Stamp → hash, of this call
	entries, err := hashEach(dir, names, func(_, file string) (int64, string, error) {
		info, err := os.Stat(file)
		if err != nil {
			return 0, "", err
		}
		stamp, ok := filestamp.Of(info)
		if hash, known := m.hashes[stamp]; ok && known {
			found.Store(stamp, hash)
			return info.Size(), hash, nil
		}
		size, hash, err := hashOne(file)
		if err == nil && ok && stamp.SettledBy(read) && size == info.Size() {
			found.Store(stamp, hash)
		}
		return size, hash, err
	})
	m.hashes = map[filestamp.Stamp]string{}
	found.Range(func(k, v any) bool {
		m.hashes[k.(filestamp.Stamp)] = v.(string)
		return true
	})
	return entries, err
}

// known is the hash the last manifest found for a file of this stamp.
func (m *hashMemo) known(stamp filestamp.Stamp) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	hash, ok := m.hashes[stamp]
	return hash, ok
}

// hashOne is a file's size and SHA-256 (fileHash), in hex.
func hashOne(name string) (int64, string, error) {
	info, err := os.Stat(name)
	if err != nil {
		return 0, "", err
	}
	sum, err := fileHash(name)
	return info.Size(), hex.EncodeToString(sum), err
}

func fileHash(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
