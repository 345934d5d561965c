// Package content holds the site's facts, catalogue and texts as data.
// The React build imports the same files, so every fact has one source.
package content

import "embed"

// Files is the content folder as shipped inside bin/studio: the facts,
// the catalogue, and the schemas they are checked against (schema/).
//
//go:embed *.json schema/*.json
var Files embed.FS
