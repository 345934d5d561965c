package main

import (
	"encoding/json"
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

	"studio/internal/publish"
	"studio/internal/publish/releases"
)

// TestPublishedContentSurvivesKillsAndDamage does to a running bin/studio,
// building with the front end's pipeline, what a crash and a damaged disk
// do: kill -9 in the middle of a build, a file of the live release gone,
// an empty live file. Each time the restarted server serves the newest
// intact release of the studio's content, never the content built into
// bin/studio; says what happened in /readyz; and builds main again.
func TestPublishedContentSurvivesKillsAndDamage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the site four times with the front end's pipeline")
	}
	root, git := builderAndGit(t)
	dataDir := t.TempDir()
	withBundles(t, root, dataDir)
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+dataDir, "BUILDER_DIR="+root,
		"DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=", "PUBLISH=")
	server := launch(t, base, env)
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	kill := func() {
		t.Helper()
		server.Process.Signal(syscall.SIGKILL)
		server.Wait()
	}
	rs, err := releases.Open(filepath.Join(dataDir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Studio-Release"), string(b)
	}
	readyz := func() map[string]string {
		t.Helper()
		_, _, body := get("/readyz")
		var r map[string]string
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("/readyz: %q: %v", body, err)
		}
		return r
	}
	// A build takes seconds on a quiet machine; the deadline is for a busy one.
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if cond() {
				return
			}
		}
		cmd := exec.Command(binary, "releases")
		cmd.Env = env
		out, _ := cmd.CombinedOutput()
		t.Fatalf("gave up waiting for %s; studio releases:\n%s", what, out)
	}
	// liveWith says whether a release other than except serves / with
	// tagline and is the live release of record, and sets *release to it.
	// The switch serves a release before it writes the live file: a kill
	// in between restarts with the release before (and nothing damaged to
	// say), and /readyz still says what the switch is about to clear.
	liveWith := func(tagline, except string, release *string) func() bool {
		return func() bool {
			code, serving, body := get("/")
			recorded, _ := rs.Live()
			*release = serving
			return code == 200 && serving != publish.EmbeddedID && serving != except && strings.Contains(body, tagline) && recorded == serving
		}
	}

	work := t.TempDir()
	run := gitIn(t, git, work)
	run("clone", "-q", filepath.Join(dataDir, "content.git"), ".")
	push := func(tagline string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(work, "site.json"))
		if err != nil {
			t.Fatal(err)
		}
		var site map[string]any
		json.Unmarshal(b, &site)
		site["tagline"] = tagline
		b, _ = json.MarshalIndent(site, "", "  ")
		os.WriteFile(filepath.Join(work, "site.json"), b, 0o644)
		run("commit", "-qam", "Tagline: "+tagline)
		run("push", "-q", "origin", "HEAD:main")
	}
	stamp := time.Now().UnixNano()
	first, second := fmt.Sprintf("First tagline %d", stamp), fmt.Sprintf("Second tagline %d", stamp)

	push(first)
	var firstRelease, secondRelease, rebuilt string
	waitFor("the first tagline live", liveWith(first, "", &firstRelease))

	// kill -9 in the middle of the second build: its steps are left running.
	push(second)
	// Any step that runs node: the content check, the images, the
	// bundling, the prerender, the compression.
	waitFor("the second build's node steps", func() bool {
		list, _ := rs.List()
		return len(list) > 0 && list[0].Status == releases.Building && !strings.HasPrefix(list[0].Stage, "checking the disk") && list[0].Stage != "reading the commit" && list[0].Stage != "checking the release"
	})
	kill()
	scratch := filepath.Join(dataDir, "releases", ".scratch")
	leftovers := processesUnder(scratch)
	t.Logf("%d processes of the killed build left running", len(leftovers))
	server = launch(t, base, env)
	if _, release, _ := get("/"); release != firstRelease {
		t.Errorf("after a kill mid-build the site is release %q, want the last live one, %s", release, firstRelease)
	}
	waitFor("the killed build's steps stopped", func() bool {
		for _, pid := range leftovers {
			if syscall.Kill(pid, 0) == nil {
				return false
			}
		}
		return true
	})
	waitFor("main built again and live", liveWith(second, "", &secondRelease))

	// A file of the live release gone: the first release serves (intact),
	// named in /readyz, and main is built again.
	kill()
	os.Remove(filepath.Join(rs.Dir(secondRelease), "client", "index.html"))
	server = launch(t, base, env)
	if code, release, body := get("/"); code != 200 || release != firstRelease || !strings.Contains(body, first) {
		t.Errorf("with the live release damaged, / = %d from %q, want 200 from the newest intact release %s", code, release, firstRelease)
	}
	want := "the live release " + secondRelease + " was damaged (client/index.html (missing)); serving " + firstRelease + " while main is rebuilt"
	if got := readyz()["publishing"]; got != want {
		t.Errorf("/readyz says %q, want %q", got, want)
	}
	cmd := exec.Command(binary, "releases", "--verify")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), secondRelease+"\tDAMAGED\n\t  client/index.html (missing)") {
		t.Errorf("studio releases --verify: %v\n%s\nwant it to fail naming the damaged file", err, out)
	}
	waitFor("main rebuilt and live", liveWith(second, secondRelease, &rebuilt))
	if got := readyz()["publishing"]; got != "" {
		t.Errorf("/readyz still says %q once main is rebuilt", got)
	}

	// An empty live file: the newest intact release, at once, no build.
	kill()
	os.WriteFile(filepath.Join(dataDir, "releases", "live"), nil, 0o644)
	server = launch(t, base, env)
	if code, release, _ := get("/"); code != 200 || release != rebuilt {
		t.Errorf("with an empty live file / = %d from %q, want %s", code, release, rebuilt)
	}
	if got := readyz()["publishing"]; !strings.HasPrefix(got, "the live file (DATA_DIR/releases/live) names no release; serving "+rebuilt) {
		t.Errorf("/readyz says %q", got)
	}
}

// processesUnder is the processes whose working directory is under dir.
func processesUnder(dir string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && strings.HasPrefix(cwd, dir+"/") {
			pids = append(pids, pid)
		}
	}
	return pids
}
