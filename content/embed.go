// Package content holds the site's facts, catalogue and texts as data.
// The React build imports the same files, so every fact has one source.
package content

import "embed"

// Files is the content folder as shipped inside bin/studio, whole: the
// facts, the catalogue, the schemas they are checked against (schema/),
// the texts and the original pictures. The server reads the facts and the
// catalogue from it, and seeds the content repository (DATA_DIR/content.git)
// with all of it on first start.
//
//go:embed *.json schema pages policies images
var Files embed.FS
