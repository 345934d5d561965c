package repo

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	shipped "studio/content"
	"studio/internal/publish/publishtest"
)

// TestADamagedBlobIsWrittenAgainFromGit damages the catalogue of one
// exported release through its hard link, which damages the shared blob
// (and every release holding it): the next export finds the blob's bytes
// no longer hash to its name, says so, writes it again from git, and links
// the intact file; the damaged release keeps its damaged bytes.
func TestADamagedBlobIsWrittenAgainFromGit(t *testing.T) {
	t.Parallel()
	for _, d := range publishtest.Damages {
		t.Run(d.Name, func(t *testing.T) {
			dir := t.TempDir()
			content, err := Open(filepath.Join(dir, "content.git"), shipped.Files)
			if err != nil {
				t.Fatal(err)
			}
			var log publishtest.LogLines
			content.Blobs = filepath.Join(dir, "blobs")
			content.Logger = slog.New(slog.NewTextHandler(&log, nil))
			main, err := content.Main()
			if err != nil {
				t.Fatal(err)
			}
			want, err := fs.ReadFile(shipped.Files, "catalogue.json")
			if err != nil {
				t.Fatal(err)
			}
			export := func(name string) string {
				t.Helper()
				if err := content.Export(main.Hash, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(dir, name, "catalogue.json")
			}
			first, second := export("first"), export("second")
			if !publishtest.SameFile(t, first, second) {
				t.Fatal("two exports of one commit do not share the catalogue's blob")
			}
			publishtest.ReadOnly(t, first)

			d.Damage(t, first)
			if got, _ := os.ReadFile(second); bytes.Equal(got, want) {
				t.Fatal("the damage did not reach the other export: the test publishtest.Damages nothing shared")
			}
			third := export("third")
			if got := publishtest.ReadFile(t, third); got != string(want) {
				t.Errorf("the export after the damage has a catalogue of %d bytes, want git's %d", len(got), len(want))
			}
			if publishtest.SameFile(t, third, first) {
				t.Error("the export after the damage links the damaged file")
			}
			if got := publishtest.ReadFile(t, first); got == string(want) {
				t.Error("the damaged export was mended in place: its file is still the cache's")
			}
			publishtest.ReadOnly(t, third)
			if !strings.Contains(log.String(), "damaged") || !strings.Contains(log.String(), "catalogue.json") {
				t.Errorf("the log does not name the damaged blob:\n%s", log.String())
			}
			// Intact now, it is linked again without a word.
			before := log.String()
			if fourth := export("fourth"); !publishtest.SameFile(t, fourth, third) {
				t.Error("an intact blob is not shared by the next export")
			}
			if log.String() != before {
				t.Errorf("an intact blob was logged: %s", strings.TrimPrefix(log.String(), before))
			}
		})
	}
}

// BenchmarkExportChecksBlobs exports a commit whose 64 MiB of photographs
// are in the blobs already: each is read and hashed (its git hash), then
// linked. MB/s is the check's speed, the figure for a large catalogue's
// originals (docs/publishing.md).
func BenchmarkExportChecksBlobs(b *testing.B) {
	dir := b.TempDir()
	content, err := Open(filepath.Join(dir, "content.git"), shipped.Files)
	if err != nil {
		b.Fatal(err)
	}
	content.Blobs = filepath.Join(dir, "blobs")
	const photos, size = 16, 4 << 20
	files := map[string][]byte{}
	for i := range photos {
		photo := make([]byte, size)
		for j := range photo {
			photo[j] = byte(j*31 + i*7 + j>>9)
		}
		files[fmt.Sprintf("images/photos/%d.jpg", i)] = photo
	}
	hash, err := content.Commit("", files, nil, Signature{Name: "Bench", Email: "bench@example.com"}, "Photographs")
	if err != nil {
		b.Fatal(err)
	}
	if err := content.Export(hash, filepath.Join(dir, "first")); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(photos * size)
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(dir, fmt.Sprint(i))
		if err := content.Export(hash, out); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(out)
		b.StartTimer()
	}
}
