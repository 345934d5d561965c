package build

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// fromCheckout is everything a build copies from the checkout (Root): the
// front end's sources (web/), and the contracts it shares with the server
// (the JSON files Go and TypeScript both read). Nothing else is copied, so
// an import of the front end that reaches outside them fails the build
// (web/scripts/outside-web.test.ts keeps the front end to them).
var fromCheckout = []string{"web", "contracts"}

// notSources are what builds and tests write into web/, and the installed
// packages (linked instead, linkModules): never copied, nor part of the
// code's hash.
var notSources = map[string]bool{"web/node_modules": true, "web/build": true, "web/.generated": true, "web/.image-cache": true,
	"web/.compress-cache": true, "web/.page-cache": true, "web/.react-router": true, "web/test-results": true,
	"web/playwright-report": true, "web/e2e": true, "web/.preview-images": true}

// HasBuilder says whether root holds what NodeBuilder needs: what a build
// copies, and web/'s installed packages.
func HasBuilder(root string) bool {
	for _, name := range append([]string{"web/package.json", "web/node_modules/.package-lock.json"}, fromCheckout...) {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			return false
		}
	}
	return true
}

// copyCheckout copies fromCheckout from root into work, and adds each
// file to code, the hash that names the code's bundles (see NodeBuilder):
// these files are the code; the content is elsewhere.
func copyCheckout(root, work string, code io.Writer) error {
	for _, name := range fromCheckout {
		if err := copySources(root, name, work, code); err != nil {
			return fmt.Errorf("publish: copying %s: %w", filepath.Join(root, name), err)
		}
	}
	return nil
}

// copySources copies name (a file or a folder) of root into work, leaving
// out notSources, and adds each file to code.
func copySources(root, name, work string, code io.Writer) error {
	return filepath.WalkDir(filepath.Join(root, name), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() && notSources[filepath.ToSlash(rel)] {
			return filepath.SkipDir
		}
		target := filepath.Join(work, rel)
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
