package main

import (
	"context"
	"errors"

	"studio/internal/publish"
	"studio/internal/publish/build"
	"studio/internal/server"
	"studio/internal/sitecontent"
)

// draftPages is the publisher as the server's previews use it
// (server.DraftPages): the server knows nothing of git or builds, the
// publisher nothing of the server.
type draftPages struct{ p *publish.Publisher }

func (d draftPages) Page(ctx context.Context, tree, path string) (server.Page, error) {
	pg, err := d.p.PreviewPage(ctx, tree, path)
	if err != nil {
		return server.Page{}, draftError(err)
	}
	return server.Page{Status: pg.Status, Type: pg.Type, Body: pg.Body, Data: pg.Data}, nil
}

// draftError is a preview's error as the server tells them apart: a
// draft the content check refuses is its problems, to be shown in the
// page's place; anything else is a failure.
func draftError(err error) error {
	if content := (*build.ContentError)(nil); errors.As(err, &content) {
		return &server.DraftProblems{Problems: content.Problems}
	}
	return err
}

func (d draftPages) Image(ctx context.Context, tree, name string) (string, error) {
	return d.p.PreviewImage(ctx, tree, name)
}

func (d draftPages) Asset(name string) (string, error) { return d.p.PreviewAsset(name) }

func (d draftPages) Content(tree string) (*sitecontent.Content, error) {
	return d.p.PreviewContent(tree)
}
