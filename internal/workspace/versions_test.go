package workspace

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
)

// versionsRig is a content history of three publishes over the fixture
// content (the site as installed): version 1, two saves by Asha and
// Meera (the studio's name; a product's new photograph), version 2 by
// Ravi (the home page's intention), and version 3, which failed its
// check (the name "Bad"), main's now. Version 2 is live.
type versionsRig struct {
	*editorRig
	v1, v2, v3 published.Release
}

func setupVersions(t *testing.T) *versionsRig {
	t.Helper()
	rig := &versionsRig{editorRig: setupEditor(t)}
	installed, _ := rig.repo.Main()
	commit := func(file, text, who string) repo.Commit {
		t.Helper()
		main, _ := rig.repo.Main()
		hash, err := rig.repo.Commit(main.Hash, map[string][]byte{file: []byte(text)}, nil, repo.Signature{Name: who, Email: strings.ToLower(who) + "@example.com"}, "a save")
		if err != nil {
			t.Fatal(err)
		}
		log, err := rig.repo.Log(hash, 1)
		if err != nil {
			t.Fatal(err)
		}
		return log[0]
	}
	queued := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	release := func(id string, c repo.Commit, status published.Status, at time.Duration) published.Release {
		return published.Release{ID: id, Commit: c, Status: status, QueuedAt: queued.Add(at)}
	}
	commit("site.json", strings.Replace(rig.draftFile(t, "site.json"), `"Jharokha"`, `"Jharokha Studio"`, 1), "Asha")
	rig.v1 = release("20260302-083000-1111111", commit("catalogue.json", strings.Replace(rig.draftFile(t, "catalogue.json"),
		`"alt": "A screen" }]`, `"alt": "A screen" }, { "src": "products/2-side.png", "alt": "Its side" }]`, 1), "Meera"), published.Ready, 0)
	rig.v2 = release("20260302-084000-2222222", commit("pages.json", `{ "home": { "intention": "Made slowly" }, "about": { "title": "About us" } }`, "Ravi"), published.Ready, 10*time.Minute)
	rig.v3 = release("20260302-085000-3333333", commit("site.json", strings.Replace(rig.draftFile(t, "site.json"), `"Jharokha Studio"`, `"Bad"`, 1), "Asha"), published.Failed, 20*time.Minute)
	rig.v3.Problems = []string{`content/site.json: name: "Bad" is not a name the studio may have`, "the build ran out of time"}
	rig.rel.list = []published.Release{rig.v3, rig.v2, rig.v1, {ID: publish.EmbeddedID, Commit: repo.Commit{Tree: installed.Tree}, Status: published.Ready}}
	rig.rel.live = rig.v2.ID
	return rig
}

// version is the article of version id on the Versions page.
func versionArticle(t *testing.T, body, id string) string {
	t.Helper()
	start := strings.Index(body, `<article aria-labelledby="version-`+id+`"`)
	if start < 0 {
		t.Fatalf("no article for version %s in:\n%s", id, body)
	}
	end := strings.Index(body[start:], "</article>")
	return body[start : start+end]
}

// Each version says when it was published, whose changes it holds and
// what it changed, from the content itself; the live one is marked; a
// failed one says what to fix, linked to the field.
func TestVersionsSayWhatEachChanged(t *testing.T) {
	t.Parallel()
	rig := setupVersions(t)
	w := do(rig.h, "GET", "/studio/releases", nil, withCookie(rig.asha))
	body := html.UnescapeString(w.Body.String())
	if w.Code != http.StatusOK || !strings.Contains(body, "<h1>Versions of the site</h1>") || !strings.Contains(body, `aria-current="page">Versions of the site</a>`) {
		t.Fatalf("the page: %d\n%s", w.Code, body)
	}
	for id, want := range map[string][]string{
		rig.v1.ID: {">2 Mar 2026, 14:00 IST<", "Changes by Meera and Asha", "<li>Studio details: studio name</li>", "<li>Jali screen: new photograph</li>",
			`<button aria-label="Go back to this version: 2 Mar 2026, 14:00 IST">Go back to this version</button>`},
		rig.v2.ID: {">2 Mar 2026, 14:10 IST<", `<span class="status live">Live now</span>`, "Changes by Ravi", "<li>Home page: intention</li>"},
		rig.v3.ID: {">2 Mar 2026, 14:20 IST<", `class="status failed">Not published<`, "2 things to fix before it can be published",
			`<a href="/studio/content/studio#f-name">Studio details › Studio name: "Bad" is not a name the studio may have</a>`, "<li>The build ran out of time</li>"},
		publish.EmbeddedID: {">The site as it was installed<"},
	} {
		article := versionArticle(t, body, id)
		for _, w := range want {
			if !strings.Contains(article, w) {
				t.Errorf("version %s does not show %q:\n%s", id, w, article)
			}
		}
	}
	if strings.Count(body, "Live now") != 1 || strings.Contains(versionArticle(t, body, rig.v2.ID), "Go back") {
		t.Error("not one version is live now, or the live one offers to go back to it")
	}
	text := pageText(body)
	for _, word := range []string{"commit", "main", "bin/studio", "releases?", "make live", "publish now", `\.json`} {
		if regexp.MustCompile(`(?i)\b` + word + `\b`).MatchString(text) {
			t.Errorf("the page says %q:\n%s", word, text)
		}
	}
}

// Going back to a version asks first, listing what it undoes: the changes
// of every version since, newest first; confirmed, it is live now.
func TestGoingBackListsWhatItUndoes(t *testing.T) {
	t.Parallel()
	rig := setupVersions(t)
	ask := "/studio/releases/" + rig.v1.ID + "/make-live"
	w := do(rig.h, "GET", ask, nil, withCookie(rig.asha))
	body := html.UnescapeString(w.Body.String())
	if w.Code != http.StatusOK {
		t.Fatalf("the question: %d\n%s", w.Code, body)
	}
	undone := body[strings.Index(body, "What will be undone"):]
	v3, v2 := strings.Index(undone, "The version of 2 Mar 2026, 14:20 IST"), strings.Index(undone, "The version of 2 Mar 2026, 14:10 IST")
	if v3 < 0 || v2 < v3 || !strings.Contains(undone[v3:v2], "<li>Studio details: studio name</li>") || !strings.Contains(undone[v2:], "<li>Home page: intention</li>") {
		t.Errorf("the question does not list versions 3 then 2 with their changes:\n%s", body)
	}
	if strings.Contains(undone, "Jali screen") {
		t.Errorf("the question undoes the version gone back to:\n%s", body)
	}
	if !strings.Contains(body, "<h1>Go back to the version of 2 Mar 2026, 14:00 IST?</h1>") || !strings.Contains(body, `<button>Go back to the version of 2 Mar 2026, 14:00 IST</button>`) {
		t.Errorf("the question's heading or button:\n%s", body)
	}
	if made, _ := rig.rel.calls(); len(made) != 0 {
		t.Fatalf("asking went back: %q", made)
	}
	res := do(rig.h, "POST", ask, url.Values{"confirm": {"yes"}}, withCookie(rig.asha)).Result()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirmed: %d", res.StatusCode)
	}
	body = html.UnescapeString(do(rig.h, "GET", res.Header.Get("Location"), nil, withCookie(rig.asha)).Body.String())
	if !strings.Contains(body, "The version of 2 Mar 2026, 14:00 IST is live now.") || !strings.Contains(versionArticle(t, body, rig.v1.ID), "Live now") {
		t.Errorf("after going back, the page does not mark it live now:\n%s", body)
	}

	// Back to the site as installed undoes all three.
	installed := html.UnescapeString(do(rig.h, "GET", "/studio/releases/"+publish.EmbeddedID+"/make-live", nil, withCookie(rig.asha)).Body.String())
	if !strings.Contains(installed, "<li>Jali screen: new photograph</li>") || strings.Count(installed, "<h3 ") != 3 {
		t.Errorf("going back to the site as installed does not undo the three versions:\n%s", installed)
	}

	// Once main is back to version 1 (as Rollback leaves it), going to
	// version 2 undoes nothing: it brings version 2's changes back; and
	// back to the site as installed undoes version 1 alone.
	main, _ := rig.repo.Main()
	if _, err := rig.repo.CommitTree(main.Hash, rig.v1.Tree, repo.Signature{Name: "Asha", Email: asha}, "Back"); err != nil {
		t.Fatal(err)
	}
	body = html.UnescapeString(do(rig.h, "GET", "/studio/releases/"+rig.v2.ID+"/make-live", nil, withCookie(rig.asha)).Body.String())
	if strings.Contains(body, "What will be undone") || !strings.Contains(body, "brings its changes back:</p>\n  <ul class=\"changes\"><li>Home page: intention</li></ul>") {
		t.Errorf("going forward to version 2 does not say it brings its change back:\n%s", body)
	}
	installed = html.UnescapeString(do(rig.h, "GET", "/studio/releases/"+publish.EmbeddedID+"/make-live", nil, withCookie(rig.asha)).Body.String())
	if strings.Count(installed, "<h3 ") != 1 || !strings.Contains(installed, "<li>Jali screen: new photograph</li>") {
		t.Errorf("with main back to version 1, going back to the site as installed does not undo version 1 alone:\n%s", installed)
	}
	// Version 1's files built again (a new server's first build) are version 1.
	back, _ := rig.repo.Main()
	rig.rel.list = append([]published.Release{{ID: "20260302-090000-4444444", Commit: back, Status: published.Ready, QueuedAt: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}}, rig.rel.list...)
	rig.rel.live = "20260302-090000-4444444"
	for target, want := range map[string]int{"/studio/releases/" + publish.EmbeddedID + "/make-live": 1, "/studio/releases/" + rig.v1.ID + "/make-live": 0} {
		body := html.UnescapeString(do(rig.h, "GET", target, nil, withCookie(rig.asha)).Body.String())
		if strings.Count(body, "<h3 ") != want || strings.Contains(body, "brings its changes back") {
			t.Errorf("%s with version 1 built again: want %d versions undone:\n%s", target, want, body)
		}
	}
	body = html.UnescapeString(do(rig.h, "GET", "/studio/releases", nil, withCookie(rig.asha)).Body.String())
	if !strings.Contains(versionArticle(t, body, "20260302-090000-4444444"), "<li>Back to the version of 2 Mar 2026, 14:00 IST</li>") {
		t.Errorf("version 1 built again does not say it is back to version 1:\n%s", versionArticle(t, body, "20260302-090000-4444444"))
	}
	// The same commit built again (Build the site again) changed nothing.
	again := rig.rel.list[0]
	again.ID = "20260302-091000-5555555"
	rig.rel.list = append([]published.Release{again}, rig.rel.list...)
	body = html.UnescapeString(do(rig.h, "GET", "/studio/releases", nil, withCookie(rig.asha)).Body.String())
	if article := versionArticle(t, body, again.ID); !strings.Contains(article, "<li>The same content as the version of 2 Mar 2026, 14:30 IST, built again</li>") || strings.Contains(article, "Back to") {
		t.Errorf("the same commit built again does not say it changed nothing:\n%s", article)
	}
	body = html.UnescapeString(do(rig.h, "GET", "/studio/releases/"+rig.v2.ID+"/make-live", nil, withCookie(rig.asha)).Body.String())
	if !strings.Contains(body, "brings its changes back") {
		t.Errorf("with version 1 built again, going to version 2 does not bring its changes back:\n%s", body)
	}
}

// pageText is the words of a page's main part as read: its tags and
// attributes left out.
func pageText(body string) string {
	_, body, _ = strings.Cut(body, "<main>")
	body, _, _ = strings.Cut(body, "</main>")
	var b strings.Builder
	in := false
	for _, r := range body {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
