package publish

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Builder turns the content in contentDir into a client build in
// clientDir, calling stage as each step begins. A build that fails for
// its content returns a *ContentError.
type Builder interface {
	Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (BuildStats, error)
}

// BuildStats is what a build measured of itself.
type BuildStats struct {
	PeakMiB int64 // the largest resident size of one of its steps
}

// A ContentError is a build stopped by its content: one line per problem,
// "file: field: problem", as the content check prints them.
type ContentError struct{ Problems []string }

func (e *ContentError) Error() string {
	return fmt.Sprintf("%d problem(s) in the content: %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// NodeBuilder builds with the front end's own pipeline, the one `make
// build` runs (web/package.json's build: the content check, the images,
// the bundling of the code, the prerender, the compression), in a scratch
// copy of web/ beside the content to build, so two builds never share a
// file but the caches.
//
// The code is bundled once per code version: the bundles (web/build/client's
// scripts and styles, web/build/server) depend on no content, only on the
// front end's sources, so they are kept in Cache/bundle under the hash of
// those sources (bundleKey), and a build whose code was bundled before
// copies them instead of bundling: a text change only renders the pages.
type NodeBuilder struct {
	Root    string        // a checkout's root: web/ with its packages installed (node_modules), and the files of frontEndFiles
	Scratch string        // where each build gets its own directory
	Cache   string        // the caches, kept between builds: images (an unchanged photograph is never resized again), compressed, pages (a page whose data is unchanged is not rendered again), bundle
	TimeOut time.Duration // a build still running then is stopped and fails
	Log     io.Writer     // every line the steps print, for build.log
	Env     []string      // PATH and the like; nothing secret (build steps get only these)
}

// The pipeline's steps, by the names web/package.json gives them. The
// bundling runs only when Cache/bundle has no bundle of this code.
var buildSteps = []struct{ stage, script string }{
	{"checking the content", "check"},
	{"making the images", "images"},
	{bundleStage, "bundle"},
	{"prerendering the pages", "prerender"},
	{"compressing", "compress"},
}

const bundleStage = "bundling the code"

// How many code versions' bundles Cache/bundle keeps (the newest used).
const keptBundles = 4

// Builds are run with no more than this environment: the tools' path and a
// home of their own, never the server's secrets (SMTP password, database URL).
func BuildEnv(path string) []string {
	return []string{"PATH=" + path, "LANG=C.UTF-8", "NODE_ENV=production", "npm_config_offline=true",
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}
}

func (b *NodeBuilder) Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (BuildStats, error) {
	var stats BuildStats
	ctx, cancel := context.WithTimeout(ctx, b.TimeOut)
	defer cancel()
	work, err := os.MkdirTemp(b.Scratch, "build-")
	if err != nil {
		return stats, err
	}
	defer os.RemoveAll(work)
	web := filepath.Join(work, "web")
	code := sha256.New()
	if err := copyWeb(filepath.Join(b.Root, "web"), web, code); err != nil {
		return stats, fmt.Errorf("publish: copying %s: %w", b.Root, err)
	}
	for _, name := range frontEndFiles {
		if err := copyFile(filepath.Join(b.Root, name), filepath.Join(work, name)); err != nil {
			return stats, fmt.Errorf("publish: %w", err)
		}
		if err := hashFile(code, name, filepath.Join(work, name)); err != nil {
			return stats, fmt.Errorf("publish: %w", err)
		}
	}
	// What is installed is part of the code too.
	if err := hashFile(code, "node_modules/.package-lock.json", filepath.Join(b.Root, "web", "node_modules", ".package-lock.json")); err != nil {
		return stats, fmt.Errorf("publish: %w", err)
	}
	bundleDir, err := filepath.Abs(filepath.Join(b.Cache, "bundle", hex.EncodeToString(code.Sum(nil))[:20]))
	if err != nil {
		return stats, err
	}
	bundled, err := reuseBundle(bundleDir, filepath.Join(web, "build"), log)
	if err != nil {
		return stats, err
	}
	if err := linkModules(filepath.Join(b.Root, "web", "node_modules"), filepath.Join(web, "node_modules")); err != nil {
		return stats, err
	}
	// The pipeline's caches, by the hash of what they were made from.
	for link, dir := range map[string]string{".image-cache": "images", ".compress-cache": "compressed", ".page-cache": "pages"} {
		cache, err := filepath.Abs(filepath.Join(b.Cache, dir))
		if err != nil {
			return stats, err
		}
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return stats, err
		}
		if err := os.Symlink(cache, filepath.Join(web, link)); err != nil {
			return stats, err
		}
	}
	// The pipeline reads the content from web/../content.
	if err := os.Rename(contentDir, filepath.Join(work, "content")); err != nil {
		return stats, err
	}
	defer os.Rename(filepath.Join(work, "content"), contentDir)

	env := append(stepEnv(b.Env, filepath.Join(web, "node_modules", ".bin")), "HOME="+work, "npm_config_cache="+filepath.Join(work, ".npm"))
	scripts, err := packageScripts(filepath.Join(web, "package.json"))
	if err != nil {
		return stats, err
	}
	for _, step := range buildSteps {
		if step.script == "bundle" && bundled {
			continue
		}
		stage(step.stage)
		// The script's command, run as `npm run` runs it, without npm:
		// starting npm took a third of a second a step.
		cmd := exec.CommandContext(ctx, "sh", "-c", scripts[step.script])
		cmd.Dir = web
		cmd.Env = env
		// The step's children (node, esbuild) go with it when time is up.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		var out bytes.Buffer
		cmd.Stdout = io.MultiWriter(&out, log)
		cmd.Stderr = cmd.Stdout
		runErr := cmd.Run()
		if cmd.ProcessState != nil {
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				stats.PeakMiB = max(stats.PeakMiB, ru.Maxrss/1024)
			}
		}
		if runErr == nil {
			if step.script == "bundle" {
				if err := keepBundle(filepath.Join(web, "build"), bundleDir); err != nil {
					return stats, fmt.Errorf("publish: keeping the bundles: %w", err)
				}
			}
			continue
		}
		if ctx.Err() != nil {
			return stats, fmt.Errorf("publish: %s: stopped after %s, the time a build may take", step.stage, b.TimeOut)
		}
		if bytes.Contains(out.Bytes(), []byte("ENOSPC")) || bytes.Contains(out.Bytes(), []byte("no space left on device")) {
			return stats, fmt.Errorf("publish: %s failed: %w", step.stage, syscall.ENOSPC) // the publisher says it in the studio's words
		}
		if problems := contentLines(&out); len(problems) > 0 {
			return stats, &ContentError{Problems: problems}
		}
		return stats, fmt.Errorf("publish: %s failed (%v): see build.log", step.stage, runErr)
	}
	return stats, os.Rename(filepath.Join(web, "build", "client"), clientDir)
}

// contentLines are the content check's lines of out: "content/catalogue.json:
// product 3 (Chair): images[0].src: ...".
func contentLines(out io.Reader) []string {
	var problems []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "content/") {
			problems = append(problems, line)
		}
	}
	return problems
}

// checkTimeOut bounds one content check (it takes about a second) or one
// Markdown preview. It is theirs alone: the caller's deadline is not
// (a workspace request's is the database's, 3 s, which a check on a small
// busy server outlasts; it was killed, and the save refused).
const checkTimeOut = time.Minute

// scriptContext is the context of one content check or preview.
func scriptContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), checkTimeOut)
}

// Check runs the build's content check, alone, on contentDir: the
// workspace's editor checks a change with it before saving. It returns the
// check's lines; none when the content is good.
func (b *NodeBuilder) Check(ctx context.Context, contentDir string) ([]string, error) {
	ctx, cancel := scriptContext(ctx)
	defer cancel()
	cmd, err := b.contentScript(ctx, "check", contentDir)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if problems := contentLines(&out); len(problems) > 0 {
			return problems, nil
		}
		return nil, fmt.Errorf("publish: the content check failed (%v): %s", err, strings.TrimSpace(out.String()))
	}
	return nil, nil
}

// RenderMarkdown renders text, the Markdown file name of content/, as the
// site renders it (the build's own renderer, its facts read from
// contentDir): the workspace's editor shows it beside the text. A text the
// build would refuse (a fact that does not exist) is a *ContentError with
// the build's line.
func (b *NodeBuilder) RenderMarkdown(ctx context.Context, contentDir, name string, text []byte) (string, error) {
	ctx, cancel := scriptContext(ctx)
	defer cancel()
	cmd, err := b.contentScript(ctx, "preview-markdown", contentDir)
	if err != nil {
		return "", err
	}
	cmd.Env = append(cmd.Env, "MARKDOWN_FILE="+name)
	cmd.Stdin = bytes.NewReader(text)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		if problems := contentLines(bytes.NewReader(errs.Bytes())); len(problems) > 0 {
			return "", &ContentError{Problems: problems}
		}
		return "", fmt.Errorf("publish: the Markdown preview failed (%v): %s", err, strings.TrimSpace(errs.String()))
	}
	return out.String(), nil
}

// contentScript is the command of web/package.json's script, run as `npm
// run` runs it, without npm, on the content in contentDir.
func (b *NodeBuilder) contentScript(ctx context.Context, script, contentDir string) (*exec.Cmd, error) {
	web := filepath.Join(b.Root, "web")
	scripts, err := packageScripts(filepath.Join(web, "package.json"))
	if err != nil {
		return nil, err
	}
	if scripts[script] == "" {
		return nil, fmt.Errorf("publish: %s has no script %q", filepath.Join(web, "package.json"), script)
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", scripts[script])
	cmd.Dir = web
	cmd.Env = append(stepEnv(b.Env, filepath.Join(web, "node_modules", ".bin")), "CONTENT_DIR="+contentDir, "HOME="+contentDir)
	return cmd, nil
}

// packageScripts reads the scripts of a package.json, each of the build's
// steps among them.
func packageScripts(file string) (map[string]string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var pkg struct{ Scripts map[string]string }
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return nil, fmt.Errorf("publish: %s: %w", file, err)
	}
	for _, step := range buildSteps {
		if pkg.Scripts[step.script] == "" {
			return nil, fmt.Errorf("publish: %s has no script %q", file, step.script)
		}
	}
	return pkg.Scripts, nil
}

// stepEnv is env with bin first on its PATH, as npm puts a package's
// programs (react-router, for the bundle) on the path of its scripts.
func stepEnv(env []string, bin string) []string {
	out := make([]string, 0, len(env)+1)
	path := "PATH=" + bin
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, "PATH="); ok {
			path += string(os.PathListSeparator) + old
			continue
		}
		out = append(out, kv)
	}
	return append(out, path)
}

// bundleSums names the file of a kept bundle listing the SHA-256 of each
// of its files.
const bundleSums = "sha256.json"

// reuseBundle copies the bundles kept in dir, when this code was bundled
// before, into build (the later steps write beside them), once each file
// is checked against the SHA-256 keepBundle listed, and marks them as used.
// A kept bundle that fails the check (or has no list) is deleted and said
// in log: the code is bundled again. It answers whether build has the
// bundles.
func reuseBundle(dir, build string, log io.Writer) (bool, error) {
	if _, err := os.Stat(dir); err != nil {
		return false, nil
	}
	files, err := readBundle(dir)
	if err != nil {
		fmt.Fprintf(log, "build cache: the bundles kept in %s failed their check (%v): deleted, and the code is bundled again\n", dir, err)
		if err := os.RemoveAll(dir); err != nil {
			return false, fmt.Errorf("publish: deleting the damaged bundles of %s: %w", dir, err)
		}
		return false, nil
	}
	for name, b := range files {
		target := filepath.Join(build, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return false, fmt.Errorf("publish: copying the bundles of %s: %w", dir, err)
		}
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
	return true, nil
}

// readBundle reads the files bundleSums lists in dir (path → bytes), each
// checked against its SHA-256.
func readBundle(dir string) (map[string][]byte, error) {
	raw, err := os.ReadFile(filepath.Join(dir, bundleSums))
	if err != nil {
		return nil, err
	}
	var sums map[string]string
	if err := json.Unmarshal(raw, &sums); err != nil {
		return nil, fmt.Errorf("%s: %w", bundleSums, err)
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s lists no files", bundleSums)
	}
	files := make(map[string][]byte, len(sums))
	for name, sum := range sums {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return nil, fmt.Errorf("%s: %q is not a file of the bundle", bundleSums, name)
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			return nil, fmt.Errorf("%s: its SHA-256 is not the one kept", name)
		}
		files[name] = b
	}
	return files, nil
}

// keepBundle stores what `npm run bundle` wrote in build (the client's
// scripts, styles and public files; the server bundle) as dir, whole or not
// at all, with the SHA-256 of each file (bundleSums), read-only, and leaves
// the newest keptBundles bundles.
func keepBundle(build, dir string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(build, tmp); err != nil {
		return err
	}
	sums := map[string]string{}
	err = filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tmp, path)
		sum := sha256.Sum256(b)
		sums[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return os.Chmod(path, 0o444)
	})
	if err != nil {
		return err
	}
	raw, err := json.Marshal(sums)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, bundleSums), raw, 0o444); err != nil {
		return err
	}
	// Another build of the same code may have stored its bundles first: they are the same.
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
		return err
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	type kept struct {
		path string
		used time.Time
	}
	var bundles []kept
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			bundles = append(bundles, kept{filepath.Join(parent, e.Name()), info.ModTime()})
		}
	}
	sort.Slice(bundles, func(i, j int) bool { return bundles[i].used.After(bundles[j].used) })
	for _, old := range bundles[min(len(bundles), keptBundles):] {
		if old.path != dir {
			os.RemoveAll(old.path)
		}
	}
	return nil
}

// copyTree copies the regular files of from into to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(path, target)
	})
}

// hashFile adds a file's name and bytes to a hash of the code.
func hashFile(h io.Writer, name, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(name), len(b))
	_, err = h.Write(b)
	return err
}

// copyWeb copies the front end's sources, leaving out what builds write and
// the installed packages (linked instead), and adds each file to code, the
// hash that names the code's bundles (see NodeBuilder): these files are
// the code; the content is elsewhere.
func copyWeb(from, to string, code io.Writer) error {
	skip := map[string]bool{"node_modules": true, "build": true, ".generated": true, ".image-cache": true, ".compress-cache": true, ".page-cache": true,
		".react-router": true, "test-results": true, "playwright-report": true, "e2e": true}
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() && skip[rel] {
			return filepath.SkipDir
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := copyFile(path, target); err != nil {
			return err
		}
		return hashFile(code, rel, target)
	})
}

// linkModules makes to a folder of links to each installed package of
// from: the build reads them where they are, and writes what it writes
// there (Vite's .vite-temp) into the scratch copy, so the installed
// packages may be read-only (the systemd unit's ProtectSystem=strict).
func linkModules(from, to string) error {
	from, err := filepath.Abs(from)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.Mkdir(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".vite") || e.Name() == ".cache" {
			continue // a build's own temporary files (Vite's; scripts/run-ts.mjs's compiled scripts)
		}
		if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// frontEndFiles are the files outside web/ the front end's code imports:
// the enquiry rules, the photographs' limits and the content's path rule it
// shares with the server.
var frontEndFiles = []string{"internal/enquiry/rules.json", "internal/workspace/edit/photos.json", "internal/sitecontent/paths.json"}

// HasBuilder says whether root holds what NodeBuilder needs.
func HasBuilder(root string) bool {
	for _, name := range append([]string{"web/package.json", "web/node_modules/.package-lock.json"}, frontEndFiles...) {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			return false
		}
	}
	return true
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// StopLeftoverBuilds kills what a build left running when its server was
// killed: its steps run in process groups of their own (so that a time-out
// stops their children), which a kill -9 of the server does not reach. A
// leftover is known by its working directory, inside scratch. It returns
// how many processes it stopped.
func StopLeftoverBuilds(scratch string) int {
	abs, err := filepath.Abs(scratch)
	if err != nil {
		return 0
	}
	entries, _ := os.ReadDir("/proc")
	stopped := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd, abs+string(filepath.Separator)) {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid != syscall.Getpgrp() {
			syscall.Kill(-pgid, syscall.SIGKILL)
		} else {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		stopped++
	}
	return stopped
}

// TrimCaches deletes the cached pages no release links any more (and their
// sidecars), at once rather than a day later as the prerender's own
// pruning does: a build short of disk space asks for it after deleting old
// releases, whose pages the cache would otherwise keep.
func (b *NodeBuilder) TrimCaches() {
	dir := filepath.Join(b.Cache, "pages")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sha256") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink == 1 {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, e := range entries {
		if base, ok := strings.CutSuffix(e.Name(), ".sha256"); ok {
			if _, err := os.Stat(filepath.Join(dir, base)); errors.Is(err, fs.ErrNotExist) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}
