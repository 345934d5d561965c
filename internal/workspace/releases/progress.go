package releases

import (
	"strings"

	published "studio/internal/publish/releases"
)

// Progress is where a publish has come to, in the studio's words: the
// stage while it is built, then Live, Ready (to be made live) or Stopped.
type Progress struct {
	Words    string // "Waiting for another publish to finish", "Checking", "Making the pictures", "Making the pages", "Checking the new version", "Live"…
	UnderWay bool   // queued or building: the page follows it (page.Frame.Follow)
	Live     bool   // visitors see it
	Ready    bool   // built and checked, not live: an owner makes it live
	Failed   bool   // stopped by a problem; the live site is unchanged
}

// stageWords are the builder's stages (Release.Stage: package publish's
// and its builder's, publish/build/steps.go) in the studio's words; a
// stage not listed here is a step of making the pages.
var stageWords = map[string]string{
	"":                                   "Checking",
	"checking the disk space":            "Checking",
	"reading the commit":                 "Checking",
	"checking the content":               "Checking",
	"making the images":                  "Making the pictures",
	"bundling the code":                  "Making the pages",
	"prerendering the pages":             "Making the pages",
	"compressing":                        "Making the pages",
	"checking the release":               "Checking the new version",
	"storing the release for every copy": "Checking the new version",
}

// makingPages is the words of a stage not in stageWords.
const makingPages = "Making the pages"

// ProgressOf is where release rel has come to, among list (every
// release, newest first, as Releases.List gives them) with live the id of
// the live release: a queued one waits for another publish only when
// another is really under way before it.
func ProgressOf(rel published.Release, list []published.Release, live string) Progress {
	switch rel.Status {
	case published.Queued:
		for _, other := range list {
			if other.ID != rel.ID && (other.Status == published.Building || other.Status == published.Queued && other.QueuedAt.Before(rel.QueuedAt)) {
				return Progress{Words: "Waiting for another publish to finish", UnderWay: true}
			}
		}
		return Progress{Words: stageWords[""], UnderWay: true}
	case published.Building:
		return Progress{Words: StageWords(rel.Stage), UnderWay: true}
	case published.Failed:
		return Progress{Words: "Stopped", Failed: true}
	}
	if len(rel.Damage) > 0 {
		return Progress{Words: "Stopped", Failed: true} // its files changed after it was built: never served
	}
	if rel.ID == live || sameAsLive(rel, list, live) {
		return Progress{Words: "Live", Live: true}
	}
	return Progress{Words: "Ready to go live", Ready: true}
}

// StageWords is a build's stage in the studio's words.
func StageWords(stage string) string {
	// A step's count comes after its name ("making the images: 3 of 5").
	name, count, counted := strings.Cut(stage, ": ")
	words, ok := stageWords[name]
	switch {
	case !ok:
		return makingPages
	case counted:
		return words + " " + count
	}
	return words
}

// A Problem is what stopped a build, in the studio's words, and the
// address of the field of the workspace's forms it names ("" when it
// names none).
type Problem struct{ Text, Field string }

// serverProblem is said of a build stopped by the server, not by the
// content: what it was is in the server's log, in its own words.
const serverProblem = "Something on the server stopped it, not your changes: publish again in a few minutes. If it stops again, whoever runs the server can see why in its log."

// diskFull is said of a build stopped for want of disk space.
const diskFull = "The server’s disk is full: whoever runs it needs to make room, then publish again."

// ServerProblem is a line of Release.Problems that is not the content's
// (the content check's start with "content/") in the studio's words.
func ServerProblem(line string) string {
	if strings.HasPrefix(line, "not enough disk space") {
		return diskFull
	}
	return serverProblem
}

// sameAsLive says whether the live release of list is rel's files built by
// the same code: another build of the same content (a push and a Publish
// of one commit can each make one), so what rel holds is what visitors see.
func sameAsLive(rel published.Release, list []published.Release, live string) bool {
	for _, other := range list {
		if other.ID == live {
			return rel.Tree != "" && other.Tree == rel.Tree && other.CodeVersion == rel.CodeVersion
		}
	}
	return false
}
