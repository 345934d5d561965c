package releases

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/page"
)

// The versions of the site in the studio's words: each release as a
// version (Row), what it changed, worked out from the content itself (its
// files against the version's before it), who made those changes, and what
// going back to one undoes.

// ListView is every version of the site, newest first.
type ListView struct {
	page.Frame
	Releases []Row
	CanBuild bool
	Building bool   // a release is queued or building: the page (GET) follows it (Frame.Follow)
	UnderWay string // where the oldest publish under way has come to, in the studio's words
	Trouble  string // the publisher's Problem, said at the top
}

// Row is one release as the page shows it: a version of the site.
type Row struct {
	published.Release
	Title       string // the message's first line
	Short       string // the commit's first seven characters ("" for the embedded build)
	Label       string // Live, Queued, Building — <stage>, Ready, Failed
	Live        bool
	Class       string // "live" or "failed", for the styles
	CanMakeLive bool   // ready, and not the live one
	Took, Size  string // "" when not known
	Open        bool   // its problems are shown open: the newest failure, with no release ready since

	Name         string      // what the page calls it: when it was published, or "The site as it was installed"
	When         time.Time   // when it was published (its build queued); zero for the installed site
	Newer        bool        // ready, and newer than the live one: made live, not gone back to
	GoBack       string      // "Go back to the version of …": the confirmation's heading and button
	GoBackButton string      // its Go back button's name in the list, unique on the page
	By           string      // whose changes it holds: "Asha and Meera" ("" when not known)
	Changes      []string    // what it changed, one line a part ("" when not known: describe)
	Fixes        []Fix       // a failed one's problems, said where she fixes them
	before       repo.Commit // the commit of the version before it (zero when not known: describe)
}

// Fix is a problem of a failed version, and the address of the field to
// fix it in ("" when it names none).
type Fix struct{ Text, Href string }

// Installed is what the page calls the build inside the server: the site
// as it was installed, before any version of the studio's.
const Installed = "The site as it was installed"

// versionName is a version as a sentence names it: "The version of 29 Nov
// 2026, 14:05", "The site as it was installed".
func versionName(row Row) string {
	if row.ID == publish.EmbeddedID {
		return row.Name
	}
	return "The version of " + row.Name
}

// upperFirst is a line of its own: "The build ran out of time".
func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// lowerFirst is a name in a sentence: "the version of …".
func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// historyDepth is how far back main's history is read for the versions:
// each save is a commit, so this is some hundred saves between the oldest
// version kept and main.
const historyDepth = 2000

// mainHistory is main's commit and its history, newest first.
func (h *Handler) mainHistory() ([]repo.Commit, error) {
	main, err := h.opts.History.Main()
	if err != nil {
		return nil, err
	}
	h.memo.mu.Lock()
	defer h.memo.mu.Unlock()
	if h.memo.main != main.Hash {
		list, err := h.opts.History.Log(main.Hash, historyDepth)
		if err != nil {
			return nil, err
		}
		h.memo.main, h.memo.history = main.Hash, list
	}
	return h.memo.history, nil
}

// changes is Words.Changes, kept.
func (h *Handler) changes(from, to string) []string {
	key := [2]string{from, to}
	h.memo.mu.Lock()
	got, ok := h.memo.changes[key]
	h.memo.mu.Unlock()
	if ok {
		return got
	}
	got, err := h.opts.Words.Changes(from, to)
	if err != nil {
		h.kit.Log.Error("studio: what a version changed", "from", from, "to", to, "err", err)
		return nil
	}
	if len(got) == 0 {
		got = []string{"Nothing the workspace edits"}
	}
	h.memo.mu.Lock()
	if h.memo.changes == nil || len(h.memo.changes) > 1000 {
		h.memo.changes = map[[2]string][]string{}
	}
	h.memo.changes[key] = got
	h.memo.mu.Unlock()
	return got
}

// describe says of each version what it changed and whose changes they
// are, and of a failed one what to fix. A version's changes are those of
// main's history between it and the version before it: the nearest older
// commit whose files are those of another version (so a version gone back
// to counts as the one it went back to).
func (h *Handler) describe(p *ListView) {
	if h.opts.History == nil || h.opts.Words == nil {
		return
	}
	history, err := h.mainHistory()
	if err != nil {
		h.kit.Log.Error("studio: read the content's history", "err", err)
		return
	}
	trees := map[string]bool{}
	for _, row := range p.Releases {
		trees[row.Tree] = true
	}
	for i := range p.Releases {
		row := &p.Releases[i]
		for _, line := range row.Problems {
			text, href := h.opts.Words.Explain(row.Commit.Hash, line)
			row.Fixes = append(row.Fixes, Fix{Text: upperFirst(text), Href: href})
		}
		if row.ID != publish.EmbeddedID {
			h.sayChanges(row, history, trees, p.Releases[i+1:])
		}
	}
}

// sayChanges says what row changed from the version before it, and whose
// changes those are; a version of an older one's files says so first.
func (h *Handler) sayChanges(row *Row, history []repo.Commit, trees map[string]bool, older []Row) {
	same, found := sameFiles(older, row.Tree)
	if found && same.Commit.Hash == row.Commit.Hash {
		// Built again (Build the site again, a new server): nothing changed.
		row.Changes, row.before = []string{"The same content as " + lowerFirst(versionName(same)) + ", built again"}, same.Commit
		return
	}
	at := place(history, row.Commit)
	if at < 0 {
		return
	}
	var authors []string
	for _, c := range history[at:] {
		if c.Hash != row.Commit.Hash && trees[c.Tree] && c.Tree != row.Tree {
			row.Changes, row.before = h.changes(c.Hash, row.Commit.Hash), c
			break
		}
		authors = append(authors, c.Author)
	}
	if row.Changes == nil {
		return
	}
	row.By = names(authors)
	if found {
		// Its changes undo those since an earlier version (gone back to,
		// then built again).
		row.Changes = append([]string{"Back to " + lowerFirst(versionName(same))}, row.Changes...)
	}
}

// place is where commit c is in history: by its hash, or else by its
// files (a version gone back to, or built on another copy); -1 when it is
// not there.
func place(history []repo.Commit, c repo.Commit) int {
	for i, h := range history {
		if c.Hash != "" && h.Hash == c.Hash {
			return i
		}
	}
	for i, h := range history {
		if c.Tree != "" && h.Tree == c.Tree {
			return i
		}
	}
	return -1
}

// undone is what going back to version v undoes: the versions since v,
// newest first, each with its changes; ok false when v is not before the
// content of main now (a version undone already: going back to it brings
// its changes back instead). From the version whose files main has now,
// each version leads to the one before it (describe), so a version gone
// back to past others leaves them out. With no history to read, it says
// nothing.
func (h *Handler) undone(p *ListView, v Row) (rows []Row, ok bool) {
	if h.opts.History == nil || h.opts.Words == nil {
		return nil, true
	}
	history, err := h.mainHistory()
	if err != nil || len(history) == 0 {
		return nil, true
	}
	at := map[string]int{}
	for i, row := range p.Releases {
		at[row.ID] = i
	}
	visited := map[string]bool{}
	// version is the version of commit c: by its hash, else the newest
	// not yet passed with its files.
	version := func(c repo.Commit) (Row, bool) {
		for _, row := range p.Releases {
			if row.Commit.Hash == c.Hash && !visited[row.ID] {
				return row, true
			}
		}
		for _, row := range p.Releases {
			if row.Tree == c.Tree && !visited[row.ID] {
				return row, true
			}
		}
		return Row{}, false
	}
	var row Row
	found := false
	for _, c := range history {
		if row, found = version(c); found {
			break
		}
	}
	for found {
		switch {
		case row.Tree == v.Tree:
			return rows, true
		case at[row.ID] > at[v.ID]:
			return nil, false // older than v: going back to v goes forward
		}
		visited[row.ID] = true
		// A version of an older one's files (built again after going back
		// to it) is that one.
		if older, same := sameFiles(p.Releases[at[row.ID]+1:], row.Tree); same && !visited[older.ID] {
			row = older
			continue
		}
		rows = append(rows, row)
		if row.before.Tree == "" {
			break
		}
		row, found = version(row.before)
	}
	return nil, false
}

// sameFiles is the first of rows with the files tree.
func sameFiles(rows []Row, tree string) (Row, bool) {
	for _, row := range rows {
		if row.Tree == tree {
			return row, true
		}
	}
	return Row{}, false
}

// names lists people once each, as a sentence does: "Asha", "Asha and
// Meera", "Asha, Meera and Ravi".
func names(list []string) string {
	var once []string
	for _, n := range list {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(once, n) {
			once = append(once, n)
		}
	}
	switch len(once) {
	case 0:
		return ""
	case 1:
		return once[0]
	}
	return strings.Join(once[:len(once)-1], ", ") + " and " + once[len(once)-1]
}
