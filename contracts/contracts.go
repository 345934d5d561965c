// Package contracts holds what the Go server and the TypeScript front end
// both read, each a JSON file of this folder: Go embeds them through this
// package, and the front end imports them from here (contracts/…json).
// This folder is the one the publisher's builds copy beside web/, so a
// front-end import that reaches outside web/ reaches only here (or the
// content). The tables of cases both languages' tests run are in cases/.
package contracts

import _ "embed" // the files below

// EnquiryRules are the limits, patterns and messages a visitor's enquiry is
// held to (internal/enquiry; web/app/lib/enquiries.ts).
//
//go:embed enquiry-rules.json
var EnquiryRules []byte

// AnalyticsEvents is the list of the analytics events, their parameters and
// the limits of a batch (internal/analytics; track()'s types, made by
// web/scripts/analytics-events.mjs).
//
//go:embed analytics-events.json
var AnalyticsEvents []byte

// ContentPaths is the rule for the paths the content names
// (internal/sitecontent; web/scripts/content-paths.mjs).
//
//go:embed content-paths.json
var ContentPaths []byte

// ContentReferences are the fields of the content that name another part
// of it (a featured piece by its product's id, the WhatsApp phone by its
// label), each of which must name one that exists (internal/sitecontent;
// web/scripts/content-references.mjs).
//
//go:embed content-references.json
var ContentReferences []byte

// Photos are the limits of a photograph: the workspace's uploads and
// thumbnails, and the build's image step (web/scripts/images.mjs).
//
//go:embed photos.json
var Photos []byte

// Renderer is the protocol of the warm renderer (web/scripts/renderer.mjs,
// internal/publish/build's Renderer): its version, its ops, the kinds of
// its errors, and the default limits of its memory and of one call's time.
//
//go:embed renderer.json
var Renderer []byte
