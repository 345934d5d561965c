package publish

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"studio/content"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// The trial's hero: out of content/images/ to a file of the server's.
var trialHero = "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"

// failedRelease waits for the release of commit to fail, and returns it.
func (s *site) failedRelease(commit string) releases.Release {
	s.t.Helper()
	var failed releases.Release
	waitFor(s.t, "the build of "+commit[:7]+" to fail", func() bool {
		list, _ := s.releases.List()
		for _, r := range list {
			if r.Commit.Hash == commit && r.Status == releases.Failed {
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
	commit, err := s.repo.Commit("", map[string][]byte{"pages.json": b}, nil, repo.Signature{Name: "Owner", Email: "owner@example.com"}, "A hero from elsewhere")
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
// what `git push` of a commit made with `ln -s` brings. It writes to the
// repository with go-git, as a push would, beside the publisher's handle.
func (s *site) commitLink(name, target string) string {
	s.t.Helper()
	g, err := git.PlainOpen(filepath.Join(s.dir, "content.git"))
	if err != nil {
		s.t.Fatal(err)
	}
	main := plumbing.ReferenceName("refs/heads/main")
	old, err := g.Reference(main, true)
	if err != nil {
		s.t.Fatal(err)
	}
	parent, err := g.CommitObject(old.Hash())
	if err != nil {
		s.t.Fatal(err)
	}
	link := g.Storer.NewEncodedObject()
	link.SetType(plumbing.BlobObject)
	w, _ := link.Writer()
	w.Write([]byte(target))
	w.Close()
	blob, err := g.Storer.SetEncodedObject(link)
	if err != nil {
		s.t.Fatal(err)
	}
	root, err := withEntry(g.Storer, parent.TreeHash, strings.Split(name, "/"), object.TreeEntry{Mode: filemode.Symlink, Hash: blob})
	if err != nil {
		s.t.Fatal(err)
	}
	sig := object.Signature{Name: "Owner", Email: "owner@example.com", When: time.Now()}
	c := &object.Commit{Author: sig, Committer: sig, Message: "A link", TreeHash: root, ParentHashes: []plumbing.Hash{old.Hash()}}
	obj := g.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		s.t.Fatal(err)
	}
	commit, err := g.Storer.SetEncodedObject(obj)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := g.Storer.CheckAndSetReference(plumbing.NewHashReference(main, commit), old); err != nil {
		s.t.Fatal(err)
	}
	return commit.String()
}

// withEntry stores the tree tree with entry at path (its folders made as
// needed), and returns its hash.
func withEntry(st storer.EncodedObjectStorer, tree plumbing.Hash, path []string, entry object.TreeEntry) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	sub := plumbing.ZeroHash
	if !tree.IsZero() {
		t, err := object.GetTree(st, tree)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		for _, e := range t.Entries {
			if e.Name == path[0] {
				sub = e.Hash
				continue
			}
			entries = append(entries, e)
		}
	}
	if len(path) == 1 {
		entry.Name = path[0]
		entries = append(entries, entry)
	} else {
		hash, err := withEntry(st, sub, path[1:], entry)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: path[0], Mode: filemode.Dir, Hash: hash})
	}
	// Git's order: by name, a folder's as if it ended in "/".
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	obj := st.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

func TestACommitHoldingASymbolicLinkIsRefused(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	commit := s.commitLink("images/products/secret.jpg", "/etc/passwd")
	want := []string{"content/images/products/secret.jpg is a symbolic link: only ordinary files can be published (commit the file itself)"}

	out := filepath.Join(t.TempDir(), "content")
	var links *repo.LinkError
	if err := s.repo.Export(commit, out); !errors.As(err, &links) || !slices.Equal(links.Problems, want) {
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
