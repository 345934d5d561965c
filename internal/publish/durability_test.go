package publish

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"studio/internal/publish/build"
	"studio/internal/publish/releases"
)

// The publisher's side of durability: releases checked against their list
// of files, a damaged one named and replaced, never the shipped content in
// the place of the studio's, and a build that waits for disk space.

// restart stops the site's publisher, lets damage do its work, and starts
// a new one of the same code.
func (s *site) restart(p *Publisher, damage func()) (*Publisher, *fakeTarget) {
	s.t.Helper()
	s.stop()
	p.Wait()
	damage()
	return s.start("v1")
}

func TestAReleaseIsCheckedAgainstItsListOfFiles(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("checked")
	waitFor(t, "checked live", servingTagline(target, "checked"))
	r, err := s.releases.Get(p.Live())
	if err != nil {
		t.Fatal(err)
	}
	if r.Manifest == "" {
		t.Fatal("release.json records no list of files")
	}
	if err := s.releases.Verify(r); err != nil {
		t.Fatalf("a release as built: %v", err)
	}
	dir := s.releases.Dir(r.ID)
	for _, c := range []struct {
		name   string
		damage func()
		undo   func()
		want   string
	}{
		{"a changed file", func() { os.WriteFile(filepath.Join(dir, "content", "site.json"), []byte("{"), 0o644) }, nil, "content/site.json (changed)"},
		{"a missing file", func() { os.Remove(filepath.Join(dir, "client", "tagline.txt")) }, nil, "client/tagline.txt (missing)"},
		{"a file the build did not make", func() { os.WriteFile(filepath.Join(dir, "client", "extra.html"), []byte("x"), 0o644) },
			func() { os.Remove(filepath.Join(dir, "client", "extra.html")) }, "client/extra.html (not made by the build)"},
		{"a list that was changed", func() {
			f, _ := os.OpenFile(filepath.Join(dir, "files.sha256"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("x")
			f.Close()
		}, nil, "files.sha256 (changed)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The damage adds up, case by case: each is looked for among the files named.
			c.damage()
			if c.undo != nil {
				defer c.undo()
			}
			err := s.releases.Verify(r)
			var damage *releases.DamageError
			if !errors.As(err, &damage) || !slices.Contains(damage.Files, c.want) {
				t.Errorf("Verify = %v, want a releases.DamageError naming %q", err, c.want)
			}
			if !strings.Contains(err.Error(), r.ID) {
				t.Errorf("the error %q does not name the release", err)
			}
		})
	}
}

func TestADamagedLiveReleaseGivesWayToAnIntactOneAndMainIsRebuilt(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("older")
	waitFor(t, "older live", servingTagline(target, "older"))
	older := p.Live()
	s.commitTagline("newer")
	waitFor(t, "newer live", servingTagline(target, "newer"))
	damaged := p.Live()

	s.builder.hold()
	p2, target2 := s.restart(p, func() {
		os.WriteFile(filepath.Join(s.releases.Dir(damaged), "content", "site.json"), []byte(`{"tagline": "vandal"}`), 0o644)
	})
	if id, tagline := target2.serving(); id != older || tagline != "older" {
		t.Fatalf("with the live release damaged, serving %s (%q), want the newest intact release %s", id, tagline, older)
	}
	problem, hold := target2.reported()
	want := "the live release " + damaged + " was damaged (content/site.json (changed)); serving " + older + " while main is rebuilt"
	if said, held := p2.Problem(); problem != want || hold || said != want || held {
		t.Errorf("reported %q (hold %v), Problem() %q (held %v); want %q", problem, hold, said, held, want)
	}
	if r, _ := s.releases.Get(damaged); !slices.Equal(r.Damage, []string{"content/site.json (changed)"}) {
		t.Errorf("the damaged release's record says damage %q", r.Damage)
	}
	if live, _ := s.releases.Live(); live != older {
		t.Errorf("the live file names %q, want the release that serves, %s", live, older)
	}
	if err := p2.MakeLive(damaged); err == nil {
		t.Error("the damaged release was made live again")
	}
	s.builder.let()
	waitFor(t, "main rebuilt and live", servingTagline(target2, "newer"))
	if id, _ := target2.serving(); id == damaged {
		t.Error("the damaged release serves")
	}
	waitFor(t, "the problem over", func() bool { problem, _ := target2.reported(); return problem == "" })
	// Another release damaged: Make live refuses it, naming the file, and
	// it is marked damaged.
	os.WriteFile(filepath.Join(s.releases.Dir(older), "client", "extra.html"), []byte("x"), 0o644)
	var damage *releases.DamageError
	if err := p2.MakeLive(older); !errors.As(err, &damage) || !slices.Contains(damage.Files, "client/extra.html (not made by the build)") {
		t.Errorf("Make live of a damaged release: %v, want it refused naming the file", err)
	}
	if r, _ := s.releases.Get(older); len(r.Damage) == 0 {
		t.Error("the release Make live found damaged is not marked damaged")
	}
}

func TestADamagedLiveReleaseGivesWayToAnotherOfTheSameContent(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("twice")
	waitFor(t, "twice live", servingTagline(target, "twice"))
	first := p.Live()
	if _, err := p.Publish(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second build live", func() bool { id, _ := target.serving(); return id != first })
	second := p.Live()

	p2, target2 := s.restart(p, func() { os.Remove(filepath.Join(s.releases.Dir(second), "client", "tagline.txt")) })
	if id, _ := target2.serving(); id != first {
		t.Fatalf("serving %s, want %s: an intact release of the same commit", id, first)
	}
	if problem, _ := p2.Problem(); !strings.Contains(problem, "client/tagline.txt (missing)") || !strings.Contains(problem, "a release of the same content") {
		t.Errorf("Problem() = %q", problem)
	}
}

func TestAnEmptyOrMissingLiveFileServesTheNewestIntactRelease(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"empty", "missing"} {
		t.Run(name, func(t *testing.T) {
			s := newSite(t)
			p, target := s.start("v1")
			s.commitTagline("published")
			waitFor(t, "published live", servingTagline(target, "published"))
			live := p.Live()
			p2, target2 := s.restart(p, func() {
				if name == "empty" {
					os.WriteFile(filepath.Join(s.dir, "releases", "live"), nil, 0o644)
				} else {
					os.Remove(filepath.Join(s.dir, "releases", "live"))
				}
			})
			if id, tagline := target2.serving(); id != live || tagline != "published" {
				t.Errorf("serving %s (%q), want %s, never the shipped content", id, tagline, live)
			}
			if problem, _ := p2.Problem(); !strings.HasPrefix(problem, "the live file (DATA_DIR/releases/live) names no release; serving "+live) {
				t.Errorf("Problem() = %q", problem)
			}
		})
	}
}

func TestWithNoReleaseOfTheStudiosContentThePagesWaitForMainsBuild(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.commitTagline("restored")
	// A restore's first start: content.git holds the studio's commits,
	// releases/ is empty.
	s.builder.hold()
	_, target := s.start("v1")
	if id, _ := target.serving(); id != EmbeddedID {
		t.Fatalf("serving %s before any build", id)
	}
	if problem, hold := target.reported(); !hold || !strings.Contains(problem, "no release of the content has been built yet") {
		t.Errorf("reported %q, hold %v: want the pages held (503) while main builds", problem, hold)
	}
	s.builder.let()
	waitFor(t, "main built and live", servingTagline(target, "restored"))
	if problem, hold := target.reported(); hold || problem != "" {
		t.Errorf("after main's build, reported %q, hold %v", problem, hold)
	}
}

func TestAReadyReleaseOfMainAStopKeptFromGoingLiveGoesLiveAtStart(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("before")
	waitFor(t, "before live", servingTagline(target, "before"))
	before := p.Live()
	s.commitTagline("ready")
	waitFor(t, "ready live", servingTagline(target, "ready"))
	// Killed between "ready" and the switch: the live file still names the one before.
	_, target2 := s.restart(p, func() { s.releases.SetLive(before) })
	waitFor(t, "main's ready release live", servingTagline(target2, "ready"))
}

// Killed between a build and its switch, and the ready release damaged
// since: the one before serves, the damage is said, and main is built
// again rather than left unbuilt.
func TestADamagedReadyReleaseOfMainAStopKeptFromGoingLiveIsSaidAndRebuilt(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("before")
	waitFor(t, "before live", servingTagline(target, "before"))
	before := p.Live()
	s.commitTagline("ready")
	waitFor(t, "ready live", servingTagline(target, "ready"))
	ready := p.Live()
	s.builder.hold()
	p2, target2 := s.restart(p, func() {
		s.releases.SetLive(before)
		os.Remove(filepath.Join(s.releases.Dir(ready), "client", "tagline.txt"))
	})
	if id, tagline := target2.serving(); id != before || tagline != "before" {
		t.Fatalf("serving %s (%q), want the live file's release %s", id, tagline, before)
	}
	want := "release " + ready + " was damaged (client/tagline.txt (missing)); serving " + before + " while main is rebuilt"
	if problem, hold := target2.reported(); problem != want || hold {
		t.Errorf("reported %q (hold %v), want %q", problem, hold, want)
	}
	if r, _ := s.releases.Get(ready); !slices.Equal(r.Damage, []string{"client/tagline.txt (missing)"}) {
		t.Errorf("the damaged release's record says damage %q", r.Damage)
	}
	s.builder.let()
	waitFor(t, "main rebuilt and live", servingTagline(target2, "ready"))
	if id, _ := target2.serving(); id == ready {
		t.Error("the damaged release serves")
	}
	if problem, _ := p2.Problem(); problem != "" {
		t.Errorf("once main is rebuilt and live, Problem() = %q", problem)
	}
}

func TestABuildMakesRoomOrFailsAtOnceWhenTheDiskIsFull(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	for _, tagline := range []string{"a", "b", "c"} {
		s.commitTagline(tagline)
		waitFor(t, tagline+" live", servingTagline(target, tagline))
	}
	list, _ := s.releases.List()
	if len(list) != 3 {
		t.Fatalf("%d releases, want 3", len(list))
	}
	size := uint64(list[0].Size)
	// The disk as full as it can be: room for one release more once the
	// oldest goes, never below what is kept for enquiries.
	p.FreeBytes = func(dir string) (uint64, error) {
		free := 64<<20 + size - 1
		for _, r := range list {
			if _, err := s.releases.Get(r.ID); err != nil {
				free += size // deleted
			}
		}
		return free, nil
	}
	s.commitTagline("d")
	waitFor(t, "d live", servingTagline(target, "d"))
	after, _ := s.releases.List()
	var got []string
	for _, r := range after {
		got = append(got, strings.TrimPrefix(r.Message, "Tagline: "))
	}
	if strings.Join(got, ",") != "d,c,b" {
		t.Errorf("releases %v after a build on a full disk, want the oldest deleted to make room: d,c,b", got)
	}

	p.FreeBytes = func(dir string) (uint64, error) { return 10 << 20, nil }
	s.commitTagline("e")
	// The failure is recorded, then reported: wait for both.
	waitFor(t, "e failed and reported", func() bool {
		list, _ := s.releases.List()
		problem, _ := target.reported()
		return list[0].Status == releases.Failed && problem != ""
	})
	list, _ = s.releases.List()
	if problems := list[0].Problems; len(problems) != 1 || !strings.HasPrefix(problems[0], "not enough disk space: 10 MiB free,") {
		t.Errorf("the failed build says %q", problems)
	}
	if _, tagline := target.serving(); tagline != "d" {
		t.Errorf("serving %q after a build failed for space, want d", tagline)
	}
	if slices.Contains(s.builder.builds, "e") {
		t.Error("a build started without the disk space for it")
	}
	if problem, _ := target.reported(); !strings.HasPrefix(problem, "release "+list[0].ID+" was not built: not enough disk space: 10 MiB free,") {
		t.Errorf("/readyz would say %q, want the build that failed for space", problem)
	}
}

func TestABuildLeftRunningByAKilledServerIsStopped(t *testing.T) {
	t.Parallel()
	scratch := filepath.Join(t.TempDir(), ".scratch")
	step := filepath.Join(scratch, "build-1", "web")
	if err := os.MkdirAll(step, 0o755); err != nil {
		t.Fatal(err)
	}
	// A step as the builder runs it, in a process group of its own, with a
	// child of its own (the shell's sleep), both outliving their server.
	cmd := exec.Command("sh", "-c", "sleep 600 & wait")
	cmd.Dir = step
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if n := build.StopLeftoverBuilds(scratch); n < 1 {
		t.Errorf("build.StopLeftoverBuilds stopped %d processes, want the step and its child", n)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("the leftover step is still running")
	}
	// The step's child, killed with it, may end a moment after it: one
	// that was not killed would still be there in two minutes.
	waitFor(t, "the step's child to end", func() bool { return len(processesUnder(scratch)) == 0 })
	if n := build.StopLeftoverBuilds(scratch); n != 0 {
		t.Errorf("a second look stopped %d processes, want none left", n)
	}
}

// processesUnder is the processes whose working directory is under dir
// (not an ended one: it has none).
func processesUnder(dir string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && strings.HasPrefix(cwd, dir+string(filepath.Separator)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A photograph's original is checked by its size when a release is served
// (nothing serves it; hashing them doubled a start's time), and by every
// byte by VerifyAll (studio releases --verify).
func TestAnOriginalIsCheckedBySizeAtAStartAndWhollyByVerifyAll(t *testing.T) {
	t.Parallel()
	rs, err := releases.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := releases.Release{ID: "20261128-120000-abcdef1"}
	original := filepath.Join(rs.Dir(r.ID), "content", "images", "chair.jpg")
	os.MkdirAll(filepath.Dir(original), 0o755)
	os.MkdirAll(filepath.Join(rs.Dir(r.ID), "client"), 0o755)
	os.WriteFile(original, []byte("a photograph"), 0o644)
	if r.Manifest, err = rs.WriteManifest(r.ID); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(original, []byte("a photogrXph"), 0o644) // the same size
	if err := rs.Verify(r); err != nil {
		t.Errorf("Verify of a same-size change to an original: %v, want it unchecked", err)
	}
	if err := rs.VerifyAll(r); err == nil || !strings.Contains(err.Error(), "content/images/chair.jpg (changed)") {
		t.Errorf("VerifyAll = %v, want the original named", err)
	}
	os.WriteFile(original, []byte("a photo"), 0o644) // truncated
	if err := rs.Verify(r); err == nil || !strings.Contains(err.Error(), "content/images/chair.jpg (changed)") {
		t.Errorf("Verify of a truncated original = %v, want it named", err)
	}
}

func TestADiskThatFillsDuringABuildIsSaidInTheStudiosWords(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("served")
	waitFor(t, "served live", servingTagline(target, "served"))
	p.FreeBytes = func(dir string) (uint64, error) { return 1 << 40, nil } // room at the start
	s.commitTagline("no space left")
	waitFor(t, "the build failed", func() bool {
		list, _ := s.releases.List()
		return list[0].Status == releases.Failed
	})
	list, _ := s.releases.List()
	if problems := list[0].Problems; len(problems) != 1 || !strings.HasPrefix(problems[0], "not enough disk space: the disk filled during the build") {
		t.Errorf("the failed build says %q", problems)
	}
	if _, tagline := target.serving(); tagline != "served" {
		t.Errorf("serving %q after the disk filled, want the live release kept", tagline)
	}
	if _, err := os.Stat(filepath.Join(s.releases.Dir(list[0].ID), "client")); err == nil {
		t.Error("the failed build's pages were kept, taking the space")
	}
}

// Every release damaged and main not the shipped content: the pages wait
// for main's build, and the live file keeps naming the studio's release,
// so a restart meanwhile does not serve the shipped content either.
func TestWithEveryReleaseDamagedNoRestartServesTheShippedContent(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("only")
	waitFor(t, "only live", servingTagline(target, "only"))
	only := p.Live()
	s.builder.hold()
	p, target = s.restart(p, func() { os.Remove(filepath.Join(s.releases.Dir(only), "client", "tagline.txt")) })
	if problem, hold := target.reported(); !hold || !strings.Contains(problem, "no release of the content is intact, so the pages answer 503 while main is rebuilt") {
		t.Fatalf("reported %q, hold %v", problem, hold)
	}
	// Once the watcher has looked at the live file (it takes a publish
	// request after), the file still names the studio's release.
	if err := s.releases.RequestPublish(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watcher's look", func() bool {
		_, err := os.Stat(filepath.Join(s.dir, "releases", "publish-requested"))
		return errors.Is(err, os.ErrNotExist)
	})
	if live, _ := s.releases.Live(); live != only {
		t.Errorf("the live file names %q, want %s still", live, only)
	}
	_, target = s.restart(p, func() {})
	if _, hold := target.reported(); !hold {
		t.Error("a second restart serves the shipped content")
	}
	s.builder.let()
	waitFor(t, "main rebuilt and live", servingTagline(target, "only"))
}

// A build short of disk space gets back at once the cached pages only
// deleted releases held, and their sidecars; a page a release links stays.
func TestTrimCachesDropsThePagesNoReleaseLinks(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	pages := filepath.Join(cache, "pages")
	release := filepath.Join(t.TempDir(), "index.html")
	os.MkdirAll(pages, 0o755)
	for _, name := range []string{"kept.html", "kept.html.sha256", "gone.html", "gone.html.br", "gone.html.sha256"} {
		os.WriteFile(filepath.Join(pages, name), []byte(name), 0o444)
	}
	if err := os.Link(filepath.Join(pages, "kept.html"), release); err != nil {
		t.Fatal(err)
	}
	(&build.NodeBuilder{Cache: cache}).TrimCaches()
	var left []string
	entries, _ := os.ReadDir(pages)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "kept.html kept.html.sha256" {
		t.Errorf("left in the page cache: %v, want the page a release links and its sidecar", left)
	}
}
