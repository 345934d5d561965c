package build

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeRenderer is a Renderer of testdata/fake-renderer.mjs, each code in a
// work dir of its own.
func fakeRenderer(t *testing.T) *Renderer {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	script, err := filepath.Abs("testdata/fake-renderer.mjs")
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	r := &Renderer{Script: script, Env: Env(filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH")),
		Memory: 1 << 30, TimeOut: time.Minute, Out: os.Stderr, watchEvery: 20 * time.Millisecond,
		WorkDir: func(code string) (string, string, error) {
			dir := filepath.Join(scratch, "renderer-"+code)
			return dir, code, os.MkdirAll(filepath.Join(dir, "web"), 0o755)
		}}
	t.Cleanup(r.Close)
	return r
}

// fakeHello is what the fake renderer says of itself.
type fakeHello struct {
	Code string
	PID  int
	Cwd  string
	Env  map[string]string
}

func greet(t *testing.T, r *Renderer) fakeHello {
	t.Helper()
	var h fakeHello
	if err := r.do(context.Background(), "hello", nil, nil, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func render(r *Renderer, path string) error {
	_, err := r.Render(context.Background(), Snapshot{ContentDir: "/c", GeneratedDir: "/g"}, []string{path})
	return err
}

func wantKind(t *testing.T, err error, kind string) {
	t.Helper()
	var failed *RenderError
	if !errors.As(err, &failed) || failed.Kind != kind {
		t.Fatalf("err = %v, want a RenderError of kind %s", err, kind)
	}
}

// TestTheProtocolIsTheContracts: this side sends each op of
// contracts/renderer.json and knows each of its error kinds, no other.
func TestTheProtocolIsTheContracts(t *testing.T) {
	if got := slices.Sorted(maps.Keys(ops)); !slices.Equal(got, slices.Sorted(slices.Values(protocol.Ops))) {
		t.Errorf("ops sent: %q; contracts/renderer.json: %q", got, protocol.Ops)
	}
	if got := slices.Sorted(maps.Keys(errorKinds)); !slices.Equal(got, slices.Sorted(slices.Values(protocol.ErrorKinds))) {
		t.Errorf("error kinds known: %q; contracts/renderer.json: %q", got, protocol.ErrorKinds)
	}
	if DefaultRendererMemory <= 0 || DefaultRenderTimeOut <= 0 {
		t.Errorf("default limits %d bytes, %s: contracts/renderer.json names none", DefaultRendererMemory, DefaultRenderTimeOut)
	}
}

// TestARendererThatDiesIsStartedAgain: a renderer that ends fails its
// request as crashed, and the next request starts another.
func TestARendererThatDiesIsStartedAgain(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	first := greet(t, r)
	wantKind(t, render(r, "/crash"), "crashed")
	if err := render(r, "/ok"); err != nil {
		t.Fatalf("the request after a crash: %v", err)
	}
	again := greet(t, r)
	if again.PID == first.PID || again.Code != "a" {
		t.Errorf("after the crash: pid %d code %q; want a new process (not %d) of code a", again.PID, again.Code, first.PID)
	}
	// Ended again, it is started again with no call, after a wait.
	wantKind(t, render(r, "/crash"), "crashed")
	deadline := time.Now().Add(time.Minute)
	for pid := livePID(r); (pid == 0 || pid == again.PID) && time.Now().Before(deadline); pid = livePID(r) {
		time.Sleep(20 * time.Millisecond)
	}
	if pid := livePID(r); pid == 0 || pid == again.PID {
		t.Errorf("a minute after it crashed, the renderer was not started again")
	}
}

// livePID is the pid of the renderer's process while it runs, else 0.
func livePID(r *Renderer) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc == nil || r.proc.ended() {
		return 0
	}
	return r.proc.cmd.Process.Pid
}

// TestARenderPastItsTimeLimitIsStopped: a render that does not answer in
// its time fails as a timeout, in words, the renderer is stopped, and the
// next request gets a new one.
func TestARenderPastItsTimeLimitIsStopped(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	first := greet(t, r)
	r.TimeOut = 300 * time.Millisecond
	err := render(r, "/hang")
	wantKind(t, err, "timeout")
	if want := "The preview could not be made: the page took more than 0.3 s"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if processAlive(first.PID) {
		t.Errorf("the renderer (pid %d) still runs after its time", first.PID)
	}
	r.TimeOut = time.Minute
	if again := greet(t, r); again.PID == first.PID {
		t.Errorf("the renderer was not started again")
	}
}

// TestAPreviewWhoseCallerLeftLeavesTheRenderer: a preview's caller gone
// (a visitor who left) stops waiting, not the renderer, which the others'
// previews share.
func TestAPreviewWhoseCallerLeftLeavesTheRenderer(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	first := greet(t, r)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Render(gone, Snapshot{}, []string{"/hang"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a render whose caller left: %v, want context.Canceled", err)
	}
	if again := greet(t, r); again.PID != first.PID {
		t.Errorf("the renderer was stopped (pid %d, now %d) for a caller who left", first.PID, again.PID)
	}
}

// TestARendererOverItsMemoryIsStopped: a renderer growing past its memory
// is stopped, its request failing as memory.
func TestARendererOverItsMemoryIsStopped(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	r.Memory = 256 << 20
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	first := greet(t, r)
	if r.Resident() <= 0 {
		// The watchdog reads it every 20 ms: wait for one reading.
		deadline := time.Now().Add(time.Minute)
		for r.Resident() <= 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if rss := r.Resident(); rss <= 0 || rss > r.Memory {
		t.Fatalf("resident size %d, want a reading under the limit", rss)
	}
	err := render(r, "/grow")
	wantKind(t, err, "memory")
	if !strings.Contains(err.Error(), "more than the 256 MiB it may (RENDERER_MEMORY)") {
		t.Errorf("message %q does not say the limit", err)
	}
	if processAlive(first.PID) {
		t.Errorf("the renderer (pid %d) still runs above its memory", first.PID)
	}
}

// TestTheRendererReloadsOnlyWhenTheCodeChanges: Ensure of the code it runs
// keeps the process; of another code, starts one in that code's work dir.
func TestTheRendererReloadsOnlyWhenTheCodeChanges(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	a := greet(t, r)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	if same := greet(t, r); same.PID != a.PID {
		t.Errorf("Ensure of the same code started another renderer (%d, was %d)", same.PID, a.PID)
	}
	if _, ok := r.Serves("a"); !ok {
		t.Errorf("Serves(a) = false after Ensure(a)")
	}
	if err := r.Ensure("b"); err != nil {
		t.Fatal(err)
	}
	b := greet(t, r)
	if b.PID == a.PID || b.Code != "b" || filepath.Base(filepath.Dir(b.Cwd)) != "renderer-b" {
		t.Errorf("after Ensure(b): pid %d (was %d), code %q, work dir %s; want a new renderer of b in renderer-b", b.PID, a.PID, b.Code, b.Cwd)
	}
	if processAlive(a.PID) {
		t.Errorf("the renderer of the old code (pid %d) still runs", a.PID)
	}
	if _, err := os.Stat(filepath.Dir(a.Cwd)); !os.IsNotExist(err) {
		t.Errorf("the old code's work dir %s is still there (%v)", filepath.Dir(a.Cwd), err)
	}
}

// TestTheRendererGetsNoSecrets: the renderer's environment is the builds'
// (Env) and its work dir's home, never the server's.
func TestTheRendererGetsNoSecrets(t *testing.T) {
	t.Setenv("SMTP_PASSWORD", "a secret of the server")
	t.Setenv("DATABASE_URL", "postgres://secret@localhost/db")
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	h := greet(t, r)
	allowed := map[string]bool{"HOME": true, "npm_config_cache": true}
	for _, kv := range r.Env {
		name, _, _ := strings.Cut(kv, "=")
		allowed[name] = true
	}
	for name, value := range h.Env {
		if strings.Contains(value, "secret") || !allowed[name] && !nodeOwn(name) {
			t.Errorf("the renderer got %s=%q", name, value)
		}
	}
	if home := h.Env["HOME"]; home != filepath.Dir(h.Cwd) {
		t.Errorf("HOME=%q, want its work dir %s", home, filepath.Dir(h.Cwd))
	}
}

// nodeOwn are what node or nice add to a process's environment.
func nodeOwn(name string) bool { return name == "NODE_OPTIONS" || name == "_" }

func processAlive(pid int) bool {
	raw, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// A zombie (state Z) has ended.
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestABuildInTheRendererIsTheBuildOfCommands builds the shipped content
// twice with one cache: first from a cold cache, each step a command (after
// which the warm renderer runs this code), then with the steps the
// renderer runs in it. The two releases are the same, file for file. The
// content check of a broken copy says the same problems either way, and
// the Markdown preview the same HTML, or the same problem.
func TestABuildInTheRendererIsTheBuildOfCommands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("bundles the code and builds the site twice with the front end's pipeline")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if !HasBuilder(root) {
		t.Skip("web/node_modules is not installed: make test installs it (cd web && npm ci)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	content := func() string {
		dir := filepath.Join(t.TempDir(), "content")
		if err := copyTree(filepath.Join(root, "content"), dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	broken := content()
	appendTo(t, filepath.Join(broken, "pages", "about.md"), "\nWrite to {{site.mail}}.\n")
	editJSON(t, filepath.Join(broken, "site.json"), func(site map[string]any) { site["phones"].([]any)[0].(map[string]any)["tel"] = "+910000" })

	b := &NodeBuilder{Root: root, Scratch: t.TempDir(), Cache: t.TempDir(), TimeOut: 5 * time.Minute,
		Env: Env(filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH"))}
	t.Cleanup(b.Close)
	byScript, err := b.Check(context.Background(), broken)
	if err != nil || len(byScript) == 0 {
		t.Fatalf("the check of a broken content as a command: %q, %v; want its problems", byScript, err)
	}
	const text = "---\ntitle: Our story\n---\n\nWrite to {{site.email}}, <b>now</b>.\n"
	htmlByScript, err := b.RenderMarkdown(context.Background(), broken, "pages/about.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, wrongByScript := b.RenderMarkdown(context.Background(), broken, "pages/about.md", []byte("At {{site.mail}}.\n"))
	var log strings.Builder
	build := func(name string) string {
		t.Helper()
		client := filepath.Join(t.TempDir(), name)
		log.Reset()
		if _, err := b.Build(context.Background(), content(), client, func(string) {}, &log); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, log.String())
		}
		return client
	}
	commands := build("as commands")
	if strings.Contains(log.String(), "in the warm renderer") || !b.renderer().Running() {
		t.Fatalf("the first build ran steps in a renderer, or left none running:\n%s", log.String())
	}
	inRenderer := build("in the renderer")
	for _, step := range []string{"check", "compress"} {
		if !strings.Contains(log.String(), step+": in the warm renderer") {
			t.Errorf("the second build did not run %s in the renderer:\n%s", step, log.String())
		}
	}
	sameFiles(t, commands, inRenderer)

	byRenderer, err := b.Check(context.Background(), broken)
	if err != nil || !slices.Equal(byRenderer, byScript) {
		t.Errorf("the check of a broken content in the renderer: %q, %v; as a command: %q", byRenderer, err, byScript)
	}
	htmlByRenderer, err := b.RenderMarkdown(context.Background(), broken, "pages/about.md", []byte(text))
	if err != nil || htmlByRenderer != htmlByScript {
		t.Errorf("Markdown in the renderer: %q, %v; as a command: %q", htmlByRenderer, err, htmlByScript)
	}
	_, wrongByRenderer := b.RenderMarkdown(context.Background(), broken, "pages/about.md", []byte("At {{site.mail}}.\n"))
	var a, c *ContentError
	if !errors.As(wrongByScript, &a) || !errors.As(wrongByRenderer, &c) || !slices.Equal(a.Problems, c.Problems) {
		t.Errorf("a fact that does not exist: %v in the renderer, %v as a command; want the same problems", wrongByRenderer, wrongByScript)
	}
	// A build of it stops at its check, in the renderer, with the same lines.
	_, err = b.Build(context.Background(), broken, filepath.Join(t.TempDir(), "broken"), func(string) {}, &log)
	var problems *ContentError
	if !errors.As(err, &problems) || !slices.Equal(problems.Problems, byScript) {
		t.Errorf("a build of the broken content in the renderer: %v; want its check's problems %q", err, byScript)
	}
}

// TestARendererHoldingHalfItsMemoryIsStartedAfreshBetweenSteps: Refresh
// keeps a renderer under half its memory, and starts one above it again.
func TestARendererHoldingHalfItsMemoryIsStartedAfreshBetweenSteps(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	r.Memory = 256 << 20
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	small := greet(t, r)
	if err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	if again := greet(t, r); again.PID != small.PID {
		t.Fatalf("a renderer under half its memory was started again (pid %d, then %d)", small.PID, again.PID)
	}
	if err := render(r, "/keep"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for r.Resident() <= r.Memory/2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// A preview under way is let finish first.
	slow := make(chan error, 1)
	go func() { slow <- render(r, "/slow") }()
	for deadline := time.Now().Add(time.Minute); !r.proc.busy() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := r.Refresh(); err != nil {
		t.Fatal(err)
	}
	if err := <-slow; err != nil {
		t.Errorf("the render under way when the renderer was started afresh failed: %v", err)
	}
	fresh := greet(t, r)
	if fresh.PID == small.PID || processAlive(small.PID) {
		t.Fatalf("a renderer holding %d MiB of its %d was not started afresh", r.Resident()>>20, r.Memory>>20)
	}
	if err := render(r, "/page"); err != nil {
		t.Fatalf("the fresh renderer does not render: %v", err)
	}
}

// TestACheckTheRendererFailsRunsAsACommand: a save's content check whose
// renderer dies under it is made by the command instead, and says the
// content's problems as the renderer would have.
func TestACheckTheRendererFailsRunsAsACommand(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "web"), 0o755)
	os.WriteFile(filepath.Join(root, "web", "package.json"), []byte(`{"scripts": {"build": "npm run check",
		"check": "echo 'content/site.json: tagline: said by the command'; exit 1"}}`), 0o644)
	b := &NodeBuilder{Root: root, Scratch: t.TempDir(), Cache: t.TempDir(), TimeOut: time.Minute, Env: Env(os.Getenv("PATH"))}
	b.rendererOnce.Do(func() {})
	b.warm = fakeRenderer(t)
	if err := b.warm.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	problems, err := b.Check(context.Background(), t.TempDir())
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], "a fake problem") {
		t.Fatalf("Check through the renderer = %q, %v; want the renderer's problem", problems, err)
	}
	crash := filepath.Join(t.TempDir(), "crash")
	problems, err = b.Check(context.Background(), crash)
	if err != nil || len(problems) != 1 || problems[0] != "content/site.json: tagline: said by the command" {
		t.Fatalf("Check when the renderer died = %q, %v; want the command's problem", problems, err)
	}
}

// TestAPreviewsCodeFileIsTheRenderersBundles: Asset names a file of the
// running code's client bundle, and nothing outside its assets.
func TestAPreviewsCodeFileIsTheRenderersBundles(t *testing.T) {
	t.Parallel()
	r := fakeRenderer(t)
	if err := r.Ensure("a"); err != nil {
		t.Fatal(err)
	}
	assets := filepath.Join(r.dir, "web", "build", "client", "assets")
	os.MkdirAll(assets, 0o755)
	os.WriteFile(filepath.Join(assets, "entry.client-a.js"), []byte("code"), 0o644)
	os.WriteFile(filepath.Join(r.dir, "web", "build", "client", "secret.txt"), []byte("not code"), 0o644)
	if file, err := r.Asset("assets/entry.client-a.js"); err != nil || file != filepath.Join(assets, "entry.client-a.js") {
		t.Errorf("Asset of the bundle's file = %q, %v", file, err)
	}
	for _, name := range []string{"assets/missing.js", "secret.txt", "assets/../secret.txt", "/assets/entry.client-a.js", "assets"} {
		if file, err := r.Asset(name); err == nil {
			t.Errorf("Asset(%q) = %q, want none", name, file)
		}
	}
}
