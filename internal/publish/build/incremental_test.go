package build

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAnIncrementalBuildIsAFullBuild builds a 300-product catalogue, then
// a chain of edits, each kind of field the pages read, each build with the
// page cache (and its index of what each page read: web/scripts/render-site.mjs)
// of the build before. Each is compared file by file with a build of the same
// content that renders every page by its data, as with no index
// (PRERENDER_INDEX=off), so a page whose data changed but that was linked
// from the cache shows. A description renders its product's pages alone;
// a damaged index makes a build by the data, said in the log, that gives the
// same release; and the chain's end is the release a cold build makes.
func TestAnIncrementalBuildIsAFullBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 300-product site twenty times with the front end's pipeline")
	}
	h := newChainBuilds(t)
	content := h.sampleContent(300)
	var catalogue struct {
		Categories []struct{ Name string }
		Featured   struct{ WhatsHot []int }
		Products   []struct {
			ID     int
			Images []struct{ Src string }
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(content, "catalogue.json"))), &catalogue); err != nil {
		t.Fatal(err)
	}
	products := catalogue.Products
	last, before := products[len(products)-1], products[len(products)-2]
	h.compare("the sample", content)
	nodeEdit(t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`doc.products.find((p) => p.id === %d).description = "A description only this build has."`, last.ID))
	rendered, cached := h.compare("a product's description", content)
	if rendered < 1 || rendered > 5 || cached < 1000 {
		t.Errorf("one product's description changed: %d pages rendered, %d from the cache; want its 1 to 5 pages rendered, the others linked", rendered, cached)
	}
	nodeEdit(t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`doc.products.find((p) => p.id === %d).name = "A name only this build has"`, before.ID))
	h.compare("a product's name", content)
	nodeEdit(t, filepath.Join(content, "site.json"), `doc.tagline = "A tagline of this build"; doc.phones[0].display = "+91 11 5550 1234"; doc.phones[0].tel = "+911155501234"`)
	h.compare("the tagline and a phone", content)
	appendTo(t, filepath.Join(content, "pages", "about.md"), "\nA line only this build's story has.\n")
	nodeEdit(t, filepath.Join(content, "pages.json"), `doc.bespoke.pillars[0].title = "A pillar of this build"`)
	h.compare("the story and the bespoke page", content)
	nodeEdit(t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`doc.featured.whatsHot = [%d, %d]`, last.ID, catalogue.Featured.WhatsHot[0]))
	nodeEdit(t, filepath.Join(content, "service.json"), `doc.emailReplyHours = 12`)
	h.compare("What's Hot and a reply time", content)
	nodeEdit(t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`const added = structuredClone(doc.products.find((p) => p.id === %d)); added.id = %d; added.name = "A piece added"; added.images = [{ src: %q, alt: "A piece added" }]; doc.products.push(added); doc.products = doc.products.filter((p) => p.id !== %d)`,
		last.ID, last.ID+1, copyDrawing(t, content, last.Images[0].Src, "-added"), products[len(products)-3].ID))
	h.compare("a product added and one removed", content)
	h.addImage(content, before.ID, before.Images[0].Src)
	h.compare("an image added to a product", content)
	nodeEdit(t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`const old = %q, now = "Lamps and More"; for (const c of doc.categories) { if (c.name === old) c.name = now; if (c.tabs) c.tabs = c.tabs.map((t) => (t === old ? now : t)); } for (const p of doc.products) if (p.category === old) p.category = now`,
		catalogue.Categories[len(catalogue.Categories)-1].Name))
	h.compare("a category renamed", content)

	// A damaged index: every page by its data, and the same release.
	indexes, _ := filepath.Glob(filepath.Join(h.incremental, "pages", "deps-*.json"))
	if len(indexes) != 1 {
		t.Fatalf("indexes of what the pages read: %q, want one", indexes)
	}
	if err := os.Chmod(indexes[0], 0o644); err != nil {
		t.Fatal(err)
	}
	appendTo(t, indexes[0], " ")
	client, log := h.build("a damaged index", content, h.incremental)
	if !strings.Contains(log, "is damaged") {
		t.Errorf("a build with a damaged index did not say so:\n%s", log)
	}
	sameFiles(t, h.last, client)

	// The chain's end is what a build from an empty page cache makes.
	cold := h.cacheWithBundles()
	client, _ = h.build("cold", content, cold)
	sameFiles(t, h.last, client)
}

// chainBuilds builds contents with the front end's pipeline, each with two
// caches: the incremental chain's and the reference's, whose builds
// render every page by its data (PRERENDER_INDEX=off).
type chainBuilds struct {
	t                      *testing.T
	root, npm              string
	incremental, reference string
	last                   string // the last incremental build's client folder
}

func newChainBuilds(t *testing.T) *chainBuilds {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if !HasBuilder(root) {
		t.Skip("web/node_modules is not installed: make test installs it (cd web && npm ci)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("no npm")
	}
	return &chainBuilds{t: t, root: root, npm: npm, incremental: t.TempDir()}
}

// sampleContent is a copy of content/ with products pieces in all, the
// added ones showing drawings (web/scripts/sample-photos.mjs).
func (h *chainBuilds) sampleContent(products int) string {
	dir := filepath.Join(h.t.TempDir(), "content")
	cmd := exec.Command("node", filepath.Join(h.root, "web", "scripts", "sample-photos.mjs"), dir, "--products", fmt.Sprint(products), "--photos", "0")
	cmd.Dir = filepath.Join(h.root, "web")
	if out, err := cmd.CombinedOutput(); err != nil {
		h.t.Fatalf("sample-photos.mjs: %v\n%s", err, out)
	}
	return dir
}

// build builds content with cache, the extra environment given; it gives
// the client folder and the build's log.
func (h *chainBuilds) build(name, content, cache string, env ...string) (client, log string) {
	h.t.Helper()
	b := &NodeBuilder{Root: h.root, Scratch: h.t.TempDir(), Cache: cache, TimeOut: 5 * time.Minute,
		Env: append(Env(filepath.Dir(h.npm)+string(os.PathListSeparator)+os.Getenv("PATH")), append(env, "PRERENDER_PROFILE=1")...)}
	client = filepath.Join(h.t.TempDir(), "client")
	var out strings.Builder
	started := time.Now()
	if _, err := b.Build(context.Background(), content, client, func(string) {}, &out); err != nil {
		h.t.Fatalf("%s: %v\n%s", name, err, out.String())
	}
	h.t.Logf("%s: %s; %s", name, time.Since(started).Round(100*time.Millisecond), regexp.MustCompile(`prerender( profile)?: .*`).FindAllString(out.String(), -1))
	return client, out.String()
}

var prerenderLine = regexp.MustCompile(`pages: (\d+) rendered, (\d+) unchanged`)

// compare builds content incrementally and as the reference, and compares
// the two; it gives how many pages the incremental build rendered and linked.
func (h *chainBuilds) compare(name, content string) (rendered, cached int) {
	h.t.Helper()
	first := h.last == ""
	client, log := h.build(name, content, h.incremental)
	if first {
		h.reference = h.cacheWithBundles()
	} else if strings.Contains(log, "no index") || strings.Contains(log, "is damaged") {
		h.t.Errorf("%s: the build found no index of the build before:\n%s", name, log)
	}
	reference, _ := h.build(name+" (by the data)", content, h.reference, "PRERENDER_INDEX=off")
	sameFiles(h.t, reference, client)
	h.last = client
	counts := prerenderLine.FindStringSubmatch(log)
	if counts == nil {
		h.t.Fatalf("%s: the prerender did not say what it rendered:\n%s", name, log)
	}
	return atoi(h.t, counts[1]), atoi(h.t, counts[2])
}

// cacheWithBundles is a new cache with the incremental chain's bundles and
// images (made by the hash of what they are made from): only its pages
// are its own.
func (h *chainBuilds) cacheWithBundles() string {
	cache := h.t.TempDir()
	for _, dir := range []string{"bundle", "images"} {
		if err := copyTree(filepath.Join(h.incremental, dir), filepath.Join(cache, dir)); err != nil {
			h.t.Fatal(err)
		}
	}
	return cache
}

// addImage gives product id a second picture: a copy of the drawing src
// with other bytes.
func (h *chainBuilds) addImage(content string, id int, src string) {
	added := copyDrawing(h.t, content, src, "-second")
	nodeEdit(h.t, filepath.Join(content, "catalogue.json"), fmt.Sprintf(`doc.products.find((p) => p.id === %d).images.push({ src: %q, alt: "A second view of the piece" })`, id, added))
}

// copyDrawing copies the drawing src of content/images to a name with
// suffix, with other bytes, and gives its src.
func copyDrawing(t *testing.T, content, src, suffix string) string {
	t.Helper()
	copied := strings.TrimSuffix(src, filepath.Ext(src)) + suffix + filepath.Ext(src)
	drawing := readFile(t, filepath.Join(content, "images", src))
	if err := os.WriteFile(filepath.Join(content, "images", copied), []byte(drawing+"\n<!-- "+suffix+" -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return copied
}

// nodeEdit changes the JSON file as script (JavaScript on doc, the file
// parsed) says, keeping its keys in their order, as the workspace's editor
// would: re-encoded by Go, every object's keys would be sorted, and every
// page's data would change.
func nodeEdit(t *testing.T, file, script string) {
	t.Helper()
	cmd := exec.Command("node", "-e", `const fs = require("fs"); const file = process.env.FILE; const doc = JSON.parse(fs.readFileSync(file, "utf8")); `+
		script+`; fs.writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");`)
	cmd.Env = append(os.Environ(), "FILE="+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("editing %s (%s): %v\n%s", file, script, err, out)
	}
}
