package releases

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"syscall"
	"time"
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
	errs := make([]error, len(names))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(names) {
					return
				}
				entries[j].path = names[j]
				entries[j].size, entries[j].hash, errs[j] = hash(names[j], filepath.Join(dir, filepath.FromSlash(names[j])))
			}
		}()
	}
	wg.Wait()
	sort.Slice(entries, func(a, b int) bool { return entries[a].path < entries[b].path })
	return entries, errors.Join(errs...)
}

// hashMemo is what the last manifest hashed, by each file's stamp
// (device, inode, size, time of last write). A new release shares most of
// its files with the one before, by hard link (the blobs of its content,
// its pictures, the pages the build did not render again): those are not
// read again, a 300-product release's 971 MB taking a look at each file's
// stamp. A write into a file, through any of its links, moves its time of
// last write, so it is hashed again; a file written within a second of
// its hashing is not remembered, a write in the same tick of the clock
// being possible.
type hashMemo struct {
	mu     sync.Mutex
	hashes map[fileStamp]string
}

type fileStamp struct {
	dev, ino uint64
	size     int64
	written  int64 // nanoseconds
}

func stampOf(info fs.FileInfo) (fileStamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: info.Size(), written: info.ModTime().UnixNano()}, true
}

// files hashes names as hashFiles does, those of a stamp it knows from
// the last call excepted, and remembers them for the next.
func (m *hashMemo) files(dir string, names []string) ([]manifestEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	settled := time.Now().Add(-time.Second).UnixNano()
	var found sync.Map // fileStamp → hash, of this call
	entries, err := hashEach(dir, names, func(_, file string) (int64, string, error) {
		info, err := os.Stat(file)
		if err != nil {
			return 0, "", err
		}
		stamp, ok := stampOf(info)
		if hash, known := m.hashes[stamp]; ok && known {
			found.Store(stamp, hash)
			return info.Size(), hash, nil
		}
		size, hash, err := hashOne(file)
		if err == nil && ok && stamp.written < settled && size == info.Size() {
			found.Store(stamp, hash)
		}
		return size, hash, err
	})
	m.hashes = map[fileStamp]string{}
	found.Range(func(k, v any) bool {
		m.hashes[k.(fileStamp)] = v.(string)
		return true
	})
	return entries, err
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
