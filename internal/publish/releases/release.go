// Package releases keeps the releases on disk (DATA_DIR/releases): a
// folder per release (its client build, its content, release.json), the
// live file naming the one served, each release's list of files and its
// check (files.sha256), the blobs the releases of copies sharing one
// database link to, and the requests the shell commands leave for the
// running server.
package releases

import (
	"time"

	"studio/internal/publish/repo"
)

// Format is the layout of a release directory this code serves: a client
// build in client/, the content in content/, release.json. A release of
// another format is never served.
const Format = 1

// A release's status. Live is not one of them: which release is live is
// the one thing the live file says (Releases.Live).
type Status string

const (
	Queued   Status = "queued"
	Building Status = "building"
	Ready    Status = "ready" // built and checked: it can be made live
	Failed   Status = "failed"
)

// A Release is release.json: what a release was made from, how, and how
// it went.
type Release struct {
	ID string `json:"id"`
	repo.Commit
	CodeVersion  string    `json:"codeVersion"` // the bin/studio that built it
	Format       int       `json:"format"`
	Status       Status    `json:"status"`
	Preview      bool      `json:"preview,omitempty"`  // built of the editor's draft ahead of its publishing (publish/ahead.go): hidden and never made live until Publish makes it main's; deleted at start
	Stage        string    `json:"stage,omitempty"`    // while building: the pipeline's step
	Problems     []string  `json:"problems,omitempty"` // a failed build's "file: field: problem" lines
	QueuedAt     time.Time `json:"queuedAt"`
	BuiltAt      time.Time `json:"builtAt,omitzero"`
	BuildSeconds float64   `json:"buildSeconds,omitempty"`
	BuildPeakMiB int64     `json:"buildPeakMiB,omitempty"` // the largest resident size of a build step
	Size         int64     `json:"size,omitempty"`         // bytes of client/ and content/
	Manifest     string    `json:"manifest,omitempty"`     // the SHA-256 of its list of files (verify.go); "" for a release built before the lists
	Damage       []string  `json:"damage,omitempty"`       // the files found damaged (DamageError): it is never served again
}
