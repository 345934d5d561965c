package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	// The warm renderer's limits (RENDERER_MEMORY, RENDER_TIMEOUT); the
	// defaults of contracts/renderer.json when zero.
	RendererMemory int64
	RenderTimeOut  time.Duration

	// bundling is held from a build's look for its code's bundles until
	// they are kept (or found): a build waits for Prepare's bundling, or
	// another build's, instead of bundling the same code beside it.
	bundling sync.Mutex

	rendererOnce sync.Once
	warm         *Renderer
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
// returns a *ContentError. Its steps run in the warm renderer when it runs
// this code (the bundling aside); else each as a command, and the renderer
// is started on this code for the next build.
func (b *NodeBuilder) Build(ctx context.Context, contentDir, clientDir string, stage func(string), log io.Writer) (Stats, error) {
	var stats Stats
	ctx, cancel := context.WithTimeout(ctx, b.TimeOut)
	defer cancel()
	dir, err := os.MkdirTemp(b.Scratch, "build-")
	if err != nil {
		return stats, err
	}
	defer os.RemoveAll(dir)
	b.bundling.Lock()
	work, err := prepareWork(b.Root, b.Cache, dir, log)
	unlock := sync.OnceFunc(b.bundling.Unlock) // once the bundles are found, or kept
	defer unlock()
	if err != nil {
		return stats, err
	}
	if work.bundled {
		unlock()
	}
	// The pipeline reads the content from web/../content.
	content := filepath.Join(dir, "content")
	if err := os.Rename(contentDir, content); err != nil {
		return stats, err
	}
	defer os.Rename(content, contentDir)

	scripts, steps, err := packageScripts(filepath.Join(work.web(), "package.json"))
	if err != nil {
		return stats, err
	}
	renderer := b.renderer()
	inRenderer, warm := renderer.Serves(work.code)
	env := workEnv(b.Env, dir)
	for _, step := range steps {
		if step == bundleStep && work.bundled {
			continue
		}
		stage(stageName(step))
		log := countingPictures(log, step, stage)
		switch {
		case step == bundleStep:
			err = b.bundle(ctx, work.web(), env, scripts[step], work.bundleDir, log, &stats)
			unlock()
		case warm && slices.Contains(inRenderer, step):
			if err := renderer.Refresh(); err != nil {
				return stats, err
			}
			fmt.Fprintf(log, "%s: in the warm renderer\n", step)
			err = b.rendererStep(ctx, renderer, step, work.web(), content, log, &stats)
		default:
			err = b.runStep(ctx, work.web(), env, step, scripts[step], log, &stats)
		}
		if err != nil {
			return stats, err
		}
	}
	if !warm {
		// For the next build (this one's bundles are kept now); a failure
		// to start it is said, and the next build runs its steps as commands.
		if err := renderer.Ensure(work.code); err != nil {
			fmt.Fprintf(log, "publish: the renderer did not start: %v\n", err)
		}
	}
	return stats, os.Rename(filepath.Join(work.web(), "build", "client"), clientDir)
}

// Prepare bundles this code, unless its bundles are kept already, and
// starts the warm renderer on it, so that no one waits for the bundling at
// their first preview or publish: the server calls it when it starts. A
// build started meanwhile waits for the bundling.
func (b *NodeBuilder) Prepare(ctx context.Context, log io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, b.TimeOut)
	defer cancel()
	dir, err := os.MkdirTemp(b.Scratch, "bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	code, err := b.bundleOnce(ctx, dir, log)
	if err != nil {
		return err
	}
	return b.renderer().Ensure(code)
}

// bundleOnce prepares dir as a work dir and bundles its code there unless
// its bundles are kept, holding bundling; it returns the code's hash.
func (b *NodeBuilder) bundleOnce(ctx context.Context, dir string, log io.Writer) (string, error) {
	b.bundling.Lock()
	defer b.bundling.Unlock()
	work, err := prepareWork(b.Root, b.Cache, dir, log)
	if err != nil || work.bundled {
		return work.code, err
	}
	scripts, _, err := packageScripts(filepath.Join(work.web(), "package.json"))
	if err != nil {
		return "", err
	}
	var stats Stats
	return work.code, b.bundle(ctx, work.web(), workEnv(b.Env, dir), scripts[bundleStep], work.bundleDir, log, &stats)
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

// rendererScript is the warm renderer's script in its work dir.
const rendererScript = "web/scripts/renderer.mjs"

// Close stops the warm renderer, for good: the server's end (or a test's).
func (b *NodeBuilder) Close() { b.renderer().Close() }

// renderer is the builder's warm renderer (renderer.go), not started
// until Prepare or a build Ensure it.
func (b *NodeBuilder) renderer() *Renderer {
	b.rendererOnce.Do(func() {
		out := b.Log
		if out == nil {
			out = os.Stderr
		}
		b.warm = &Renderer{Script: rendererScript, Env: b.Env, Out: out, WorkDir: b.rendererWorkDir,
			Memory: orDefault(b.RendererMemory, DefaultRendererMemory), TimeOut: orDefault(b.RenderTimeOut, DefaultRenderTimeOut),
			WorkTimeOut: b.TimeOut}
	})
	return b.warm
}

// rendererWorkDir prepares Scratch/renderer-<code>, a work dir of the
// checkout's code with its kept bundles, and says the code it holds.
func (b *NodeBuilder) rendererWorkDir(code string) (string, string, error) {
	tmp, err := os.MkdirTemp(b.Scratch, "renderer-new-")
	if err != nil {
		return "", "", err
	}
	work, err := prepareWork(b.Root, b.Cache, tmp, b.renderer().Out)
	if err == nil && !work.bundled {
		err = fmt.Errorf("the code %s is not bundled yet", code)
	}
	dir := filepath.Join(b.Scratch, "renderer-"+work.code)
	if err == nil {
		os.RemoveAll(dir) // a renderer of this code that was stopped
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", "", err
	}
	return dir, work.code, nil
}

// rendererStep runs a build's step in the warm renderer, its errors said
// as runStep says them.
func (b *NodeBuilder) rendererStep(ctx context.Context, r *Renderer, step, web, contentDir string, log io.Writer, stats *Stats) error {
	err := r.Step(ctx, step, web, contentDir, log)
	stats.PeakMiB = max(stats.PeakMiB, r.PeakMiB())
	var failed *RenderError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("publish: %s: stopped after %s, the time a build may take", stageName(step), b.TimeOut)
	case errors.As(err, &failed):
		return fmt.Errorf("publish: %s failed in the renderer (%s): %s", stageName(step), failed.Kind, failed.Message)
	}
	return err // the content's problems (*ContentError)
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
// Markdown preview as a command (the warm renderer's are RENDER_TIMEOUT).
// It is theirs alone: the caller's deadline is not
// (a workspace request's is the database's, 3 s, which a check on a small
// busy server outlasts; it was killed, and the save refused).
const checkTimeOut = time.Minute

// scriptContext is the context of one content check or preview.
func scriptContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), checkTimeOut)
}

// Check runs the build's content check, alone, on contentDir: the
// workspace's editor checks a change with it before saving. It returns the
// check's lines; none when the content is good. It runs in the warm
// renderer once that is started (Prepare), else as a command.
func (b *NodeBuilder) Check(ctx context.Context, contentDir string) ([]string, error) {
	ctx, cancel := scriptContext(ctx)
	defer cancel()
	if r := b.renderer(); r.Running() {
		problems, err := r.Check(ctx, contentDir)
		if !rendererFailed(err) {
			return problems, err
		}
		// The renderer failed, not the content: the save is checked by
		// the command instead (the next call starts a new renderer).
		fmt.Fprintf(b.renderer().Out, "publish: the content check ran as a command: %v\n", err)
	}
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
	if r := b.renderer(); r.Running() {
		html, err := r.Markdown(ctx, contentDir, name, text)
		if !rendererFailed(err) {
			return html, err
		}
		fmt.Fprintf(b.renderer().Out, "publish: the Markdown preview ran as a command: %v\n", err)
	}
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

// rendererFailed says whether err is the renderer's own failure (it
// crashed, ran past its time or its memory, a fault of its code), not the
// content's problems.
func rendererFailed(err error) bool {
	var failed *RenderError
	return errors.As(err, &failed) && failed.Kind != "content"
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
