package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// How many code versions' bundles Cache/bundle keeps (the newest used).
const keptBundles = 4

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
