package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	shipped "studio/content"
	"studio/internal/publish/publishtest"
)

// snapshotRepo is the shipped content with a photograph's original, its
// blobs written out by an export.
func snapshotRepo(t *testing.T) (*Repository, Commit) {
	t.Helper()
	dir := t.TempDir()
	r, err := Open(filepath.Join(dir, "content.git"), shipped.Files)
	if err != nil {
		t.Fatal(err)
	}
	r.Blobs, r.Snapshots = filepath.Join(dir, "blobs"), filepath.Join(dir, "snapshots")
	hash, err := r.Commit("", map[string][]byte{"images/products/new.jpg": []byte("JPEG original bytes")}, nil, Signature{Name: "Owner", Email: "owner@example.com"}, "A photograph")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Export(hash, filepath.Join(dir, "export")); err != nil {
		t.Fatal(err)
	}
	c, err := r.Main()
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

// overwrite replaces file's bytes with as many others.
func overwrite(t *testing.T, file string) {
	t.Helper()
	publishtest.Writable(t, file)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Repeat("x", len(b))), 0o444); err != nil {
		t.Fatal(err)
	}
}

func TestASnapshotIsTheTreeWrittenOutOnce(t *testing.T) {
	t.Parallel()
	r, c := snapshotRepo(t)
	dir, err := r.Snapshot(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(r.Snapshots, c.Tree, "content") {
		t.Errorf("the snapshot is in %s", dir)
	}
	if tree, _ := TreeHash(os.DirFS(dir)); tree != c.Tree {
		t.Errorf("the snapshot holds tree %s, want %s", tree, c.Tree)
	}
	// Asked again, it is the one written before, not written again.
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := r.Snapshot(c.Tree); err != nil || again != dir {
		t.Fatalf("asked again: %s, %v", again, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("asked again, the snapshot was written again")
	}
	for _, bad := range []string{"", "../etc", "main", strings.Repeat("z", 40)} {
		if _, err := r.Snapshot(bad); err == nil {
			t.Errorf("a snapshot of %q was made", bad)
		}
	}
}

// An original is taken from the blobs by its size, as Releases.Verify
// checks it; any other file is hashed, as Export does.
func TestASnapshotChecksTheOriginalsBySizeOnly(t *testing.T) {
	t.Parallel()
	r, c := snapshotRepo(t)
	photo := filepath.Join(r.Blobs, blobHash(t, r, c, "images/products/new.jpg"))
	catalogue := filepath.Join(r.Blobs, blobHash(t, r, c, "catalogue.json"))
	overwrite(t, photo)
	overwrite(t, catalogue)
	dir, err := r.Snapshot(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	if got := publishtest.ReadFile(t, filepath.Join(dir, "images/products/new.jpg")); strings.Trim(got, "x") != "" {
		t.Errorf("the original of the right size was written again from git (%q): it was hashed", got)
	}
	if got := publishtest.ReadFile(t, filepath.Join(dir, "catalogue.json")); strings.Trim(got, "x") == "" {
		t.Error("a damaged catalogue was linked into the snapshot: it was not hashed")
	}
}

func blobHash(t *testing.T, r *Repository, c Commit, name string) string {
	t.Helper()
	files, err := r.treeFiles(plumbing.NewHash(c.Hash))
	if err != nil {
		t.Fatal(err)
	}
	return files[name].hash.String()
}

func TestOnlyTheLastSnapshotsAreKept(t *testing.T) {
	t.Parallel()
	r, _ := snapshotRepo(t)
	var trees []string
	for i := range KeptSnapshots + 2 {
		hash, err := r.Commit("", map[string][]byte{"note.txt": []byte(strings.Repeat("n", i+1))}, nil, Signature{Name: "Owner", Email: "owner@example.com"}, "A note")
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.commit(plumbing.NewHash(hash))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Snapshot(c.Tree); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, c.Tree)
	}
	entries, err := os.ReadDir(r.Snapshots)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, e := range entries {
		kept = append(kept, e.Name())
	}
	if len(kept) != KeptSnapshots {
		t.Errorf("kept %v, want the last %d", kept, KeptSnapshots)
	}
	for _, gone := range trees[:2] {
		if _, err := os.Stat(filepath.Join(r.Snapshots, gone)); err == nil {
			t.Errorf("the snapshot of %s, among the oldest, is still there", gone)
		}
	}
}
