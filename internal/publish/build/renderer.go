package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// A Renderer keeps the warm renderer running (web/scripts/renderer.mjs):
// one Node process, in a work dir of one code version's own with its
// bundles, that runs the build's steps, the content check and Markdown
// preview of each save, and the previews' pages without starting Node for
// each. Ensure says which code it runs; a call starts it again when it
// ended (crashed, or stopped for its time or its memory).
type Renderer struct {
	Script  string        // its script, in its work dir (web/scripts/renderer.mjs), or an absolute path
	Env     []string      // Env(...): nothing secret; its work dir's home and tools are added
	Memory  int64         // bytes it may take (RENDERER_MEMORY): above, it is stopped
	TimeOut time.Duration // RENDER_TIMEOUT: the time of one preview, check or Markdown preview
	// WorkTimeOut (BUILD_TIMEOUT) bounds the work on the previews' images:
	// describing a new catalogue's photographs, encoding them.
	WorkTimeOut time.Duration
	Out         io.Writer // what it prints itself
	// WorkDir prepares the work dir of the renderer of code, and says the
	// code it holds (the checkout's, when it changed since).
	WorkDir func(code string) (dir, holds string, err error)

	watchEvery time.Duration // how often its memory is read; a second when zero

	mu      sync.Mutex
	code    string // the code it runs; "" before Ensure
	dir     string
	steps   []string // the build's steps it runs (its hello)
	proc    *process
	closed  bool          // Close was called
	backoff time.Duration // the last wait before starting it again (restartWhenEnded)
}

// startLimit bounds the renderer's start: Node's, with its first hello,
// on a busy machine.
const startLimit = time.Minute

// hello is the renderer's answer to hello.
type hello struct {
	Code  string
	PID   int
	Steps []string
}

// Ensure makes the renderer run code: when it runs other code, it is
// stopped and started on a new work dir of code; else nothing changes.
func (r *Renderer) Ensure(code string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errors.New("publish: the renderer was closed")
	}
	if r.code == code && r.proc != nil && !r.proc.ended() {
		return nil
	}
	if r.code != code {
		r.stopLocked(&RenderError{Kind: "crashed", Message: "The renderer was stopped: the code changed"})
		if r.dir != "" {
			os.RemoveAll(r.dir)
		}
		r.code, r.dir, r.steps = "", "", nil
		dir, holds, err := r.WorkDir(code)
		if err != nil {
			return fmt.Errorf("publish: preparing the renderer: %w", err)
		}
		r.code, r.dir = holds, dir
	}
	_, err := r.startLocked()
	return err
}

// Refresh starts the renderer afresh when it holds more than half of its
// memory (Memory), and the renderer is idle or not: a build calls it
// between its steps. Encoding photographs leaves memory the process keeps
// (sharp's caches, the allocator's arenas), which the prerender's pages
// then add to: at 300 products, 790 MiB, past the 768 a renderer may
// take, where a fresh one renders them in about 400.
func (r *Renderer) Refresh() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc == nil || r.proc.ended() || r.Memory <= 0 || r.proc.rss.Load() <= r.Memory/2 {
		return nil
	}
	// What it is doing (a preview, an upload's photograph) is let finish,
	// for up to refreshWait; new calls wait on r.mu meanwhile.
	for deadline := time.Now().Add(refreshWait); r.proc.busy() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	r.stopLocked(&RenderError{Kind: "memory", Message: "The renderer was started afresh between a build's steps, to give back the memory the step before left it holding"})
	_, err := r.startLocked()
	return err
}

// Asset is where the client file name ("assets/…") of the bundle the
// renderer runs is: its pages name them.
func (r *Renderer) Asset(name string) (string, error) {
	r.mu.Lock()
	dir := r.dir
	r.mu.Unlock()
	if dir == "" || !fs.ValidPath(name) || !strings.HasPrefix(name, "assets/") {
		return "", fs.ErrNotExist
	}
	file := filepath.Join(dir, "web", "build", "client", filepath.FromSlash(name))
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return "", fs.ErrNotExist
	}
	return file, nil
}

// refreshWait is the longest Refresh waits for the renderer's calls.
const refreshWait = 30 * time.Second

// Serves says whether the renderer runs code, and which of the build's
// steps it runs.
func (r *Renderer) Serves(code string) ([]string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.steps), r.code != "" && r.code == code
}

// Running says whether the renderer was started (Ensure): its calls start
// it again when it ended.
func (r *Renderer) Running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.code != ""
}

// Close ends the renderer, for good: Ensure starts it no more.
func (r *Renderer) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked(&RenderError{Kind: "crashed", Message: "The renderer was stopped: the server is stopping"})
	if r.dir != "" {
		os.RemoveAll(r.dir)
	}
	r.code, r.dir, r.steps, r.closed = "", "", nil, true
}

func (r *Renderer) stopLocked(why *RenderError) {
	if r.proc != nil {
		r.proc.stop(why)
		<-r.proc.exited
		r.proc = nil
	}
}

// startLocked starts the renderer in its work dir unless it runs, and
// greets it: its hello says the steps it runs.
func (r *Renderer) startLocked() (*process, error) {
	if r.proc != nil && !r.proc.ended() {
		return r.proc, nil
	}
	script := r.Script
	if !filepath.IsAbs(script) {
		script = filepath.Join(r.dir, script)
	}
	out := r.Out
	if out == nil {
		out = os.Stderr
	}
	p, err := startProcess(r.dir, script, r.code, workEnv(r.Env, r.dir), r.Memory, out)
	if err != nil {
		return nil, err
	}
	go p.watch(orDefault(r.watchEvery, time.Second), r.Memory)
	raw, err := p.call(context.Background(), "hello", nil, nil, startLimit, true, "The renderer did not start: it took more than "+words(startLimit))
	var h hello
	if err == nil {
		err = json.Unmarshal(raw, &h)
	}
	if err != nil {
		p.stop(&RenderError{Kind: "crashed", Message: "The renderer did not start"})
		return nil, fmt.Errorf("publish: starting the renderer: %w", err)
	}
	r.proc, r.steps = p, h.Steps
	go r.restartWhenEnded(p, time.Now())
	return p, nil
}

// The wait before the renderer is started again once it ended by itself
// (a crash, its time, its memory), so the next save finds it warm:
// doubled, from a second up to a minute, while it keeps ending within a
// minute of its start.
const firstRestart, lastRestart = time.Second, time.Minute

// restartWhenEnded starts the renderer again after p ends, unless it was
// stopped on purpose (new code, Close) or a call started it first.
func (r *Renderer) restartWhenEnded(p *process, started time.Time) {
	<-p.exited
	r.mu.Lock()
	if r.proc != p || r.closed {
		r.mu.Unlock()
		return
	}
	if time.Since(started) > lastRestart {
		r.backoff = 0
	}
	r.backoff = min(max(2*r.backoff, firstRestart), lastRestart)
	wait := r.backoff
	r.mu.Unlock()
	time.Sleep(wait)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != p || r.closed {
		return
	}
	if _, err := r.startLocked(); err != nil && r.Out != nil {
		fmt.Fprintf(r.Out, "publish: starting the renderer again: %v\n", err)
	}
}

// orDefault is v, or otherwise when v is not set.
func orDefault[T ~int64](v, otherwise T) T {
	if v > 0 {
		return v
	}
	return otherwise
}

// call sends op to the renderer, started again first when it ended, and
// returns its answer's line. limit is the call's time (none but ctx's
// when zero, and then ctx's end stops the renderer; else only the call);
// what names the work in the message of a timeout: "The preview could not
// be made: the page took more than 10 s".
func (r *Renderer) call(ctx context.Context, op string, fields map[string]any, log io.Writer, limit time.Duration, what [2]string) ([]byte, error) {
	r.mu.Lock()
	if r.code == "" {
		r.mu.Unlock()
		return nil, &RenderError{Kind: "crashed", Message: what[0] + " could not be made: the renderer is not running yet (the code is being bundled)"}
	}
	p, err := r.startLocked()
	r.mu.Unlock()
	if err != nil {
		return nil, &RenderError{Kind: "crashed", Message: what[0] + " could not be made: " + err.Error()}
	}
	tooLong := what[0] + " could not be made: " + what[1] + " took more than " + words(limit)
	if limit <= 0 {
		if deadline, ok := ctx.Deadline(); ok {
			tooLong = what[0] + " could not be made: " + what[1] + " took more than " + words(time.Until(deadline).Round(time.Second))
		}
	}
	return p.call(ctx, op, fields, log, limit, limit > 0, tooLong)
}

// words says d as people do: "10 s", "2m0s".
func words(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%g s", d.Seconds())
	}
	return d.String()
}

// Resident is the renderer's resident size in bytes, as last read; 0 when
// it does not run.
func (r *Renderer) Resident() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc == nil {
		return 0
	}
	return r.proc.rss.Load()
}

// PeakMiB is the largest resident size of the renderer's current run, in MiB.
func (r *Renderer) PeakMiB() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc == nil {
		return 0
	}
	return r.proc.peak.Load() >> 20
}

// Collector is the gauge studio_renderer_resident_bytes, for /metrics.
func (r *Renderer) Collector() prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "studio_renderer_resident_bytes",
		Help: "Resident memory of the warm renderer (web/scripts/renderer.mjs, its worker threads included); 0 when it does not run.",
	}, func() float64 { return float64(r.Resident()) })
}

// A timeLimit says how long a call may take before the renderer is
// stopped.
type timeLimit int

const (
	callersLimit timeLimit = iota // a build's step: its context's (BUILD_TIMEOUT); its end stops the renderer, the one way to stop the step
	previewLimit                  // RENDER_TIMEOUT: a page, a check, a Markdown preview
	workLimit                     // WorkTimeOut: the images of a preview, described or made
)

// ops are the renderer's ops (contracts/renderer.json) as this side sends
// them: the work a timeout's message names, and its time limit.
var ops = map[string]struct {
	what  [2]string
	limit timeLimit
}{
	"hello":    {[2]string{"The renderer", "its start"}, previewLimit}, // startLimit, at its start
	"step":     {[2]string{"The build", "its step"}, callersLimit},
	"check":    {[2]string{"The content check", "the check"}, previewLimit},
	"markdown": {[2]string{"The Markdown preview", "the text"}, previewLimit},
	"render":   {[2]string{"The preview", "the page"}, previewLimit},
	"describe": {[2]string{"The preview", "the description of its images"}, workLimit},
	"image":    {[2]string{"The image", "its making"}, workLimit},
	"encode":   {[2]string{"The photographs' images", "their encoding"}, workLimit},
}

// do sends op with its time limit and message (ops).
func (r *Renderer) do(ctx context.Context, op string, fields map[string]any, log io.Writer, answer any) error {
	limit := map[timeLimit]time.Duration{previewLimit: r.TimeOut, workLimit: r.WorkTimeOut}[ops[op].limit]
	raw, err := r.call(ctx, op, fields, log, limit, ops[op].what)
	if err != nil || answer == nil {
		return err
	}
	if err := json.Unmarshal(raw, answer); err != nil {
		return &RenderError{Kind: "code", Message: fmt.Sprintf("%s could not be made: the renderer's answer is not one: %v", ops[op].what[0], err)}
	}
	return nil
}

// A Snapshot is a content to preview: its folder, and the folder of its
// image manifest (images.json, as web/scripts/images.mjs writes it).
type Snapshot struct{ ContentDir, GeneratedDir string }

// A Page is one path of a preview as the site serves it: Body is its HTML
// (or a resource route's body), Data its .data (nil when it has none).
type Page struct {
	Path   string
	Status int
	Type   string
	Body   []byte
	Data   []byte
}

// Step runs the build's step name in the build's web and contentDir, its
// lines written to log.
func (r *Renderer) Step(ctx context.Context, name, web, contentDir string, log io.Writer) error {
	return r.do(ctx, "step", map[string]any{"name": name, "web": web, "contentDir": contentDir}, log, nil)
}

// Check is the content check's problems of contentDir, one line each.
func (r *Renderer) Check(ctx context.Context, contentDir string) ([]string, error) {
	var a struct{ Problems []string }
	err := r.do(ctx, "check", map[string]any{"contentDir": contentDir}, nil, &a)
	return a.Problems, err
}

// Markdown renders text, content/name, as the site does, its facts read
// from contentDir.
func (r *Renderer) Markdown(ctx context.Context, contentDir, name string, text []byte) (string, error) {
	var a struct{ HTML string }
	err := r.do(ctx, "markdown", map[string]any{"contentDir": contentDir, "name": name, "text": string(text)}, nil, &a)
	return a.HTML, err
}

// Render renders paths of the snapshot s.
func (r *Renderer) Render(ctx context.Context, s Snapshot, paths []string) ([]Page, error) {
	var a struct {
		Pages []struct {
			Path, Type string
			Status     int
			Body       string
			Data       *string
		}
	}
	snapshot := map[string]string{"contentDir": s.ContentDir, "generatedDir": s.GeneratedDir}
	if err := r.do(ctx, "render", map[string]any{"snapshot": snapshot, "paths": paths}, nil, &a); err != nil {
		return nil, err
	}
	pages := make([]Page, len(a.Pages))
	for i, p := range a.Pages {
		pages[i] = Page{Path: p.Path, Status: p.Status, Type: p.Type, Body: []byte(p.Body)}
		if p.Data != nil {
			pages[i].Data = []byte(*p.Data)
		}
	}
	return pages, nil
}

// Describe writes the snapshot's image manifest without encoding a variant.
func (r *Renderer) Describe(ctx context.Context, s Snapshot) error {
	return r.do(ctx, "describe", map[string]any{"contentDir": s.ContentDir, "generatedDir": s.GeneratedDir}, nil, nil)
}

// Image makes the image variant name (a public file name) of contentDir's
// photographs, and returns its file.
func (r *Renderer) Image(ctx context.Context, contentDir, name string) (string, error) {
	var a struct{ File string }
	err := r.do(ctx, "image", map[string]any{"contentDir": contentDir, "name": name}, nil, &a)
	return a.File, err
}

// Encode makes every variant of the photographs srcs of contentDir, into
// the image cache, behind the build work queued before.
func (r *Renderer) Encode(ctx context.Context, contentDir string, srcs []string) error {
	return r.do(ctx, "encode", map[string]any{"contentDir": contentDir, "srcs": srcs}, nil, nil)
}
