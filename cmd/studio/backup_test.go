package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"studio/content"
	"studio/internal/backup"
	"studio/internal/datadir"
	"studio/internal/publish/repo"
	"studio/internal/store"
)

// The content edited while the server runs (a photograph published on
// main, a text in the draft) is in `studio backup`, and `studio restore`
// into a new machine's DATA_DIR brings it back: the server starts there
// with the same main and draft.
func TestBackupRestoresTheContent(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=")
	server := launch(t, base, append(env, "DATA_DIR="+dataDir))
	t.Cleanup(func() {
		if server.ProcessState == nil {
			server.Process.Kill()
			server.Wait()
		}
	})

	// Edited as the workspace does, from this process while the server
	// runs on the same repository.
	contentRepo, err := repo.Open(datadir.Dir(dataDir).Repository(), content.Files)
	if err != nil {
		t.Fatal(err)
	}
	photo := make([]byte, 200<<10)
	rand.Read(photo)
	main, err := contentRepo.Main()
	if err != nil {
		t.Fatal(err)
	}
	published, err := contentRepo.Commit(main.Hash, map[string][]byte{"images/backup-chair.jpg": photo}, nil, repo.Signature{Name: "Meena", Email: "meena@example.com"}, "A new photograph")
	if err != nil {
		t.Fatal(err)
	}
	draft, err := contentRepo.SaveDraft(published, map[string][]byte{"pages/backup-note.md": []byte("Not yet published")}, nil, repo.Signature{Name: "Meena", Email: "meena@example.com"}, "A note")
	if err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "studio-backup")
	cmd := exec.Command(binary, "backup", path)
	cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "(branches draft, main)") {
		t.Fatalf("backup while serving: %v\n%s, want the branches draft and main", err, out)
	}
	server.Process.Signal(syscall.SIGTERM)
	server.Wait()

	fresh := filepath.Join(t.TempDir(), "new-machine")
	cmd = exec.Command(binary, "restore", path)
	cmd.Env = append(os.Environ(), "DATA_DIR="+fresh, "DATABASE_URL=")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "the first start builds the restored main") {
		t.Fatalf("restore into a new DATA_DIR: %v\n%s", err, out)
	}
	// This server has no builder (BUILDER_DIR): the restored main cannot
	// be built, and the shipped content is never shown in its place.
	server = launch(t, base, append(env, "DATA_DIR="+fresh))
	for path, want := range map[string]string{"/readyz": "no release of the content has been built yet", "/": "Back in a minute"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), want) {
			t.Errorf("%s of the server on the restored DATA_DIR, with no builder: %d %s, want 503 saying %q", path, resp.StatusCode, body, want)
		}
	}
	server.Process.Signal(syscall.SIGTERM)
	server.Wait()

	restored, err := repo.Open(datadir.Dir(fresh).Repository(), content.Files)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := restored.Main(); err != nil || got.Hash != published {
		t.Errorf("restored main: %s, %v; want the commit published before the backup, %s", got.Hash, err, published)
	}
	if got, isDraft, err := restored.Draft(); err != nil || !isDraft || got.Hash != draft {
		t.Errorf("restored draft: %s (a draft: %v), %v; want %s", got.Hash, isDraft, err, draft)
	}
	if got, err := restored.ReadFile(published, "images/backup-chair.jpg"); err != nil || !bytes.Equal(got, photo) {
		t.Errorf("the restored photograph: %d bytes, %v; want the %d bytes committed", len(got), err, len(photo))
	}
}

// `studio backup` killed with SIGKILL while it writes leaves nothing under
// the backup's name: `studio restore` of that name is refused and changes
// nothing, and the next backup to the same name is written whole.
func TestBackupKilledLeavesNoBackup(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	st, err := store.Open(t.Context(), "", dataDir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A photograph large enough that writing it takes long enough to be
	// killed in the middle, whatever the machine.
	photo := make([]byte, 16<<20)
	rand.Read(photo)
	commitLarge(t, datadir.Dir(dataDir).Repository(), "images/large.jpg", photo)

	dir := t.TempDir()
	path := filepath.Join(dir, "studio-backup")
	env := append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
	cmd := exec.Command(binary, "backup", path)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed once it has begun to write the content.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if found, _ := filepath.Glob(filepath.Join(dir, "studio-backup.partial-*", backup.ContentFile)); len(found) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the backup did not begin to write the content within 2 minutes")
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the backup finished before it was killed: this run proves nothing")
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("a backup killed in the middle left %s: %v", path, err)
	}
	partial, _ := filepath.Glob(filepath.Join(dir, "studio-backup.partial-*"))
	if len(partial) != 1 {
		t.Fatalf("beside the backup's name: %v, want the partial directory of the killed backup", partial)
	}

	target := t.TempDir()
	for _, name := range []string{path, partial[0]} {
		restore := exec.Command(binary, "restore", name)
		restore.Env = append(os.Environ(), "DATA_DIR="+target, "DATABASE_URL=")
		if out, err := restore.CombinedOutput(); err == nil {
			t.Errorf("restore of %s, left by a killed backup: %s, want a refusal", name, out)
		}
	}
	if entries, _ := os.ReadDir(target); len(entries) != 1 || entries[0].Name() != "studio.lock" {
		t.Errorf("refused restores left %v in DATA_DIR, want nothing but the lock", entries)
	}

	again := exec.Command(binary, "backup", path)
	again.Env = env
	if out, err := again.CombinedOutput(); err != nil {
		t.Fatalf("a backup after the killed one: %v\n%s", err, out)
	}
}

// commitLarge commits a large file to main of the content repository at
// dir: with git's own commands when git is installed, as go-git, under
// the race detector, takes seconds to compress a few megabytes.
func commitLarge(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	contentRepo, err := repo.Open(dir, content.Files)
	if err != nil {
		t.Fatal(err)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		main, err := contentRepo.Main()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := contentRepo.Commit(main.Hash, map[string][]byte{name: data}, nil, repo.Signature{Name: "Meena", Email: "meena@example.com"}, "A large file"); err != nil {
			t.Fatal(err)
		}
		return
	}
	work := t.TempDir()
	run := gitIn(t, git, work)
	run("clone", "-q", dir, ".")
	if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", name)
	run("commit", "-qm", "A large file")
	run("push", "-q", "origin", "HEAD:main")
}
