package publish

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"studio/content"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/internal/store/storetest"
)

// copies starts n copies of the server, each with its own data dir and
// builder, on one new PostgreSQL schema.
type copyOf struct {
	site      *site
	publisher *Publisher
	target    *fakeTarget
	stop      context.CancelFunc
}

func startCopies(t *testing.T, n int) ([]*copyOf, *sql.DB) {
	t.Helper()
	url := storetest.PostgresURL(t)
	st, err := store.OpenPostgres(context.Background(), url) // the migrations make the tables
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var copies []*copyOf
	for range n {
		s := newSite(t)
		ctx, cancel := context.WithCancel(context.Background())
		log := slog.New(slog.DiscardHandler)
		if testing.Verbose() {
			log = slog.New(slog.NewTextHandler(os.Stderr, nil)).With("copy", len(copies))
		}
		shared, err := openShared(t, ctx, url, s.releases, log)
		if err != nil {
			t.Fatal(err)
		}
		target := &fakeTarget{releases: s.releases, id: EmbeddedID, tagline: "embedded"}
		p := &Publisher{Repo: s.repo, Releases: s.releases, Builder: s.builder, Target: target, CodeVersion: "v1",
			Embedded: Embedded{Client: embeddedClient, Content: content.Files}, Keep: 10, Log: log, Shared: shared, LookEvery: lookEvery}
		if err := p.Start(ctx); err != nil {
			t.Fatal(err)
		}
		stop := func() { cancel(); p.Wait(); shared.Close() }
		t.Cleanup(stop)
		copies = append(copies, &copyOf{site: s, publisher: p, target: target, stop: stop})
	}
	return copies, db
}

// builder is the copy that builds, once one does.
func builder(t *testing.T, copies []*copyOf) *copyOf {
	t.Helper()
	var found *copyOf
	waitFor(t, "a copy to build", func() bool {
		n := 0
		for _, c := range copies {
			if c.publisher.Builds() {
				found, n = c, n+1
			}
		}
		if n > 1 {
			t.Fatal("two copies build at once")
		}
		return n == 1
	})
	return found
}

// allServe waits until every copy serves tagline, and says how long the
// last took after the first (a figure for the log: how fast is not a
// test's question).
func allServe(t *testing.T, copies []*copyOf, tagline string) time.Duration {
	t.Helper()
	var first time.Time
	waitFor(t, "every copy to serve "+tagline, func() bool {
		n := 0
		for _, c := range copies {
			if servingTagline(c.target, tagline)() {
				n++
			}
		}
		if n > 0 && first.IsZero() {
			first = time.Now()
		}
		return n == len(copies)
	})
	return time.Since(first)
}

func TestTwoCopiesOnOnePostgreSQLSwitchTogether(t *testing.T) {
	t.Parallel()
	copies, db := startCopies(t, 2)
	b := builder(t, copies)
	other := copies[0]
	if other == b {
		other = copies[1]
	}
	main := func(c *copyOf) string { m, _ := c.site.repo.Main(); return m.Hash }
	if main(copies[0]) != main(copies[1]) {
		t.Fatalf("the copies start with different mains: %s and %s", main(copies[0]), main(copies[1]))
	}

	// A commit made on the copy that does not build is built once, by the
	// other, and goes live on both.
	hash := other.site.commitTagline("Shared by two copies")
	t.Logf("the second copy switched %s after the first", allServe(t, copies, "Shared by two copies"))
	if main(b) != hash {
		t.Errorf("the building copy's main is %s, want the commit made on the other, %s", main(b), hash)
	}
	if len(other.site.builder.builds) != 0 || len(b.site.builder.builds) != 1 {
		t.Errorf("builds: %d on the copy that builds, %d on the other; want 1 and 0", len(b.site.builder.builds), len(other.site.builder.builds))
	}
	first, _ := other.target.serving()

	// A second release: the files it shares with the first are stored once.
	b.site.commitTagline("A second tagline")
	allServe(t, copies, "A second tagline")
	var files, blobs int
	db.QueryRow(`SELECT count(*) FROM release_files`).Scan(&files)
	db.QueryRow(`SELECT count(*) FROM release_blobs`).Scan(&blobs)
	if files == 0 || blobs > files/2+3 { // each differs in its tagline, site.json and list of files
		t.Errorf("%d files of two releases stored as %d blobs: want the unchanged ones stored once", files, blobs)
	}

	// Make live on one copy switches every copy back.
	if err := other.publisher.MakeLive(first); err != nil {
		t.Fatal(err)
	}
	t.Logf("after Make live, the second copy switched %s after the first", allServe(t, copies, "Shared by two copies"))

	// "Publish now" on the copy that does not build is built by the other.
	before := len(b.site.builder.builds)
	if _, err := other.publisher.Publish(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the copy that builds to build main again", func() bool {
		b.site.builder.mu.Lock()
		defer b.site.builder.mu.Unlock()
		return len(b.site.builder.builds) > before
	})

	// The copy that builds stops: the other takes over.
	b.stop()
	if next := builder(t, []*copyOf{other}); next != other {
		t.Fatal("the remaining copy does not build")
	}
	other.site.commitTagline("After the builder stopped")
	allServe(t, []*copyOf{other}, "After the builder stopped")
}

func TestCommitsOnTwoCopiesAtOnceLoseNothing(t *testing.T) {
	t.Parallel()
	copies, _ := startCopies(t, 2)
	builder(t, copies)
	// A commit on a copy that took the other's at that moment is refused
	// (ErrMainMoved) and made again, as the editor does.
	commit := func(c *copyOf, tagline string) string {
		site := map[string]string{"tagline": tagline}
		b, _ := json.Marshal(site)
		for {
			hash, err := c.site.repo.Commit("", map[string][]byte{"note.json": b}, nil, repo.Signature{Name: "Owner", Email: "owner@example.com"}, tagline)
			if !errors.Is(err, repo.ErrMainMoved) {
				if err != nil {
					t.Fatal(err)
				}
				return hash
			}
		}
	}
	a := commit(copies[0], "Made on the first copy")
	b := commit(copies[1], "Made on the second copy")
	// One of them is main on both; the other is kept as a branch on its copy.
	waitFor(t, "one main on both copies", func() bool {
		m0, _ := copies[0].site.repo.Main()
		m1, _ := copies[1].site.repo.Main()
		return m0.Hash == m1.Hash && (m0.Hash == a || m0.Hash == b)
	})
	// Each commit is in main's history, or (when it lost the race for main)
	// kept as a branch on the copy it was made on.
	m, _ := copies[0].site.repo.Main()
	for i, hash := range []string{a, b} {
		c := copies[i]
		if c.site.repo.Contains(m.Hash, hash) {
			continue
		}
		g, err := git.PlainOpen(filepath.Join(c.site.dir, "content.git"))
		if err != nil {
			t.Fatal(err)
		}
		refs, err := g.References()
		if err != nil {
			t.Fatal(err)
		}
		kept := false
		refs.ForEach(func(r *plumbing.Reference) error {
			kept = kept || r.Hash().String() == hash && r.Name().Short() != "main"
			return nil
		})
		if !kept {
			t.Errorf("the commit made on copy %d (%s) is neither in main's history nor kept as a branch", i, hash)
		}
	}
}

// openShared is a copy's sharing through the PostgreSQL schema at url, on
// a store of its own (a copy of the server has its own pool), its blobs'
// damage said in log.
func openShared(t *testing.T, ctx context.Context, url string, rs *releases.Releases, log *slog.Logger) (*Shared, error) {
	t.Helper()
	st, err := store.OpenPostgres(ctx, url)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { st.Close() })
	rs.Logger = log
	return NewShared(ctx, st, rs, log)
}
