package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"studio/content"
	"studio/internal/backup"
	"studio/internal/config"
	"studio/internal/datadir"
	"studio/internal/publish"
	"studio/internal/publish/build"
	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/web"
)

// newPublisher opens the content repository (seeding it from the embedded
// content on first start) and the releases, and finds the builder. It
// returns the publisher without its Target: the workspace shows its
// releases, and is made before the server the publisher switches, so the
// caller sets Target to that server, then calls Start (which switches to
// the live release and builds main's new commits until ctx ends). With
// PostgreSQL, the copies of the server on its database share releases,
// main and one builder (publish.Shared), through st.
func newPublisher(ctx context.Context, log *slog.Logger, cfg config.Config, st *store.Store) (*publish.Publisher, error) {
	// With no content.git, a new one is made from the embedded content:
	// not when a restore was cut short just before putting its own there.
	if err := backup.CutShort(cfg.DataDir); err != nil {
		return nil, err
	}
	contentRepo, err := repo.Open(datadir.Dir(cfg.DataDir).Repository(), content.Files)
	if err != nil {
		return nil, err
	}
	rs, err := releases.Open(datadir.Dir(cfg.DataDir).Releases())
	if err != nil {
		return nil, err
	}
	version, err := codeVersion()
	if err != nil {
		return nil, err
	}
	p := &publish.Publisher{Repo: contentRepo, Releases: rs, CodeVersion: version,
		Embedded: publish.Embedded{Client: web.Client(), Content: content.Files},
		Manual:   cfg.Publishing.Manual, Keep: cfg.Publishing.Keep, Log: log}
	if cfg.DatabaseURL != "" {
		rs.Logger = log
		if p.Shared, err = publish.NewShared(ctx, st, rs, log); err != nil {
			return nil, err
		}
	}
	root := cfg.Publishing.BuilderDir
	if root == "" {
		root = "."
	}
	if build.HasBuilder(root) {
		scratch := datadir.Dir(cfg.DataDir).BuildScratch()
		if n := build.StopLeftoverBuilds(scratch); n > 0 {
			log.Warn("publish: stopped the processes of a build a killed server left running", "processes", n)
		}
		os.RemoveAll(scratch) // a stopped build's leftovers
		if err := os.MkdirAll(scratch, 0o755); err != nil {
			return nil, err
		}
		contentRepo.Blobs = datadir.Dir(cfg.DataDir).ContentBlobs()
		contentRepo.Snapshots = datadir.Dir(cfg.DataDir).Snapshots()
		contentRepo.Logger = log
		p.Builder = newBuilder(root, scratch, datadir.Dir(cfg.DataDir).BuildCache(), cfg.Publishing)
		abs, _ := filepath.Abs(root)
		log.Info("publish: commits to main are built with the front end in "+abs, "manual", cfg.Publishing.Manual)
	} else {
		log.Info("publish: no builder (BUILDER_DIR with web/node_modules): the live release serves, new commits wait for one")
	}
	return p, nil
}

// prepareBundles bundles this code in the background as the server
// starts, unless its bundles are kept, so that the studio's first preview
// or publish does not wait for it (a build started meanwhile waits for
// the bundling instead of doing it again).
func prepareBundles(ctx context.Context, log *slog.Logger, p *publish.Publisher) {
	b, ok := p.Builder.(*build.NodeBuilder)
	if !ok {
		return
	}
	go func() {
		var out bytes.Buffer
		started := time.Now()
		if err := b.Prepare(ctx, &out); err != nil {
			if ctx.Err() == nil {
				log.Error("publish: bundling the code at start", "err", err, "output", out.String())
			}
			return
		}
		log.Info("publish: the code's bundles are ready", "seconds", time.Since(started).Round(100*time.Millisecond).Seconds())
	}()
}

// newBuilder is the builder of a server whose checkout is root: its
// builds in scratch, its caches in cache, its limits p's.
func newBuilder(root, scratch, cache string, p config.Publishing) *build.NodeBuilder {
	return &build.NodeBuilder{Root: root, Scratch: scratch, Cache: cache, TimeOut: p.TimeOut, Env: build.Env(os.Getenv("PATH")),
		RendererMemory: p.RendererMemory, RenderTimeOut: p.RenderTimeOut}
}

// codeVersion names this bin/studio: the start of its file's SHA-256. A
// release records the code that built it; a new binary rebuilds the content.
func codeVersion() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// releasesCommand runs `studio publish [--wait]`, `studio releases` and
// `studio rollback ID` against DATA_DIR: the running server reads the
// requests they leave there within a second.
func releasesCommand(args []string, out io.Writer) error {
	cfg, err := config.FromEnv(os.LookupEnv)
	if err != nil {
		return err
	}
	rs, err := releases.Open(datadir.Dir(cfg.DataDir).Releases())
	if err != nil {
		return err
	}
	var book releaseBook = rs
	if cfg.DatabaseURL != "" {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		st, err := store.OpenPostgres(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer st.Close()
		shared, err := publish.NewShared(ctx, st, rs, slog.New(slog.DiscardHandler))
		if err != nil {
			return err
		}
		defer shared.Close()
		book = sharedBook{shared}
	}
	switch {
	case args[0] == "releases" && len(args) == 1:
		return printReleases(book, out)
	case args[0] == "releases" && len(args) == 2 && args[1] == "--verify":
		return verifyReleases(book, rs, out)
	case args[0] == "rollback" && len(args) == 2:
		return rollbackCommand(cfg, rs, book, args[1], out)
	case args[0] == "publish" && (len(args) == 1 || len(args) == 2 && args[1] == "--wait"):
		return publishCommand(cfg, rs, book, len(args) == 2, out)
	}
	return errors.New(usage)
}

// A releaseBook is where the shell commands read the releases and the
// live one: DATA_DIR/releases, or with PostgreSQL the database every copy
// follows.
type releaseBook interface {
	Get(id string) (releases.Release, error)
	List() ([]releases.Release, error)
	Live() (string, error)
}

type sharedBook struct{ *publish.Shared }

func (b sharedBook) Live() (string, error) {
	st, err := b.State(context.Background())
	return st.Live, err
}

// rollbackCommand runs `studio rollback ID`: release id is made live and
// its content main's again, by one commit "Back to the version of …" by
// studio, as "Go back to this version" does on the Versions of the site page. The running server
// does it (Publisher.Rollback), asked through DATA_DIR, and answers; with
// no server running, on SQLite the command does it itself: the live file
// and the commit, which the next start serves.
func rollbackCommand(cfg config.Config, rs *releases.Releases, book releaseBook, id string, out io.Writer) error {
	r, err := book.Get(id)
	if err != nil && id != publish.EmbeddedID {
		return fmt.Errorf("rollback: %w (studio releases lists them)", err)
	}
	if id != publish.EmbeddedID && (r.Status != releases.Ready || r.Format != releases.Format) {
		return fmt.Errorf("rollback: release %s is %s: only a ready release can be made live", id, r.Status)
	}
	if r.Preview {
		return fmt.Errorf("rollback: release %s is a preview of unpublished changes: publish the draft in the workspace instead", id)
	}
	if id != publish.EmbeddedID && cfg.DatabaseURL == "" {
		if err := rs.Verify(r); err != nil {
			return fmt.Errorf("rollback: %w: it cannot be made live (studio publish builds main again)", err)
		}
	}
	lock, err := store.LockDataDir(cfg.DataDir)
	switch {
	case errors.Is(err, store.ErrInUse):
		return askServerToRollBack(cfg, rs, id, out)
	case err != nil:
		return err
	}
	defer lock.Close()
	if cfg.DatabaseURL != "" {
		// The content's main is shared through the database by the running
		// copies; one that is stopped cannot move it.
		return fmt.Errorf("rollback: no server is running on DATA_DIR %s, and with PostgreSQL the content's main is moved by a running copy: start it and run studio rollback again, or use Go back to this version on the Versions of the site page of a running copy. Nothing was changed", cfg.AbsDataDir())
	}
	contentRepo, err := repo.Open(datadir.Dir(cfg.DataDir).Repository(), content.Files)
	if err != nil {
		return err
	}
	if err := rs.SetLive(id); err != nil {
		return err
	}
	p := &publish.Publisher{Repo: contentRepo, Releases: rs, Embedded: publish.Embedded{Content: content.Files}, Log: slog.New(slog.DiscardHandler)}
	hash, err := p.CommitBackTo(id, publish.Shell)
	if err != nil {
		return fmt.Errorf("rollback: %s is live from the next start, but the content's main could not be set back to it: %w (run studio rollback %s again)", id, err, id)
	}
	main, err := contentRepo.Main()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "rollback: %s is live from the next start (no server is running on DATA_DIR %s)\n", id, cfg.AbsDataDir())
	printBackTo(out, hash, main.Message)
	return nil
}

// askServerToRollBack leaves the request for the running server and prints
// its answer.
func askServerToRollBack(cfg config.Config, rs *releases.Releases, id string, out io.Writer) error {
	if err := rs.RequestRollback(id); err != nil {
		return err
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		a, ok, err := rs.TakeRollbackAnswer()
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if a.Error != "" {
			return fmt.Errorf("rollback: the server refused: %s", a.Error)
		}
		copies := ""
		if cfg.DatabaseURL != "" {
			copies = " (the other copies within 5 s)"
		}
		fmt.Fprintf(out, "rollback: %s is live%s\n", id, copies)
		printBackTo(out, a.Commit, a.Message)
		return nil
	}
	return errors.New("rollback: no answer from the server within a minute; the request stays, for it to take when it can. studio releases shows which release is live, and the server's log says why")
}

// printBackTo says what became of the content's main.
func printBackTo(out io.Writer, commit, message string) {
	if commit == "" {
		fmt.Fprintln(out, "rollback: the content's main has this release's files already: no commit was needed")
		return
	}
	fmt.Fprintf(out, "rollback: the content's main is back to this release's files by a new commit, %.7s %q; unpublished changes, if any, stay unpublished, on top of it\n", commit, message)
}

func printReleases(rs releaseBook, out io.Writer) error {
	list, err := rs.List()
	if err != nil {
		return err
	}
	live, err := rs.Live()
	if err != nil {
		return err
	}
	if live == "" {
		live = publish.EmbeddedID
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "RELEASE\tSTATUS\tCOMMIT\tAUTHOR\tWHEN\tMESSAGE")
	for _, r := range list {
		status := string(r.Status)
		if r.Preview {
			status = "preview, " + status
		}
		if len(r.Damage) > 0 {
			status = "damaged"
		}
		if r.ID == live {
			status = "live"
		} else if r.Status == releases.Building {
			status += ": " + r.Stage
		}
		fmt.Fprintf(w, "%s\t%s\t%.7s\t%s\t%s\t%s\n", r.ID, status, r.Commit.Hash, r.Author, r.QueuedAt.Local().Format("2006-01-02 15:04"), r.Subject())
		for _, p := range append(r.Problems, r.Damage...) {
			fmt.Fprintf(w, "\t\t\t\t\t  %s\n", p)
		}
	}
	if live == publish.EmbeddedID {
		fmt.Fprintln(w, "embedded\tlive\t\t\t\tthe site as built into bin/studio")
	}
	return w.Flush()
}

// verifyReleases checks each release this machine holds against its list
// of files, and names each damaged file; an error when any is damaged.
func verifyReleases(book releaseBook, rs *releases.Releases, out io.Writer) error {
	list, err := book.List()
	if err != nil {
		return err
	}
	own, err := rs.OwnBytes()
	if err != nil {
		return err
	}
	damaged := 0
	for _, r := range list {
		if r.Status != releases.Ready {
			continue
		}
		if _, err := os.Stat(rs.Dir(r.ID)); err != nil {
			fmt.Fprintf(out, "%s\tnot on this machine (another copy holds it)\n", r.ID)
			continue
		}
		start := time.Now()
		switch err := rs.VerifyAll(r); {
		case err == nil && r.Manifest == "":
			fmt.Fprintf(out, "%s\tnot checked: built before releases listed their files\n", r.ID)
		case err == nil:
			fmt.Fprintf(out, "%s\tintact\tchecked in %s\t%.1f MB of files, %.1f MB its own (no other release holds them: what deleting it frees)\n", r.ID,
				time.Since(start).Round(time.Millisecond), float64(r.Size)/1e6, float64(own[r.ID])/1e6)
		default:
			damaged++
			fmt.Fprintf(out, "%s\tDAMAGED\n", r.ID)
			if damage := (*releases.DamageError)(nil); errors.As(err, &damage) {
				for _, f := range damage.Files {
					fmt.Fprintf(out, "\t  %s\n", f)
				}
			} else {
				fmt.Fprintf(out, "\t  %v\n", err)
			}
		}
	}
	if damaged > 0 {
		return fmt.Errorf("releases: %d damaged; a running server never makes one live, and rebuilds main when the live one is (studio publish builds it now)", damaged)
	}
	return nil
}

// publishCommand asks the running server to build main; with wait it
// follows the build's stages until it is live or failed.
func publishCommand(cfg config.Config, rs *releases.Releases, book releaseBook, wait bool, out io.Writer) error {
	lock, err := store.LockDataDir(cfg.DataDir)
	if err == nil {
		lock.Close()
		return fmt.Errorf("publish: no server is running on DATA_DIR %s: start it (make run); it builds main's new commits itself", cfg.AbsDataDir())
	}
	before, err := book.List()
	if err != nil {
		return err
	}
	if err := rs.RequestPublish(); err != nil {
		return err
	}
	fmt.Fprintln(out, "publish: the server builds main now")
	if !wait {
		return nil
	}
	known := map[string]bool{}
	for _, r := range before {
		known[r.ID] = true
	}
	var id, said string
	for deadline := time.Now().Add(cfg.Publishing.TimeOut + time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		list, err := book.List()
		if err != nil {
			return err
		}
		for _, r := range list {
			if id == "" && !known[r.ID] && !r.Preview {
				id = r.ID
			}
			if r.ID != id {
				continue
			}
			live, _ := book.Live()
			line := string(r.Status) + " " + r.Stage
			switch {
			case r.Status == releases.Failed:
				fmt.Fprintf(out, "publish: %s failed:\n", r.ID)
				for _, p := range r.Problems {
					fmt.Fprintln(out, "  "+p)
				}
				return fmt.Errorf("publish: release %s failed; the live site is unchanged", r.ID)
			case r.ID == live:
				fmt.Fprintf(out, "publish: %s is live, built in %.1f s\n", r.ID, r.BuildSeconds)
				return nil
			case r.Status == releases.Ready && cfg.Publishing.Manual:
				fmt.Fprintf(out, "publish: %s is ready, built in %.1f s; PUBLISH=manual: make it live with studio rollback %s or on the Releases page\n", r.ID, r.BuildSeconds, r.ID)
				return nil
			case line != said:
				fmt.Fprintf(out, "publish: %s: %s\n", r.ID, line)
				said = line
			}
		}
	}
	return errors.New("publish: no answer from the server in time; studio releases shows where the build is")
}
