// Package cases holds the tables of cases that the Go tests and the
// TypeScript tests both run, so that the two languages are held to judge
// each contract of contracts/ alike. Only tests import it.
package cases

import "embed"

// Files are the tables, by name ("enquiry-parity.json").
//
//go:embed *.json
var Files embed.FS
