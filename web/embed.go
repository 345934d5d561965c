// Package web holds the front end's production build, embedded so that
// bin/studio is the whole site in one file. `make build` writes
// web/build/client before the Go build runs.
package web

import (
	"embed"
	"io/fs"
)

// The prerendered pages include files whose names start with "_"
// (__not-found), which only the all: prefix embeds.
//
//go:embed all:build/client
var build embed.FS

// Client returns the client build: prerendered HTML, hashed assets, images.
func Client() fs.FS {
	sub, err := fs.Sub(build, "build/client")
	if err != nil {
		panic(err) // the path is a constant; it cannot fail
	}
	return sub
}
