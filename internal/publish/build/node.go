package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// NodeBuilder builds with the front end's own pipeline, the one `make
// build` runs (web/package.json's build script: the content check, the
// images, the bundling of the code, the prerender, the compression), in a
// scratch copy of what it needs of the checkout (fromCheckout) beside the
// content to build, so two builds never share a file but the caches.
//
// The code is bundled once per code version: the bundles (web/build/client's
// scripts and styles, web/build/server) depend on no content, only on the
// front end's sources, so they are kept in Cache/bundle under the hash of
// those sources, and a build whose code was bundled before copies them
// instead of bundling: a text change only renders the pages.
type NodeBuilder struct {
	Root    string        // a checkout's root: what fromCheckout names, web/ with its packages installed (node_modules)
	Scratch string        // where each build gets its own directory
	Cache   string        // the caches, kept between builds: images (an unchanged photograph is never resized again), compressed, pages (a page whose data is unchanged is not rendered again), bundle
	TimeOut time.Duration // a build still running then is stopped and fails
	Log     io.Writer     // every line the steps print, for build.log
	Env     []string      // PATH and the like; nothing secret (build steps get only these)

	// bundling is held from a build's look for its code's bundles until
	// they are kept (or found): a build waits for Prepare's bundling, or
	// another build's, instead of bundling the same code beside it.
	bundling sync.Mutex
}

// Env is the environment builds are run with, and no more: the tools'
// path and a home of their own, never the server's secrets (SMTP
// password, database URL).
func Env(path string) []string {
	return []string{"PATH=" + path, "LANG=C.UTF-8", "NODE_ENV=production", "npm_config_offline=true",
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false"}
}

// Build turns the content in contentDir into a client build in clientDir,
// calling stage as each step begins. A build that fails for its content
// returns a *ContentError.
func (b *NodeBuilder) Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (Stats, error) {
	var stats Stats
	ctx, cancel := context.WithTimeout(ctx, b.TimeOut)
	defer cancel()
	work, err := os.MkdirTemp(b.Scratch, "build-")
	if err != nil {
		return stats, err
	}
	defer os.RemoveAll(work)
	web := filepath.Join(work, "web")
	b.bundling.Lock()
	bundleDir, bundled, err := b.prepare(work, log)
	unlock := sync.OnceFunc(b.bundling.Unlock) // once the bundles are found, or kept
	defer unlock()
	if err != nil {
		return stats, err
	}
	if bundled {
		unlock()
	}
	// The pipeline reads the content from web/../content.
	if err := os.Rename(contentDir, filepath.Join(work, "content")); err != nil {
		return stats, err
	}
	defer os.Rename(filepath.Join(work, "content"), contentDir)

	scripts, steps, err := packageScripts(filepath.Join(web, "package.json"))
	if err != nil {
		return stats, err
	}
	env := b.envIn(work)
	for _, step := range steps {
		if step == bundleStep && bundled {
			continue
		}
		stage(stageName(step))
		if step == bundleStep {
			err = b.bundle(ctx, web, env, scripts[step], bundleDir, log, &stats)
			unlock()
		} else {
			err = b.runStep(ctx, web, env, step, scripts[step], log, &stats)
		}
		if err != nil {
			return stats, err
		}
	}
	return stats, os.Rename(filepath.Join(web, "build", "client"), clientDir)
}

// Prepare bundles this code, unless its bundles are kept already, so that
// no one waits for the bundling at their first preview or publish: the
// server calls it when it starts. A build started meanwhile waits for it.
func (b *NodeBuilder) Prepare(ctx context.Context, log io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, b.TimeOut)
	defer cancel()
	work, err := os.MkdirTemp(b.Scratch, "bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	b.bundling.Lock()
	defer b.bundling.Unlock()
	bundleDir, bundled, err := b.prepare(work, log)
	if err != nil || bundled {
		return err
	}
	web := filepath.Join(work, "web")
	scripts, _, err := packageScripts(filepath.Join(web, "package.json"))
	if err != nil {
		return err
	}
	var stats Stats
	return b.bundle(ctx, web, b.envIn(work), scripts[bundleStep], bundleDir, log, &stats)
}

// bundle runs the bundling step in web and keeps its bundles in bundleDir.
func (b *NodeBuilder) bundle(ctx context.Context, web string, env []string, script, bundleDir string, log io.Writer, stats *Stats) error {
	if err := b.runStep(ctx, web, env, bundleStep, script, log, stats); err != nil {
		return err
	}
	if err := keepBundle(filepath.Join(web, "build"), bundleDir); err != nil {
		return fmt.Errorf("publish: keeping the bundles: %w", err)
	}
	return nil
}

// envIn is the environment of the steps of a build in work: Env, with the
// installed packages' tools and a home of work's own.
func (b *NodeBuilder) envIn(work string) []string {
	return append(stepEnv(b.Env, filepath.Join(work, "web", "node_modules", ".bin")), "HOME="+work, "npm_config_cache="+filepath.Join(work, ".npm"))
}

// prepare makes work a copy of what a build needs of the checkout, with
// the installed packages and the caches linked, and with this code's
// bundles when they are kept (bundled). bundleDir is where they are kept.
func (b *NodeBuilder) prepare(work string, log io.Writer) (bundleDir string, bundled bool, err error) {
	web := filepath.Join(work, "web")
	code := sha256.New()
	if err := copyCheckout(b.Root, work, code); err != nil {
		return "", false, err
	}
	// What is installed is part of the code too.
	if err := hashFile(code, "node_modules/.package-lock.json", filepath.Join(b.Root, "web", "node_modules", ".package-lock.json")); err != nil {
		return "", false, fmt.Errorf("publish: %w", err)
	}
	if bundleDir, err = filepath.Abs(filepath.Join(b.Cache, "bundle", hex.EncodeToString(code.Sum(nil))[:20])); err != nil {
		return "", false, err
	}
	if bundled, err = reuseBundle(bundleDir, filepath.Join(web, "build"), log); err != nil {
		return "", false, err
	}
	if err := linkModules(filepath.Join(b.Root, "web", "node_modules"), filepath.Join(web, "node_modules")); err != nil {
		return "", false, err
	}
	return bundleDir, bundled, b.linkCaches(web)
}

// linkCaches links the pipeline's caches into web: made by the hash of
// what they were made from, they are shared by every build.
func (b *NodeBuilder) linkCaches(web string) error {
	for link, dir := range map[string]string{".image-cache": "images", ".compress-cache": "compressed", ".page-cache": "pages"} {
		cache, err := filepath.Abs(filepath.Join(b.Cache, dir))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(cache, filepath.Join(web, link)); err != nil {
			return err
		}
	}
	return nil
}

// runStep runs script, the command of the build's step, in web as `npm
// run` runs it, without npm (starting npm took a third of a second a
// step), and records its peak memory in stats. Its error says why it
// failed: the time-out, a full disk, the content's problems
// (*ContentError), or else see build.log.
func (b *NodeBuilder) runStep(ctx context.Context, web string, env []string, step, script string, log io.Writer, stats *Stats) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
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
	stage := stageName(step)
	switch {
	case runErr == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("publish: %s: stopped after %s, the time a build may take", stage, b.TimeOut)
	case bytes.Contains(out.Bytes(), []byte("ENOSPC")) || bytes.Contains(out.Bytes(), []byte("no space left on device")):
		return fmt.Errorf("publish: %s failed: %w", stage, syscall.ENOSPC) // the publisher says it in the studio's words
	}
	if problems := contentLines(&out); len(problems) > 0 {
		return &ContentError{Problems: problems}
	}
	return fmt.Errorf("publish: %s failed (%v): see build.log", stage, runErr)
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
	cmd, err := b.contentScript(ctx, checkScript, contentDir)
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
	cmd, err := b.contentScript(ctx, markdownScript, contentDir)
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
	scripts, _, err := packageScripts(filepath.Join(web, "package.json"))
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
