package releases

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Releases is DATA_DIR/releases: a directory per release and the file
// live, which names the live one.
type Releases struct {
	dir string
	// Logger is told of damaged blobs (replaced); slog's default if nil.
	Logger *slog.Logger
	hashed hashMemo // WriteManifest's
}

// Open opens the releases in dir, making it if needed.
func Open(dir string) (*Releases, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	return &Releases{dir: dir}, nil
}

// Dir is where release id's files are.
func (rs *Releases) Dir(id string) string { return filepath.Join(rs.dir, id) }

// Client and Content are a release's two halves as the server reads them.
func (rs *Releases) Client(id string) fs.FS { return os.DirFS(filepath.Join(rs.dir, id, "client")) }

func (rs *Releases) Content(id string) fs.FS { return os.DirFS(filepath.Join(rs.dir, id, "content")) }

const liveFile = "live"

// Live is the id the live file names, "" when there is none.
func (rs *Releases) Live() (string, error) {
	b, err := os.ReadFile(filepath.Join(rs.dir, liveFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return strings.TrimSpace(string(b)), err
}

// SetLive records id as the live release; a restart serves it.
func (rs *Releases) SetLive(id string) error {
	return writeAtomic(filepath.Join(rs.dir, liveFile), []byte(id+"\n"))
}

const publishRequest = "publish-requested"

// RequestPublish asks the running server to build main now (`studio
// publish`); its publisher takes the request within a second.
func (rs *Releases) RequestPublish() error {
	return writeAtomic(filepath.Join(rs.dir, publishRequest), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
}

// TakePublishRequest says whether RequestPublish asked for a build, and
// clears the request.
func (rs *Releases) TakePublishRequest() bool {
	return os.Remove(filepath.Join(rs.dir, publishRequest)) == nil
}

// Get reads release id's release.json.
func (rs *Releases) Get(id string) (Release, error) {
	if !validID(id) {
		return Release{}, fmt.Errorf("publish: no release %q", id)
	}
	b, err := os.ReadFile(filepath.Join(rs.dir, id, "release.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return Release{}, fmt.Errorf("publish: no release %q", id)
	}
	if err != nil {
		return Release{}, err
	}
	var r Release
	if err := json.Unmarshal(b, &r); err != nil {
		return Release{}, fmt.Errorf("publish: release %s: release.json: %w", id, err)
	}
	return r, nil
}

// Put writes r's release.json, whole or not at all.
func (rs *Releases) Put(r Release) error {
	if err := os.MkdirAll(rs.Dir(r.ID), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(rs.dir, r.ID, "release.json"), b)
}

// List is every release, newest first.
func (rs *Releases) List() ([]Release, error) {
	entries, err := os.ReadDir(rs.dir)
	if err != nil {
		return nil, err
	}
	var list []Release
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		r, err := rs.Get(e.Name())
		if err != nil {
			continue // being made (no release.json yet) or not a release
		}
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].QueuedAt.Equal(list[j].QueuedAt) {
			return list[i].QueuedAt.After(list[j].QueuedAt)
		}
		return list[i].ID > list[j].ID
	})
	return list, nil
}

// Remove deletes release id's directory. A page request that started on it
// and still streams one of its photographs keeps reading it: an open file
// outlives its name.
func (rs *Releases) Remove(id string) error {
	if !validID(id) {
		return fmt.Errorf("publish: no release %q", id)
	}
	return os.RemoveAll(rs.Dir(id))
}

// NewID names a release by when it was queued and its commit, for people
// to read: 20261126-014812-3f9a2c1.
func (rs *Releases) NewID(now time.Time, commit string) string {
	base := now.UTC().Format("20060102-150405") + "-" + commit[:min(7, len(commit))]
	id := base
	for n := 2; ; n++ {
		if _, err := os.Stat(rs.Dir(id)); errors.Is(err, fs.ErrNotExist) {
			return id
		}
		id = fmt.Sprintf("%s-%d", base, n)
	}
}

// validID keeps an id a plain directory name: no path, no dot files.
func validID(id string) bool {
	if id == "" || len(id) > 64 || id[0] == '.' {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func writeAtomic(name string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// Root is the folder of the releases.
func (rs *Releases) Root() string { return rs.dir }

func (rs *Releases) logger() *slog.Logger {
	if rs.Logger == nil {
		return slog.Default()
	}
	return rs.Logger
}

// Size is the bytes of release id's files.
func (rs *Releases) Size(id string) int64 { return dirSize(rs.Dir(id)) }

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// OwnBytes is, for each release, the bytes of its files that no other
// release holds (a file is often a link shared with other releases and the
// build caches): what deleting it frees, the caches' copies within a day,
// when they prune what no release links.
func (rs *Releases) OwnBytes() (map[string]int64, error) {
	type file struct {
		size  int64
		owner string // "" once a second release holds it
	}
	files := map[[2]uint64]*file{}
	entries, err := os.ReadDir(rs.dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		id := e.Name()
		filepath.WalkDir(rs.Dir(id), func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			info, err := d.Info()
			st, ok := info.Sys().(*syscall.Stat_t)
			if err != nil || !ok {
				return nil
			}
			key := [2]uint64{uint64(st.Dev), st.Ino}
			if f := files[key]; f == nil {
				files[key] = &file{size: info.Size(), owner: id}
			} else if f.owner != id {
				f.owner = ""
			}
			return nil
		})
	}
	own := map[string]int64{}
	for _, f := range files {
		if f.owner != "" {
			own[f.owner] += f.size
		}
	}
	return own, nil
}
