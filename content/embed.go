// Package content holds the site's facts, catalogue and texts as data.
// The React build imports the same files, so every fact has one source.
package content

import "embed"

// Files is the content folder as shipped inside bin/studio.
//
//go:embed *.json
var Files embed.FS
