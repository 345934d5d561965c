package build

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"studio/contracts/cases"
)

// TestTheCodeIsBundledOncePerCodeVersion builds the shipped content and a
// copy with other texts (a phone number, the tagline, a line of the
// studio's story, the chat's greeting) with the front end's pipeline:
//   - bundled apart, one by its build from a cold cache, the other by
//     Prepare (as a server starts) before its build, which then bundles
//     nothing, the two have the same bundles, byte for byte (client
//     scripts and styles, server bundle): no content leaks into the code,
//     and their pages differ, showing each its own texts;
//   - built again with the first build's cache, the other texts are not
//     bundled (no "bundling the code" stage) and the release is exactly the
//     one a full build of them made.
func TestTheCodeIsBundledOncePerCodeVersion(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the site three times with the front end's pipeline")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if !HasBuilder(root) {
		t.Skip("web/node_modules is not installed: make test installs it (cd web && npm ci)")
	}
	path, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("no npm")
	}

	const phone, tagline, story, greeting = "+91 11 5550 1234", "A tagline of the other content",
		"A line only the other content has.", "A greeting only the other content has."
	content := func(change bool) string {
		dir := filepath.Join(t.TempDir(), "content")
		if err := copyTree(filepath.Join(root, "content"), dir); err != nil {
			t.Fatal(err)
		}
		if change {
			editJSON(t, filepath.Join(dir, "site.json"), func(site map[string]any) {
				site["tagline"] = tagline
				first := site["phones"].([]any)[0].(map[string]any)
				first["display"], first["tel"] = phone, "+911155501234"
			})
			editJSON(t, filepath.Join(dir, "chat.json"), func(chat map[string]any) {
				chat["messages"].(map[string]any)["greeting"] = greeting
			})
			appendTo(t, filepath.Join(dir, "pages", "about.md"), "\n"+story+"\n")
		}
		return dir
	}
	var log bytes.Buffer // the last build's
	build := func(name, contentDir, cache string) (client string, stages []string) {
		t.Helper()
		b := &NodeBuilder{Root: root, Scratch: t.TempDir(), Cache: cache, TimeOut: 5 * time.Minute,
			Env: Env(filepath.Dir(path) + string(os.PathListSeparator) + os.Getenv("PATH"))}
		defer b.Close() // the warm renderer it starts for a next build
		client = filepath.Join(t.TempDir(), name)
		log.Reset()
		started := time.Now()
		if _, err := b.Build(context.Background(), contentDir, client, func(s string) { stages = append(stages, s) }, &log); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, log.String())
		}
		t.Logf("%s: %s, stages %q", name, time.Since(started).Round(100*time.Millisecond), stages)
		return client, stages
	}

	shippedCache, otherCache := t.TempDir(), t.TempDir()
	shipped, stages := build("shipped", content(false), shippedCache)
	if !slices.Contains(stages, stageName(bundleStep)) {
		t.Errorf("a build from a cold cache did not bundle: stages %q", stages)
	}
	// The other cache's bundles are made as a server makes them at start,
	// with no content (Prepare): its first build bundles nothing.
	prepare := &NodeBuilder{Root: root, Scratch: t.TempDir(), Cache: otherCache, TimeOut: 5 * time.Minute,
		Env: Env(filepath.Dir(path) + string(os.PathListSeparator) + os.Getenv("PATH"))}
	t.Cleanup(prepare.Close)
	if err := prepare.Prepare(context.Background(), &log); err != nil {
		t.Fatalf("Prepare: %v\n%s", err, log.String())
	}
	other, stages := build("other", content(true), otherCache)
	if slices.Contains(stages, stageName(bundleStep)) {
		t.Errorf("a build after Prepare bundled the code again: stages %q", stages)
	}

	// The same code, bundled apart (with a content, and with none): the
	// same bundles.
	sameFiles(t, filepath.Join(shipped, "assets"), filepath.Join(other, "assets"))
	shippedBundles, _ := filepath.Glob(filepath.Join(shippedCache, "bundle", "*"))
	otherBundles, _ := filepath.Glob(filepath.Join(otherCache, "bundle", "*"))
	if len(shippedBundles) != 1 || len(otherBundles) != 1 || filepath.Base(shippedBundles[0]) != filepath.Base(otherBundles[0]) {
		t.Fatalf("bundles kept: %q and %q, want one each, of the same code", shippedBundles, otherBundles)
	}
	sameFiles(t, filepath.Join(shippedBundles[0], "server"), filepath.Join(otherBundles[0], "server"))

	// Each shows its own texts.
	for page, want := range map[string]string{"index.html": tagline, "contact-us/index.html": phone, "about/index.html": story, "chat.json": greeting} {
		a, b := readFile(t, filepath.Join(shipped, page)), readFile(t, filepath.Join(other, page))
		if strings.Contains(a, want) || !strings.Contains(b, want) {
			t.Errorf("%s: %q is in the shipped content's page (%v) or missing from the other's (%v)", page, want, strings.Contains(a, want), strings.Contains(b, want))
		}
	}

	// The other texts, built with the shipped build's cache: no bundling,
	// and the release a full build made.
	again, stages := build("other again", content(true), shippedCache)
	if slices.Contains(stages, stageName(bundleStep)) {
		t.Errorf("the code was bundled again for a text change: stages %q", stages)
	}
	sameFiles(t, other, again)

	// Pages whose data is unchanged are taken from the page cache, not
	// rendered again: all of them for the same content, the product's own
	// few for a product's new description.
	shippedAgain, _ := build("shipped again", content(false), shippedCache)
	sameFiles(t, shipped, shippedAgain)
	if !strings.Contains(log.String(), "pages: 0 rendered") {
		t.Errorf("the same content built again rendered pages; want all from the cache:\n%s", log.String())
	}
	const description = "A description only this build has."
	oneProduct := content(false)
	// Edited as text, as a person would: re-encoded, the file's other
	// objects would change their order, and with it other pages.
	file := filepath.Join(oneProduct, "catalogue.json")
	text := readFile(t, file)
	at := strings.Index(text, `"products"`)
	at += strings.Index(text[at:], `"description": "`) + len(`"description": "`)
	if err := os.WriteFile(file, []byte(text[:at]+description+" "+text[at:]), 0o644); err != nil {
		t.Fatal(err)
	}
	var catalogue struct {
		Products []struct {
			ID          int
			Description string
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, file)), &catalogue); err != nil {
		t.Fatal(err)
	}
	id := catalogue.Products[0].ID
	changed, _ := build("one product changed", oneProduct, shippedCache)
	if !strings.HasPrefix(catalogue.Products[0].Description, description) {
		t.Fatalf("the edit changed no description: the first product's is %q", catalogue.Products[0].Description)
	}
	if page := readFile(t, filepath.Join(changed, "product", fmt.Sprint(id), "index.html")); !strings.Contains(page, description) {
		t.Errorf("product %d's page does not show its new description", id)
	}
	// Its page, and at most its two request pages.
	counts := regexp.MustCompile(`pages: (\d+) rendered, (\d+) unchanged`).FindStringSubmatch(log.String())
	if counts == nil {
		t.Fatalf("the prerender did not say what it rendered:\n%s", log.String())
	}
	if rendered, cached := atoi(t, counts[1]), atoi(t, counts[2]); rendered < 1 || rendered > 3 || cached < 10 {
		t.Errorf("one product's description changed: %d pages rendered, %d from the cache; want its 1 to 3 pages rendered, the others cached", rendered, cached)
	}
}

func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	files := func(dir string) map[string][]byte {
		m := map[string][]byte{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			m[rel], err = os.ReadFile(path)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) == 0 {
		t.Fatalf("%s: no files", a)
	}
	differ := 0
	for name, body := range fa {
		other, ok := fb[name]
		if !ok || !bytes.Equal(body, other) {
			if differ++; differ <= 5 {
				t.Errorf("%s: differs between %s and %s (present in both: %v)", name, a, b, ok)
			}
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			if differ++; differ <= 5 {
				t.Errorf("%s: in %s only", name, b)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d file(s) differ between %s and %s", differ, a, b)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func editJSON(t *testing.T, path string, change func(map[string]any)) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	change(doc)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.WriteString(f, text); err != nil {
		t.Fatal(err)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRenderMarkdownIsTheSitesRenderer renders a text as the editor's
// preview does: the facts filled in from the content given (its e-mail
// address, read from its site.json), markup shown as text, and a fact
// that does not exist said as the build says it.
func TestRenderMarkdownIsTheSitesRenderer(t *testing.T) {
	t.Parallel()
	b, content := markdownBuilder(t)
	const email = "preview@example.org"
	editJSON(t, filepath.Join(content, "site.json"), func(site map[string]any) { site["email"] = email })

	// The caller's deadline (a workspace request's is the database's) is not
	// the preview's: one already past does not stop it.
	short, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-short.Done()
	html, err := b.RenderMarkdown(short, content, "pages/about.md",
		[]byte("---\ntitle: Our story\n---\n\n## Write to us\n\nAt {{site.email}}, <script>alert(1)</script>\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h1>Our story</h1>", `href="mailto:` + email + `"`, `<h2 id="write-to-us">`, "&lt;script&gt;alert(1)&lt;/script&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("the preview lacks %s:\n%s", want, html)
		}
	}

	_, err = b.RenderMarkdown(context.Background(), content, "pages/about.md", []byte("At {{site.mail}}.\n"))
	var problem *ContentError
	if !errors.As(err, &problem) || len(problem.Problems) != 1 || !strings.HasPrefix(problem.Problems[0], "content/pages/about.md: {{site.mail}} names no fact") {
		t.Errorf("a fact that does not exist: err = %v, want the build's line for content/pages/about.md", err)
	}
}

// markdownBuilder is a builder of this repository's web/ and a copy of the
// shipped content to render Markdown with; it skips the test without node.
func markdownBuilder(t *testing.T) (*NodeBuilder, string) {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if !HasBuilder(root) {
		t.Skip("web/node_modules is not installed: make test installs it (cd web && npm ci)")
	}
	path, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	content := filepath.Join(t.TempDir(), "content")
	if err := copyTree(filepath.Join(root, "content"), content); err != nil {
		t.Fatal(err)
	}
	return &NodeBuilder{Root: root, Scratch: t.TempDir(), Env: Env(filepath.Dir(path) + string(os.PathListSeparator) + os.Getenv("PATH"))}, content
}

// TestPreviewLinksOnlyToTheWebMailPhonesAndTheSite renders every link of
// contracts/cases/markdown-links.json (the table web/app/lib/markdown.server.test.ts
// gives the renderer) as the workspace's preview does, in one text: the
// preview links where the table says, to the address it says, and nowhere
// else (no javascript:, however it is written).
func TestPreviewLinksOnlyToTheWebMailPhonesAndTheSite(t *testing.T) {
	t.Parallel()
	raw, err := cases.Files.ReadFile("markdown-links.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Links []struct {
			Case, Markdown string
			Href           *string
		}
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	b, content := markdownBuilder(t)
	var text strings.Builder
	var want []string
	for _, link := range table.Links {
		text.WriteString(link.Markdown + "\n\n")
		if link.Href != nil {
			want = append(want, *link.Href)
		}
	}
	out, err := b.RenderMarkdown(context.Background(), content, "pages/about.md", []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`<a\b[^>]*\bhref="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		got = append(got, html.UnescapeString(m[1]))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the preview links to\n%q\nwant\n%q\nin:\n%s", got, want, out)
	}
}
