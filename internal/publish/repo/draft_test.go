package repo

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func newDraftRepo(t *testing.T) *Repository {
	t.Helper()
	repo, err := Open(t.TempDir(), fstest.MapFS{
		"site.json":      {Data: []byte(`{"name": "A"}`)},
		"pages/about.md": {Data: []byte("# About\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func readOn(t *testing.T, r *Repository, hash, name string) string {
	t.Helper()
	b, err := r.ReadFile(hash, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var owner = Signature{Name: "Owner", Email: "owner@example.com"}

func TestASavedDraftLeavesMainAloneUntilPublished(t *testing.T) {
	t.Parallel()
	r := newDraftRepo(t)
	main, _ := r.Main()
	start, draft, err := r.Draft()
	if err != nil || draft || start.Hash != main.Hash {
		t.Fatalf("with nothing saved, Draft() = %v, %v, %v; want main, false", start.Hash, draft, err)
	}
	first, err := r.SaveDraft(start.Hash, map[string][]byte{"site.json": []byte(`{"name": "B"}`)}, nil, owner, "Studio details: name")
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.SaveDraft(first, nil, []string{"pages/about.md"}, owner, "About removed")
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := r.Main(); m.Hash != main.Hash {
		t.Fatalf("saving a draft moved main")
	}
	list, err := r.Unpublished()
	if err != nil || len(list) != 2 || list[0].Subject() != "About removed" || list[1].Subject() != "Studio details: name" || list[0].Author != "Owner" {
		t.Fatalf("Unpublished() = %+v, %v; want the two saves, newest first, by Owner", list, err)
	}
	published, err := r.PublishDraft(owner)
	if err != nil || published != second {
		t.Fatalf("PublishDraft() = %s, %v; want main moved to the draft %s", published, err, second)
	}
	if got := readOn(t, r, published, "site.json"); got != `{"name": "B"}` {
		t.Errorf("main's site.json = %s", got)
	}
	if _, draft, _ := r.Draft(); draft {
		t.Errorf("a draft is left after publishing")
	}
	if list, _ := r.Unpublished(); len(list) != 0 {
		t.Errorf("after publishing, %d changes are unpublished", len(list))
	}
}

func TestASaveStartedBeforeAnotherIsRefused(t *testing.T) {
	t.Parallel()
	r := newDraftRepo(t)
	start, _, _ := r.Draft()
	if _, err := r.SaveDraft(start.Hash, map[string][]byte{"site.json": []byte(`{"name": "First"}`)}, nil, owner, "first"); err != nil {
		t.Fatal(err)
	}
	_, err := r.SaveDraft(start.Hash, map[string][]byte{"site.json": []byte(`{"name": "Second"}`)}, nil, owner, "second")
	if !errors.Is(err, ErrDraftMoved) {
		t.Fatalf("a save over a newer draft: %v, want ErrDraftMoved", err)
	}
	now, _, _ := r.Draft()
	if got := readOn(t, r, now.Hash, "site.json"); got != `{"name": "First"}` {
		t.Errorf("the draft's site.json = %s, want the first save kept", got)
	}
	if _, err := r.SaveDraft("", nil, nil, owner, "no base"); !errors.Is(err, ErrDraftMoved) {
		t.Errorf("a save with no base: %v, want ErrDraftMoved", err)
	}
}

func TestPublishingOverAMovedMainKeepsBoth(t *testing.T) {
	t.Parallel()
	r := newDraftRepo(t)
	start, _, _ := r.Draft()
	if _, err := r.SaveDraft(start.Hash, map[string][]byte{"site.json": []byte(`{"name": "Draft"}`)}, nil, owner, "draft"); err != nil {
		t.Fatal(err)
	}
	// A developer pushes another file to main meanwhile.
	if _, err := r.Commit("", map[string][]byte{"pages/about.md": []byte("# Pushed\n")}, nil, Signature{Name: "Dev"}, "pushed"); err != nil {
		t.Fatal(err)
	}
	hash, err := r.PublishDraft(owner)
	if err != nil {
		t.Fatal(err)
	}
	if got := readOn(t, r, hash, "site.json"); got != `{"name": "Draft"}` {
		t.Errorf("published site.json = %s, want the draft's", got)
	}
	if got := readOn(t, r, hash, "pages/about.md"); got != "# Pushed\n" {
		t.Errorf("published about.md = %q, want the push kept", got)
	}
}

func TestPublishingRefusesWhenMainChangedTheSameFile(t *testing.T) {
	t.Parallel()
	r := newDraftRepo(t)
	start, _, _ := r.Draft()
	draftHash, err := r.SaveDraft(start.Hash, map[string][]byte{"site.json": []byte(`{"name": "Draft"}`)}, nil, owner, "draft")
	if err != nil {
		t.Fatal(err)
	}
	pushed, err := r.Commit("", map[string][]byte{"site.json": []byte(`{"name": "Pushed"}`)}, nil, Signature{Name: "Dev"}, "pushed")
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.PublishDraft(owner)
	var conflict *ConflictError
	if !errors.As(err, &conflict) || len(conflict.Files) != 1 || conflict.Files[0] != "site.json" {
		t.Fatalf("PublishDraft() = %v, want a conflict on site.json", err)
	}
	if m, _ := r.Main(); m.Hash != pushed {
		t.Errorf("a refused publish moved main")
	}
	if d, draft, _ := r.Draft(); !draft || d.Hash != draftHash {
		t.Errorf("a refused publish lost the draft")
	}
	if err := r.DiscardDraft(); err != nil {
		t.Fatal(err)
	}
	if d, draft, _ := r.Draft(); draft || d.Hash != pushed {
		t.Errorf("after Discard, Draft() = %s, %v; want main", d.Hash, draft)
	}
}

// A repository made by an older bin/studio gets the files shipped since on
// its next start, once; the studio's own copy of one is never replaced.
func TestAnOlderRepositoryGetsTheFilesShippedSince(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := fstest.MapFS{"site.json": {Data: []byte(`{"name": "A"}`)}}
	if _, err := Open(dir, old); err != nil {
		t.Fatal(err)
	}
	now := fstest.MapFS{
		"site.json":                  {Data: []byte(`{"name": "shipped"}`)},
		"replies.json":               {Data: []byte(`{"templates": []}`)},
		"schema/replies.schema.json": {Data: []byte(`{}`)},
	}
	r, err := Open(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	main, _ := r.Main()
	if got := readOn(t, r, main.Hash, "replies.json"); got != `{"templates": []}` {
		t.Errorf("replies.json = %q, want the shipped one", got)
	}
	readOn(t, r, main.Hash, "schema/replies.schema.json")
	if got := readOn(t, r, main.Hash, "site.json"); got != `{"name": "A"}` {
		t.Errorf("site.json = %q: the studio's file was replaced", got)
	}
	// Changed by the studio, then opened again: kept, and no new commit.
	edited, err := r.Commit(main.Hash, map[string][]byte{"replies.json": []byte(`{"templates": [1]}`)}, nil, owner, "edit")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := again.Main(); m.Hash != edited {
		t.Errorf("reopened, main moved from the studio's commit to %s", m.Hash)
	}
}

// A repository made by an older bin/studio gets this one's labels and
// hints (its schemas' titles and descriptions), once; a schema whose rules
// differ is left as it is.
func TestAnOlderRepositoryGetsTheSchemasWordsShippedSince(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := fstest.MapFS{
		"schema/pages.schema.json": {Data: []byte(`{"type": "object", "properties": {"title": {"type": "string", "description": "over catalogue.json featured.whatsHot"}}}`)},
		"schema/site.schema.json":  {Data: []byte(`{"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}}`)},
	}
	if _, err := Open(dir, old); err != nil {
		t.Fatal(err)
	}
	words := `{"type": "object", "properties": {"title": {"type": "string", "description": "the heading above What's Hot", "title": "Heading"}}}`
	rules := `{"type": "object", "properties": {"name": {"type": "string", "title": "Studio name", "pattern": "\S"}}}`
	now := fstest.MapFS{"schema/pages.schema.json": {Data: []byte(words)}, "schema/site.schema.json": {Data: []byte(rules)}}
	r, err := Open(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	main, _ := r.Main()
	if got := readOn(t, r, main.Hash, "schema/pages.schema.json"); got != words {
		t.Errorf("pages.schema.json = %s, want the shipped words", got)
	}
	if got := readOn(t, r, main.Hash, "schema/site.schema.json"); got != string(old["schema/site.schema.json"].Data) {
		t.Errorf("site.schema.json = %s: a schema of other rules was replaced", got)
	}
	again, err := Open(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := again.Main(); m.Hash != main.Hash {
		t.Error("reopened, the words were committed again")
	}
}

func TestCommitTreeRefusesAMovedMainAndUnknownFiles(t *testing.T) {
	t.Parallel()
	r := newDraftRepo(t)
	first, _ := r.Main()
	second, err := r.Commit(first.Hash, map[string][]byte{"site.json": []byte(`{"name": "B"}`)}, nil, owner, "B")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CommitTree(first.Hash, first.Tree, owner, "back"); !errors.Is(err, ErrMainMoved) {
		t.Errorf("CommitTree on a main that moved: %v, want ErrMainMoved", err)
	}
	if _, err := r.CommitTree(second, strings.Repeat("0", 40), owner, "back"); err == nil {
		t.Error("CommitTree of files the repository has not got succeeded")
	}
	if main, _ := r.Main(); main.Hash != second {
		t.Errorf("main moved to %q", main.Message)
	}
}

func TestASubjectIsTheMessagesFirstLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"New tagline\n\nLonger text.": "New tagline", "  \n": "(no message)", "One": "One"} {
		if got := (Commit{Message: in}).Subject(); got != want {
			t.Errorf("Subject of %q = %q, want %q", in, got, want)
		}
	}
}
