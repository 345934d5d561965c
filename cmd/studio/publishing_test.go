package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"studio/content"
	"studio/internal/config"
	"studio/internal/publish"
	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// TestAPushedChangeGoesLiveAndRollsBack is publishing as a person with
// access to the server does it: clone DATA_DIR/content.git, change the
// site's tagline, push to main. The running bin/studio builds the commit
// with the checkout's front end and serves it; `studio rollback` brings the
// old text back; a commit naming a missing photograph fails with its
// problem and changes nothing. The waits are generous, for a machine under
// load: how fast is measured by make bench-publish, not asserted here.
func TestAPushedChangeGoesLiveAndRollsBack(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the site twice with the front end's pipeline")
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

	studio := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("studio %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	home := func() (release, body string) {
		resp, err := http.Get(base + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.Header.Get("Studio-Release"), string(b)
	}
	waitForHome := func(what string, cond func(release, body string) bool) string {
		t.Helper()
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if release, body := home(); cond(release, body) {
				return release
			}
		}
		t.Fatalf("gave up waiting for %s; studio releases:\n%s", what, studio("releases"))
		return ""
	}
	if release, _ := home(); release != publish.EmbeddedID {
		t.Fatalf("a new server serves %q, want the embedded build", release)
	}

	work := t.TempDir()
	run := gitIn(t, git, work)
	run("clone", "-q", filepath.Join(dataDir, "content.git"), ".")
	edit := func(file string, change func(map[string]any)) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(work, file))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		change(doc)
		b, _ = json.MarshalIndent(doc, "", "  ")
		if err := os.WriteFile(filepath.Join(work, file), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tagline := fmt.Sprintf("Published by a push at %d", time.Now().UnixNano())
	edit("site.json", func(site map[string]any) { site["tagline"] = tagline })
	run("commit", "-qam", "A new tagline")
	run("push", "-q", "origin", "HEAD:main")

	pushed := waitForHome("the pushed tagline on the home page", func(release, body string) bool {
		return release != publish.EmbeddedID && strings.Contains(body, tagline)
	})
	if out := studio("releases"); !strings.Contains(out, pushed) || !strings.Contains(out, "live") || !strings.Contains(out, "A new tagline") {
		t.Errorf("studio releases does not show %s live with its message:\n%s", pushed, out)
	}

	// Rollback: the embedded build again, with no build, and main back to
	// its content by a new commit.
	started := time.Now()
	if out := studio("rollback", publish.EmbeddedID); !strings.Contains(out, `"Back to the content as shipped in bin/studio"`) {
		t.Errorf("studio rollback does not say main is back to the embedded content:\n%s", out)
	}
	waitForHome("the old text after rollback", func(release, body string) bool {
		return release == publish.EmbeddedID && !strings.Contains(body, tagline)
	})
	t.Logf("rollback took %s", time.Since(started))
	if out := studio("rollback", pushed); !strings.Contains(out, `"Back to the version of `) {
		t.Errorf("studio rollback does not say main is back to the pushed version:\n%s", out)
	}
	waitForHome("the pushed release again", func(release, body string) bool { return release == pushed })
	// Main has both ways back on top of the push: the clone catches up.
	run("pull", "-q", "--ff-only", "origin", "main")

	// A commit naming a photograph that is not there fails, named, and the
	// live release stays.
	edit("catalogue.json", func(c map[string]any) {
		p := c["products"].([]any)[0].(map[string]any)
		p["images"].([]any)[0].(map[string]any)["src"] = "products/not-there.jpg"
	})
	run("commit", "-qam", "A photograph that is missing")
	run("push", "-q", "origin", "HEAD:main")
	rs, err := releases.Open(filepath.Join(dataDir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	var failed releases.Release
	for deadline := time.Now().Add(2 * time.Minute); failed.ID == "" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		list, _ := rs.List()
		for _, r := range list {
			if r.Status == releases.Failed {
				failed = r
			}
		}
	}
	if failed.ID == "" || !strings.Contains(strings.Join(failed.Problems, "\n"), "products/not-there.jpg") {
		t.Fatalf("the broken commit's release = %+v, want failed naming the missing photograph", failed)
	}
	if out := studio("releases"); !strings.Contains(out, "products/not-there.jpg") {
		t.Errorf("studio releases does not show the failure's problem:\n%s", out)
	}
	if release, body := home(); release != pushed || !strings.Contains(body, tagline) {
		t.Errorf("after a failed build the home page is release %s, want %s unchanged", release, pushed)
	}

	// studio publish --wait builds main again and follows it to its end.
	cmd := exec.Command(binary, "publish", "--wait")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "failed") || !strings.Contains(string(out), "products/not-there.jpg") {
		t.Errorf("studio publish --wait of the broken main: %v\n%s\nwant it to fail naming the missing photograph", err, out)
	}
}

// TestTwoServersOnOnePostgreSQLPublishTogether runs two copies of
// bin/studio on one PostgreSQL database, as behind a load balancer: a push
// to one copy's content.git is built once and goes live on both, and
// `studio rollback` on either brings both back. It logs how long the
// second copy took after the first, and the rollback (docs/publishing.md's
// figures, "More than one copy"); it does not assert them, as they
// depend on how busy the machine is.
func TestTwoServersOnOnePostgreSQLPublishTogether(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the site with the front end's pipeline")
	}
	root, git := builderAndGit(t)
	url := storetest.PostgresURL(t)
	type copyOf struct {
		base, dataDir string
		env           []string
	}
	var copies []copyOf
	for range 2 {
		c := copyOf{dataDir: t.TempDir()}
		withBundles(t, root, c.dataDir)
		port := freePort(t)
		c.base = fmt.Sprintf("http://127.0.0.1:%d", port)
		c.env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+c.dataDir, "BUILDER_DIR="+root,
			"DATABASE_URL="+url, "STUDIO_PASSWORD=", "SMTP_HOST=", "PUBLISH=")
		server := launch(t, c.base, c.env)
		t.Cleanup(func() { server.Process.Kill(); server.Wait() })
		copies = append(copies, c)
	}
	release := func(c copyOf) (string, string) {
		resp, err := http.Get(c.base + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.Header.Get("Studio-Release"), string(b)
	}
	// bothServe waits until both copies serve a release that cond accepts,
	// and returns it with the time the second took after the first.
	bothServe := func(what string, cond func(release, body string) bool) (string, time.Duration) {
		t.Helper()
		var first time.Time
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			r0, b0 := release(copies[0])
			r1, b1 := release(copies[1])
			ok0, ok1 := cond(r0, b0), cond(r1, b1)
			if (ok0 || ok1) && first.IsZero() {
				first = time.Now()
			}
			if ok0 && ok1 && r0 == r1 {
				return r0, time.Since(first)
			}
		}
		t.Fatalf("gave up waiting for %s on both copies", what)
		return "", 0
	}

	work := t.TempDir()
	run := gitIn(t, git, work)
	// The push goes to the second copy, which may or may not be the one
	// that builds: either way both serve it.
	run("clone", "-q", filepath.Join(copies[1].dataDir, "content.git"), ".")
	b, err := os.ReadFile(filepath.Join(work, "site.json"))
	if err != nil {
		t.Fatal(err)
	}
	var site map[string]any
	if err := json.Unmarshal(b, &site); err != nil {
		t.Fatal(err)
	}
	tagline := fmt.Sprintf("Published to two copies at %d", time.Now().UnixNano())
	site["tagline"] = tagline
	b, _ = json.MarshalIndent(site, "", "  ")
	if err := os.WriteFile(filepath.Join(work, "site.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	run("commit", "-qam", "A new tagline for both copies")
	run("push", "-q", "origin", "HEAD:main")
	pushed, lag := bothServe("the pushed tagline", func(r, body string) bool {
		return r != publish.EmbeddedID && strings.Contains(body, tagline)
	})
	t.Logf("release %s live on the second copy %s after the first", pushed, lag)

	// Rollback from a shell on the first copy: both serve the embedded build.
	cmd := exec.Command(binary, "rollback", publish.EmbeddedID)
	cmd.Env = copies[0].env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("studio rollback: %v\n%s", err, out)
	}
	started := time.Now()
	bothServe("the embedded build after rollback", func(r, body string) bool {
		return r == publish.EmbeddedID && !strings.Contains(body, tagline)
	})
	t.Logf("rollback live on both copies in %s", time.Since(started))
}

// builderAndGit is the checkout's root, whose front end builds, and the git
// binary that pushes; the test is skipped without either.
func builderAndGit(t *testing.T) (root, git string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if !build.HasBuilder(root) {
		t.Skip("web/node_modules is not installed: make test installs it (cd web && npm ci)")
	}
	if git, err = exec.LookPath("git"); err != nil {
		t.Skip("no git binary to push with")
	}
	return root, git
}

// bundles are the code's bundles, made once for the tests whose servers
// build. A server bundles the code at its first build, and again only when
// the code changes: with a new DATA_DIR for each test, each would bundle
// the same code, the most of a build's time.
var bundles struct {
	once sync.Once
	dir  string // the bundle/ of a build cache
	err  error
}

// withBundles gives the build cache of dataDir the bundles of this code,
// as a server that has built before has them. They are made once, by the
// builder a server makes (newBuilder) building the shipped content; how
// bundles are kept and reused is internal/publish's test.
func withBundles(t *testing.T, root, dataDir string) {
	t.Helper()
	bundles.once.Do(func() { bundles.dir, bundles.err = bundle(root) })
	if bundles.err != nil {
		t.Fatal(bundles.err)
	}
	if err := os.CopyFS(filepath.Join(dataDir, "build-cache", "bundle"), os.DirFS(bundles.dir)); err != nil {
		t.Fatal(err)
	}
}

// bundle builds the content of the checkout at root, beside bin/studio
// (deleted with it), and returns the bundle/ of its build cache.
func bundle(root string) (string, error) {
	dir := filepath.Join(filepath.Dir(binary), "bundles")
	contentDir, scratch := filepath.Join(dir, "content"), filepath.Join(dir, "scratch")
	if err := os.CopyFS(contentDir, os.DirFS(filepath.Join(root, "content"))); err != nil {
		return "", err
	}
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return "", err
	}
	var log bytes.Buffer
	b := newBuilder(root, scratch, filepath.Join(dir, "cache"), config.Publishing{TimeOut: 30 * time.Minute})
	if _, err := b.Build(context.Background(), contentDir, filepath.Join(dir, "client"), func(string) {}, &log); err != nil {
		return "", fmt.Errorf("building the bundles: %v\n%s", err, log.String())
	}
	return filepath.Join(dir, "cache", "bundle"), nil
}

// gitIn runs git in dir as the studio's owner, failing the test on an error.
func gitIn(t *testing.T, git, dir string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Owner", "GIT_AUTHOR_EMAIL=owner@example.com",
			"GIT_COMMITTER_NAME=Owner", "GIT_COMMITTER_EMAIL=owner@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// `studio rollback` makes only a release of main live, never a preview of
// the editor's draft.
func TestRollbackRefusesAPreview(t *testing.T) {
	dataDir := t.TempDir()
	t.Setenv("DATA_DIR", dataDir)
	t.Setenv("DATABASE_URL", "")
	rs, err := releases.Open(filepath.Join(dataDir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	id := "20260302-090000-abcdef1"
	if err := rs.Put(releases.Release{ID: id, Status: releases.Ready, Format: releases.Format, Preview: true}); err != nil {
		t.Fatal(err)
	}
	if err := releasesCommand([]string{"rollback", id}, io.Discard); err == nil || !strings.Contains(err.Error(), "preview") {
		t.Errorf("studio rollback of a preview: %v, want a refusal that says it is a preview", err)
	}
	if live, _ := rs.Live(); live != "" {
		t.Errorf("the live file names %q after a refused rollback", live)
	}
}

// rollbackSite is a DATA_DIR on SQLite with the releases of two commits,
// the newer one live: older, a page by Meena, and newer, Owner's change to
// it.
func rollbackSite(t *testing.T) (dataDir string, contentRepo *repo.Repository, rs *releases.Releases, older, newer releases.Release) {
	t.Helper()
	dataDir = t.TempDir()
	t.Setenv("DATA_DIR", dataDir)
	t.Setenv("DATABASE_URL", "")
	contentRepo, err := repo.Open(filepath.Join(dataDir, "content.git"), content.Files)
	if err != nil {
		t.Fatal(err)
	}
	if rs, err = releases.Open(filepath.Join(dataDir, "releases")); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		who  repo.Signature
		text string
	}{{repo.Signature{Name: "Meena", Email: "meena@example.com"}, "# Notes\n"}, {repo.Signature{Name: "Owner", Email: "owner@example.com"}, "# Notes\n\nMore.\n"}} {
		if _, err := contentRepo.Commit("", map[string][]byte{"pages/notes.md": []byte(c.text)}, nil, c.who, "Notes"); err != nil {
			t.Fatal(err)
		}
		main, _ := contentRepo.Main()
		r := releases.Release{ID: fmt.Sprintf("20260302-08%d000-%.7s", i, main.Hash), Commit: main, Status: releases.Ready, Format: releases.Format}
		if err := rs.Put(r); err != nil {
			t.Fatal(err)
		}
		if err := contentRepo.Export(main.Hash, filepath.Join(rs.Dir(r.ID), "content")); err != nil {
			t.Fatal(err)
		}
		older, newer = newer, r
	}
	if err := rs.SetLive(newer.ID); err != nil {
		t.Fatal(err)
	}
	return dataDir, contentRepo, rs, older, newer
}

// backTo is the message of the commit back to c, in the site's time zone.
func backTo(t *testing.T, c repo.Commit) string {
	t.Helper()
	var site struct{ TimeZone string }
	b, err := fs.ReadFile(content.Files, "site.json")
	if err == nil {
		err = json.Unmarshal(b, &site)
	}
	loc, err2 := time.LoadLocation(site.TimeZone)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	return "Back to the version of " + c.When.In(loc).Format("2 Jan 15:04") + " (" + c.Author + ")"
}

// With no server running, `studio rollback` sets the live file and moves
// main itself.
func TestStudioRollbackWithNoServerMovesMainItself(t *testing.T) {
	_, contentRepo, rs, older, _ := rollbackSite(t)
	var out strings.Builder
	if err := releasesCommand([]string{"rollback", older.ID}, &out); err != nil {
		t.Fatal(err)
	}
	main, _ := contentRepo.Main()
	want := backTo(t, older.Commit)
	if main.Tree != older.Tree || main.Author != "studio" || main.Message != want {
		t.Errorf("main after studio rollback: %+v, want the files %s by studio, %q", main, older.Tree, want)
	}
	if live, _ := rs.Live(); live != older.ID {
		t.Errorf("the live file names %q, want %s", live, older.ID)
	}
	if got := out.String(); !strings.Contains(got, older.ID+" is live from the next start") || !strings.Contains(got, fmt.Sprintf("by a new commit, %.7s %q", main.Hash, want)) {
		t.Errorf("studio rollback printed:\n%s", got)
	}
	out.Reset()
	if err := releasesCommand([]string{"rollback", older.ID}, &out); err != nil {
		t.Fatal(err)
	}
	if again, _ := contentRepo.Main(); again.Hash != main.Hash || !strings.Contains(out.String(), "no commit was needed") {
		t.Errorf("studio rollback again moved main to %q, or printed:\n%s", again.Message, out.String())
	}
}

// rollbackTarget is a server that serves whatever it is switched to.
type rollbackTarget struct {
	mu sync.Mutex
	id string
}

func (t *rollbackTarget) Check(string, fs.FS, *sitecontent.Content) error { return nil }
func (t *rollbackTarget) Report(string, bool)                             {}
func (t *rollbackTarget) Switch(id string, _ fs.FS, _ *sitecontent.Content) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.id = id
	return nil
}

// With a server running, `studio rollback` asks it, and prints its answer.
func TestStudioRollbackAsksTheRunningServer(t *testing.T) {
	dataDir, contentRepo, rs, older, newer := rollbackSite(t)
	lock, err := store.LockDataDir(dataDir) // as the server does
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	ctx, cancel := context.WithCancel(context.Background())
	target := &rollbackTarget{}
	p := &publish.Publisher{Repo: contentRepo, Releases: rs, Target: target, CodeVersion: "v1", Log: slog.New(slog.DiscardHandler),
		Embedded: publish.Embedded{Client: fstest.MapFS{}, Content: content.Files}}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer p.Wait()
	defer cancel()
	if p.Live() != newer.ID {
		t.Fatalf("the server serves %s, want %s", p.Live(), newer.ID)
	}

	var out strings.Builder
	if err := releasesCommand([]string{"rollback", older.ID}, &out); err != nil {
		t.Fatal(err)
	}
	main, _ := contentRepo.Main()
	if main.Tree != older.Tree || main.Author != "studio" || p.Live() != older.ID {
		t.Errorf("after studio rollback the server serves %s and main is %+v, want %s and its files", p.Live(), main, older.ID)
	}
	if got := out.String(); !strings.Contains(got, "rollback: "+older.ID+" is live\n") || !strings.Contains(got, fmt.Sprintf("by a new commit, %.7s %q", main.Hash, backTo(t, older.Commit))) {
		t.Errorf("studio rollback printed:\n%s", got)
	}

	// A release the server cannot serve (its files are gone): refused, said.
	gone := releases.Release{ID: "20260302-090000-0000000", Commit: newer.Commit, Status: releases.Ready, Format: releases.Format}
	if err := rs.Put(gone); err != nil {
		t.Fatal(err)
	}
	if err := releasesCommand([]string{"rollback", gone.ID}, io.Discard); err == nil || !strings.Contains(err.Error(), "the server refused") {
		t.Errorf("studio rollback of a release that cannot be served: %v, want the server's refusal", err)
	}
	if now, _ := contentRepo.Main(); now.Hash != main.Hash || p.Live() != older.ID {
		t.Errorf("a refused rollback moved main to %q or switched to %s", now.Message, p.Live())
	}
}

// TestAPushOfAPathOutsideTheContentOrASymbolicLinkFails is the trial's
// hero (a path out of content/images/ to a file of the server's) and a
// symbolic link, each pushed to DATA_DIR/content.git as a person with
// access to the server would: each commit's build fails with its line,
// before the front end's tools read the content; nothing is read or
// written outside it, and the live site stays.
func TestAPushOfAPathOutsideTheContentOrASymbolicLinkFails(t *testing.T) {
	t.Parallel()
	root, git := builderAndGit(t)
	dataDir := t.TempDir()
	withBundles(t, root, dataDir) // not bundled again as the server starts
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+dataDir, "BUILDER_DIR="+root,
		"DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=", "PUBLISH=")
	server := launch(t, base, env)
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	rs, err := releases.Open(filepath.Join(dataDir, "releases"))
	if err != nil {
		t.Fatal(err)
	}
	secret := "/tmp/secret"
	secretBefore, _ := os.ReadDir(secret)

	work := t.TempDir()
	run := gitIn(t, git, work)
	run("clone", "-q", filepath.Join(dataDir, "content.git"), ".")
	head := func() string {
		out, err := exec.Command(git, "-C", work, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	// pushed pushes the commit made and waits for its release to fail.
	pushed := func(what string) releases.Release {
		t.Helper()
		run("push", "-q", "origin", "HEAD:main")
		commit := head()
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			list, _ := rs.List()
			for _, r := range list {
				if r.Commit.Hash == commit && r.Status == releases.Failed {
					return r
				}
				if r.Commit.Hash == commit && r.Status == releases.Ready {
					t.Fatalf("%s was built: %+v", what, r)
				}
			}
		}
		t.Fatalf("gave up waiting for %s to fail", what)
		return releases.Release{}
	}

	pagesFile := filepath.Join(work, "pages.json")
	original, err := os.ReadFile(pagesFile)
	if err != nil {
		t.Fatal(err)
	}
	var pages map[string]any
	if err := json.Unmarshal(original, &pages); err != nil {
		t.Fatal(err)
	}
	trial := "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"
	pages["home"].(map[string]any)["hero"].(map[string]any)["src"] = trial
	b, _ := json.MarshalIndent(pages, "", "  ")
	if err := os.WriteFile(pagesFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	run("commit", "-qam", "A hero from elsewhere")
	want := `content/pages.json: home.hero.src: "` + trial + `" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`
	if failed := pushed("the trial's hero"); strings.Join(failed.Problems, "\n") != want {
		t.Errorf("the trial's hero: the release's problems are %q, want [%q]", failed.Problems, want)
	}

	// The hero back as it was, and a symbolic link beside it.
	if err := os.WriteFile(pagesFile, original, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(work, "images", "secret.jpg")); err != nil {
		t.Fatal(err)
	}
	run("add", "-A")
	run("commit", "-qm", "A link")
	want = "content/images/secret.jpg is a symbolic link: only ordinary files can be published (commit the file itself)"
	if failed := pushed("the symbolic link"); strings.Join(failed.Problems, "\n") != want {
		t.Errorf("the symbolic link: the release's problems are %q, want [%q]", failed.Problems, want)
	}

	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if release := resp.Header.Get("Studio-Release"); release != publish.EmbeddedID {
		t.Errorf("after two refused pushes the home page is release %s, want the embedded one", release)
	}
	if after, _ := os.ReadDir(secret); len(after) != len(secretBefore) {
		t.Errorf("%s holds %d files, %d before the push", secret, len(after), len(secretBefore))
	}
}
