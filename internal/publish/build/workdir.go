package build

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A workDir is a copy of what a build needs of the checkout (fromCheckout)
// with the installed packages and the caches linked: each build gets one,
// and so does the warm renderer (renderer.go), for its code.
type workDir struct {
	dir       string // web/ and contracts/ are in it; a build's content goes beside them
	code      string // the hash of the code copied, which names its bundles
	bundleDir string // where the code's bundles are kept (Cache/bundle/<code>)
	bundled   bool   // web/build has the kept bundles
}

func (w workDir) web() string { return filepath.Join(w.dir, "web") }

// prepareWork makes dir a work dir of root's code, with this code's
// bundles when they are kept in cache, and the caches of cache linked.
func prepareWork(root, cache, dir string, log io.Writer) (workDir, error) {
	w := workDir{dir: dir}
	code := sha256.New()
	if err := copyCheckout(root, dir, code); err != nil {
		return w, err
	}
	// What is installed is part of the code too.
	if err := hashFile(code, "node_modules/.package-lock.json", filepath.Join(root, "web", "node_modules", ".package-lock.json")); err != nil {
		return w, fmt.Errorf("publish: %w", err)
	}
	w.code = hex.EncodeToString(code.Sum(nil))[:20]
	var err error
	if w.bundleDir, err = filepath.Abs(filepath.Join(cache, "bundle", w.code)); err != nil {
		return w, err
	}
	if w.bundled, err = reuseBundle(w.bundleDir, filepath.Join(w.web(), "build"), log); err != nil {
		return w, err
	}
	if err := linkModules(filepath.Join(root, "web", "node_modules"), filepath.Join(w.web(), "node_modules")); err != nil {
		return w, err
	}
	return w, linkCaches(cache, w.web())
}

// linkCaches links the pipeline's caches into web: made by the hash of
// what they were made from, they are shared by every build (and the
// renderer's previews: .preview-images, its image variants made on demand).
func linkCaches(cache, web string) error {
	for link, dir := range map[string]string{".image-cache": "images", ".compress-cache": "compressed", ".page-cache": "pages", ".preview-images": "preview-images"} {
		abs, err := filepath.Abs(filepath.Join(cache, dir))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(abs, filepath.Join(web, link)); err != nil {
			return err
		}
	}
	return nil
}

// workEnv is the environment of the steps run in a work dir: env (Env),
// with the installed packages' tools and a home of the work dir's own.
func workEnv(env []string, dir string) []string {
	return append(stepEnv(env, filepath.Join(dir, "web", "node_modules", ".bin")), "HOME="+dir, "npm_config_cache="+filepath.Join(dir, ".npm"))
}
