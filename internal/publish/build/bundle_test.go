package build

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"studio/internal/publish/publishtest"
)

// TestADamagedBundleIsBundledAgain keeps a bundle as the build does, then
// damages one of its files: the next build's reuse finds its SHA-256 is
// not the one kept, says so in the build's log, deletes the bundle and
// bundles again; an intact bundle is copied whole, and a bundle kept with
// no list of hashes is not used.
func TestADamagedBundleIsBundledAgain(t *testing.T) {
	t.Parallel()
	files := map[string]string{"client/assets/entry-abc.js": "console.log('the entry');\n", "client/favicon.svg": "<svg/>", "server/index.js": "export const build = 1;\n"}
	bundle := func(t *testing.T) (build, kept string) {
		t.Helper()
		dir := t.TempDir()
		build = filepath.Join(dir, "build")
		for name, body := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(build, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(build, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		kept = filepath.Join(dir, "cache", "bundle", "0123abcd")
		if err := keepBundle(build, kept); err != nil {
			t.Fatal(err)
		}
		return build, kept
	}
	reuse := func(t *testing.T, kept string) (string, bool, string) {
		t.Helper()
		var log bytes.Buffer
		into := filepath.Join(t.TempDir(), "build")
		bundled, err := reuseBundle(kept, into, &log)
		if err != nil {
			t.Fatal(err)
		}
		return into, bundled, log.String()
	}

	t.Run("intact", func(t *testing.T) {
		build, kept := bundle(t)
		for name := range files {
			publishtest.ReadOnly(t, filepath.Join(kept, name))
		}
		into, bundled, log := reuse(t, kept)
		if !bundled || log != "" {
			t.Fatalf("an intact bundle: reused %v, log %q; want reused, nothing said", bundled, log)
		}
		sameFiles(t, build, into)
	})
	for _, d := range publishtest.Damages {
		t.Run(d.Name, func(t *testing.T) {
			_, kept := bundle(t)
			d.Damage(t, filepath.Join(kept, "client", "assets", "entry-abc.js"))
			into, bundled, log := reuse(t, kept)
			if bundled {
				t.Fatal("a damaged bundle was reused")
			}
			if !strings.Contains(log, kept) || !strings.Contains(log, "client/assets/entry-abc.js") {
				t.Errorf("the build's log does not name the damaged bundle and file: %q", log)
			}
			if _, err := os.Stat(kept); !os.IsNotExist(err) {
				t.Errorf("the damaged bundle is still kept (%v)", err)
			}
			if _, err := os.Stat(filepath.Join(into, "client", "assets", "entry-abc.js")); !os.IsNotExist(err) {
				t.Errorf("the damaged bundle's file reached the build (%v)", err)
			}
		})
	}
	t.Run("no list of hashes", func(t *testing.T) {
		_, kept := bundle(t)
		if err := os.Remove(filepath.Join(kept, bundleSums)); err != nil {
			t.Fatal(err)
		}
		if _, bundled, log := reuse(t, kept); bundled || !strings.Contains(log, bundleSums) {
			t.Errorf("a bundle with no %s: reused %v, log %q; want bundled again, the list named", bundleSums, bundled, log)
		}
	})
}
