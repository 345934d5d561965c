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
	"time"

	shipped "studio/content"
	"studio/internal/publish/publishtest"
)

// TestADamagedBlobIsWrittenAgainFromGit damages the catalogue of one
// exported release through its hard link, which damages the shared blob
// (and every release holding it): the next export finds the blob's bytes
// no longer hash to its name, says so, writes it again from git, and links
// the intact file; the damaged release keeps its damaged bytes.
//
// Either the blob is new, or it is older and the second export remembers
// it intact (checkBlobs): the damage moves its time of last write, so the
// third reads it again all the same.
func TestADamagedBlobIsWrittenAgainFromGit(t *testing.T) {
	t.Parallel()
	for _, d := range publishtest.Damages {
		for _, older := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, older %v", d.Name, older), func(t *testing.T) { damageABlob(t, d.Damage, older) })
		}
	}
}

// damageABlob is one case of TestADamagedBlobIsWrittenAgainFromGit.
func damageABlob(t *testing.T, damageFile func(t *testing.T, file string), older bool) {
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
	first := export("first")
	if older {
		ageBlobs(t, content.Blobs)
	}
	second := export("second")
	if remembered := len(content.checked) > 0; remembered != older {
		t.Fatalf("the second export remembers %d blobs intact; want some: %v", len(content.checked), older)
	}
	if !publishtest.SameFile(t, first, second) {
		t.Fatal("two exports of one commit do not share the catalogue's blob")
	}
	publishtest.ReadOnly(t, first)

	damageFile(t, first)
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
}

// ageBlobs makes every blob of dir written an hour ago, as a cache's are
// by the next build.
func ageBlobs(t testing.TB, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	for _, e := range entries {
		if err := os.Chtimes(filepath.Join(dir, e.Name()), hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
}

// TestABlobUnchangedSinceItsCheckIsNotReadAgain: a blob the last export
// found intact is trusted while its file, size and time of last write are
// the same. Only a write that puts its time back as it was gets past that
// (shown here, by hand): any other write moves it
// (TestADamagedBlobIsWrittenAgainFromGit).
func TestABlobUnchangedSinceItsCheckIsNotReadAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	content, err := Open(filepath.Join(dir, "content.git"), shipped.Files)
	if err != nil {
		t.Fatal(err)
	}
	content.Blobs = filepath.Join(dir, "blobs")
	main, err := content.Main()
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
	export("first")
	ageBlobs(t, content.Blobs)
	second := export("second")
	info, err := os.Stat(second)
	if err != nil {
		t.Fatal(err)
	}
	publishtest.Writable(t, second)
	body := []byte(publishtest.ReadFile(t, second))
	body[len(body)/2] ^= 0x20
	if err := os.WriteFile(second, body, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(second, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if third := export("third"); publishtest.ReadFile(t, third) != string(body) {
		t.Error("the third export read the blob again: its bytes are git's, not the ones written with the time put back")
	}
}

// BenchmarkExportChecksBlobs exports a commit whose 64 MiB of photographs
// are in the blobs already: each is read and hashed (its git hash), on
// every core, then linked ("read": the first export of a process); or,
// last checked by the export before and unchanged since, linked without
// being read ("remembered": each later one). MB/s is the check's speed,
// the figure for a large catalogue's originals (docs/publishing.md).
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
	ageBlobs(b, content.Blobs)
	for _, remembered := range []bool{false, true} {
		b.Run(map[bool]string{false: "read", true: "remembered"}[remembered], func(b *testing.B) {
			b.SetBytes(photos * size)
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				out := filepath.Join(dir, fmt.Sprint(i))
				os.RemoveAll(out)
				if !remembered {
					content.checked = nil
				}
				b.StartTimer()
				if err := content.Export(hash, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
