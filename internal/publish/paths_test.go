package publish

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"studio/content"
)

// The trial's hero: out of content/images/ to a file of the server's.
var trialHero = "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"

// failedRelease waits for the release of commit to fail, and returns it.
func (s *site) failedRelease(commit string) Release {
	s.t.Helper()
	var failed Release
	waitFor(s.t, "the build of "+commit[:7]+" to fail", func() bool {
		list, _ := s.releases.List()
		for _, r := range list {
			if r.Commit.Hash == commit && r.Status == Failed {
				failed = r
				return true
			}
		}
		return false
	})
	return failed
}

func TestACommitNamingAPictureOutsideTheContentFailsBeforeTheBuild(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	p, target := s.start("v1")
	s.commitTagline("good")
	waitFor(t, "good live", servingTagline(target, "good"))
	good := p.Live()

	b, err := fs.ReadFile(content.Files, "pages.json")
	if err != nil {
		t.Fatal(err)
	}
	var pages map[string]any
	json.Unmarshal(b, &pages)
	pages["home"].(map[string]any)["hero"].(map[string]any)["src"] = trialHero
	b, _ = json.MarshalIndent(pages, "", "  ")
	commit, err := s.repo.Commit("", map[string][]byte{"pages.json": b}, nil, Signature{Name: "Owner", Email: "owner@example.com"}, "A hero from elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	failed := s.failedRelease(commit)
	want := `content/pages.json: home.hero.src: "` + trialHero + `" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`
	if !slices.Equal(failed.Problems, []string{want}) {
		t.Errorf("the failed release's problems are %q, want [%q]", failed.Problems, want)
	}
	s.builder.mu.Lock()
	builds := slices.Clone(s.builder.builds)
	s.builder.mu.Unlock()
	if !slices.Equal(builds, []string{"good"}) {
		t.Errorf("built %q: the front end's tools were given the content", builds)
	}
	if id, _ := target.serving(); id != good {
		t.Errorf("serving %s, want %s still", id, good)
	}
}

// commitLink commits, on main, a symbolic link name pointing at target:
// what `git push` of a commit made with `ln -s` brings.
func (s *site) commitLink(name, target string) string {
	s.t.Helper()
	r := s.repo
	r.mu.Lock()
	defer r.mu.Unlock()
	old, err := r.repo.Reference(mainBranch, true)
	if err != nil {
		s.t.Fatal(err)
	}
	tree, err := r.treeFiles(old.Hash())
	if err != nil {
		s.t.Fatal(err)
	}
	hash, err := storeBlob(r.repo.Storer, []byte(target))
	if err != nil {
		s.t.Fatal(err)
	}
	tree[name] = treeFile{mode: filemode.Symlink, hash: hash}
	root, err := writeTree(r.repo.Storer, tree, "")
	if err != nil {
		s.t.Fatal(err)
	}
	sig := object.Signature{Name: "Owner", Email: "owner@example.com", When: time.Now()}
	commit, err := r.storeCommit(root, []plumbing.Hash{old.Hash()}, sig, sig, "A link")
	if err != nil {
		s.t.Fatal(err)
	}
	if err := r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(mainBranch, commit), old); err != nil {
		s.t.Fatal(err)
	}
	return commit.String()
}

func TestACommitHoldingASymbolicLinkIsRefused(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	commit := s.commitLink("images/products/secret.jpg", "/etc/passwd")
	want := []string{"content/images/products/secret.jpg is a symbolic link: only ordinary files can be published (commit the file itself)"}

	out := filepath.Join(t.TempDir(), "content")
	var content *ContentError
	if err := s.repo.Export(commit, out); !errors.As(err, &content) || !slices.Equal(content.Problems, want) {
		t.Errorf("Export: %v, want the problems %q", err, want)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused export wrote %s: %v", out, err)
	}

	p, target := s.start("v1")
	if failed := s.failedRelease(commit); !slices.Equal(failed.Problems, want) {
		t.Errorf("the failed release's problems are %q, want %q", failed.Problems, want)
	}
	if id, _ := target.serving(); id != EmbeddedID || p.Live() != EmbeddedID {
		t.Errorf("serving %s, want the embedded release still", id)
	}
}
