package build

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"studio/contracts"
)

// protocol is contracts/renderer.json: what the renderer (web/scripts/renderer.mjs) and this side speak.
var protocol = func() (p struct {
	Version    int
	Ops        []string
	ErrorKinds []string
	Limits     struct {
		MemoryMiB            int64
		RenderTimeoutSeconds int64
	}
}) {
	if err := json.Unmarshal(contracts.Renderer, &p); err != nil {
		panic("contracts/renderer.json: " + err.Error())
	}
	return p
}()

// DefaultRendererMemory and DefaultRenderTimeOut are the limits of the
// renderer when the configuration names none (contracts/renderer.json).
var (
	DefaultRendererMemory = protocol.Limits.MemoryMiB << 20
	DefaultRenderTimeOut  = time.Duration(protocol.Limits.RenderTimeoutSeconds) * time.Second
)

// A RenderError is a request the renderer did not answer: Kind is one of
// contracts/renderer.json's errorKinds, Message says why in plain words.
type RenderError struct{ Kind, Message string }

func (e *RenderError) Error() string { return e.Message }

// errorKinds are what each kind of RenderError means, and who says it.
var errorKinds = map[string]string{
	"content": "the content has problems (the renderer says, with the content check's lines)",
	"timeout": "a request took longer than it may: the renderer was stopped",
	"crashed": "the renderer ended before it answered",
	"memory":  "the renderer took more memory than it may: it was stopped",
	"code":    "the front end's code failed (the renderer says, with its message)",
}

// answer is one line the renderer writes on fd 4: a request's answer, or
// one line a step printed (Log) before its answer.
type answer struct {
	ID    int64   `json:"id"`
	OK    bool    `json:"ok"`
	Log   *string `json:"log"`
	Error *struct {
		Kind, Message string
		Problems      []string
	} `json:"error"`
	raw []byte
}

// err is the answer's failure: a *ContentError when the content has
// problems, else a *RenderError.
func (a answer) err() error {
	if a.Error == nil {
		return &RenderError{Kind: "code", Message: "the renderer answered neither ok nor an error"}
	}
	if a.Error.Kind == "content" && len(a.Error.Problems) > 0 {
		return &ContentError{Problems: a.Error.Problems}
	}
	if _, ok := errorKinds[a.Error.Kind]; !ok {
		return &RenderError{Kind: "code", Message: fmt.Sprintf("the renderer failed (%s): %s", a.Error.Kind, a.Error.Message)}
	}
	return &RenderError{Kind: a.Error.Kind, Message: a.Error.Message}
}

// A pending request: where its step's lines go, and its answer.
type pending struct {
	log    io.Writer
	answer chan answer
}

// A process is one run of the renderer: requests written to fd 3, answers
// read from fd 4, matched by id.
type process struct {
	cmd      *exec.Cmd
	requests *os.File
	writing  sync.Mutex
	outOfMem atomic.Bool // its stderr said the heap was out of memory

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]pending
	failure *RenderError  // why it ended: set by who stopped it, else at its end
	reaped  bool          // its end is being collected
	exited  chan struct{} // closed once it ended and failure is set

	rss, peak atomic.Int64 // resident bytes, last read and most
}

// busy says whether a call waits for its answer.
func (p *process) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.waiting) > 0
}

// startProcess starts the renderer: node runs script in dir/web with env,
// its old space limited to memory, at a lower priority than the server's
// (visitors first), in a process group of its own that dies with the server.
func startProcess(dir, script, code string, env []string, memory int64, out io.Writer) (*process, error) {
	node, err := lookPath(env, "node")
	if err != nil {
		return nil, err
	}
	args := []string{node, "--max-old-space-size=" + strconv.FormatInt(max(memory>>20, 64), 10), script, "--code=" + code}
	if nice, err := lookPath(env, "nice"); err == nil {
		args = append([]string{nice, "-n", "10"}, args...)
	}
	reqRead, reqWrite, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ansRead, ansWrite, err := os.Pipe()
	if err != nil {
		reqRead.Close()
		reqWrite.Close()
		return nil, err
	}
	p := &process{requests: reqWrite, waiting: map[int64]pending{}, exited: make(chan struct{})}
	p.cmd = exec.Command(args[0], args[1:]...)
	p.cmd.Dir = filepath.Join(dir, "web")
	p.cmd.Env = env
	p.cmd.ExtraFiles = []*os.File{reqRead, ansWrite} // fds 3 and 4
	out = &lockedWriter{w: out}                      // its stdout and stderr are copied each by a goroutine of its own
	p.cmd.Stdout = out
	p.cmd.Stderr = &oomWatch{out: out, seen: &p.outOfMem}
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p.cmd.WaitDelay = 5 * time.Second
	err = p.cmd.Start()
	reqRead.Close() // the renderer's ends: it holds them now
	ansWrite.Close()
	if err != nil {
		reqWrite.Close()
		ansRead.Close()
		return nil, fmt.Errorf("publish: starting the renderer: %w", err)
	}
	go p.read(ansRead)
	return p, nil
}

// read delivers the renderer's answers until it ends, then fails what is
// still waiting with the reason it ended.
func (p *process) read(answers *os.File) {
	sc := bufio.NewScanner(answers)
	sc.Buffer(make([]byte, 64<<10), 256<<20) // a preview's pages come inline
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			continue // not an answer: nothing waits for it
		}
		a.raw = bytes.Clone(sc.Bytes())
		p.mu.Lock()
		w, ok := p.waiting[a.ID]
		if ok && a.Log == nil {
			delete(p.waiting, a.ID)
		}
		p.mu.Unlock()
		switch {
		case !ok:
		case a.Log != nil:
			if w.log != nil {
				io.WriteString(w.log, *a.Log+"\n")
			}
		default:
			w.answer <- a
		}
	}
	answers.Close()
	p.stop(nil) // its answers ended: so has it, or it is no use
	p.mu.Lock()
	p.reaped = true // from here its group's id may be another's: never killed again
	p.mu.Unlock()
	err := p.cmd.Wait()
	p.requests.Close()
	p.mu.Lock()
	switch {
	case p.failure != nil:
	case p.outOfMem.Load():
		p.failure = &RenderError{Kind: "memory", Message: "The renderer ran out of memory and was stopped"}
	default:
		p.failure = &RenderError{Kind: "crashed", Message: fmt.Sprintf("The renderer stopped (%v) before it answered: see the server's log", err)}
	}
	p.mu.Unlock()
	close(p.exited)
}

// stop kills the renderer; why (when not nil) is what its waiting
// requests fail with, unless it was stopped already.
func (p *process) stop(why *RenderError) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failure == nil && why != nil {
		p.failure = why
	}
	if !p.reaped {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

func (p *process) ended() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// call sends the request op with fields and waits for its answer (its
// raw line), its step's lines written to log. A call longer than limit
// stops the renderer: it and every request waiting fail with a timeout,
// tooLong. So does the end of ctx, unless abandon: then the caller only
// stops waiting (a visitor gone does not stop the others' previews).
func (p *process) call(ctx context.Context, op string, fields map[string]any, log io.Writer, limit time.Duration, abandon bool, tooLong string) ([]byte, error) {
	w := pending{log: log, answer: make(chan answer, 1)}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.waiting[id] = w
	p.mu.Unlock()
	request := map[string]any{"id": id, "op": op}
	for k, v := range fields {
		request[k] = v
	}
	line, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	p.writing.Lock()
	_, err = p.requests.Write(append(line, '\n'))
	p.writing.Unlock()
	if err != nil {
		p.stop(&RenderError{Kind: "crashed", Message: "The renderer stopped reading its requests"})
	}
	var late <-chan time.Time // no limit but ctx's (a build's step)
	if limit > 0 {
		timer := time.NewTimer(limit)
		defer timer.Stop()
		late = timer.C
	}
	select {
	case a := <-w.answer:
		return a.result()
	case <-p.exited:
		select {
		case a := <-w.answer:
			return a.result()
		default:
			return nil, p.failed()
		}
	case <-late:
	case <-ctx.Done():
		if abandon {
			p.mu.Lock()
			delete(p.waiting, id)
			p.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	p.stop(&RenderError{Kind: "timeout", Message: tooLong})
	<-p.exited
	return nil, p.failed()
}

func (p *process) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failure == nil {
		return &RenderError{Kind: "crashed", Message: "The renderer stopped before it answered"}
	}
	return p.failure
}

func (a answer) result() ([]byte, error) {
	if !a.OK {
		return nil, a.err()
	}
	return a.raw, nil
}

// watch reads the renderer's resident size every interval (VmRSS: its
// worker threads are threads, so counted) and stops it above memory.
func (p *process) watch(interval time.Duration, memory int64) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	// Read at once, then every interval: the gauge has a figure from the start.
	for first := true; ; first = false {
		if !first {
			select {
			case <-p.exited:
				p.rss.Store(0)
				return
			case <-tick.C:
			}
		}
		rss, err := residentBytes(p.cmd.Process.Pid)
		if err != nil {
			continue
		}
		p.rss.Store(rss)
		if rss > p.peak.Load() {
			p.peak.Store(rss)
		}
		if memory > 0 && rss > memory {
			p.stop(&RenderError{Kind: "memory", Message: fmt.Sprintf("The renderer took %d MiB, more than the %d MiB it may (RENDERER_MEMORY): it was stopped", rss>>20, memory>>20)})
		}
	}
}

// residentBytes is VmRSS of /proc/<pid>/status.
func residentBytes(pid int) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kB, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kB << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
}

// oomWatch passes the renderer's stderr on, noting V8's "heap out of
// memory", so its end is said as memory, not a crash.
type oomWatch struct {
	out  io.Writer
	seen *atomic.Bool
}

func (w *oomWatch) Write(b []byte) (int, error) {
	if bytes.Contains(b, []byte("heap out of memory")) {
		w.seen.Store(true)
	}
	return w.out.Write(b)
}

// lockedWriter writes to w one write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// lookPath finds name on env's PATH: the renderer's node is the builds'.
func lookPath(env []string, name string) (string, error) {
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(path) {
				file := filepath.Join(dir, name)
				if info, err := os.Stat(file); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
					return file, nil
				}
			}
		}
	}
	return "", fmt.Errorf("publish: no %s on the builds' PATH", name)
}
