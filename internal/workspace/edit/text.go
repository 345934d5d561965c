package edit

import (
	"bytes"
	"context"
	"errors"
	"html/template"
	"strings"
	"studio/internal/publish/build"
	"studio/internal/publish/repo"
)

// The long texts (Texts): each a Markdown file of content/ edited whole,
// with its rendering beside it.

// TextConflict is a text's save refused because someone saved a newer
// version of it (Head) meanwhile: theirs, saved by By. A text is one
// field: the studio chooses one of the two (Choices, TextField).
type TextConflict struct {
	Head   repo.Commit
	Theirs string
	By     Save
}

func (c *TextConflict) Error() string {
	return "edit: " + c.Head.Author + " saved a newer version of the text"
}

// Preview renders text, part's file changed, as the site will show it: by
// the build's own renderer, with the facts of commit base filled in. What
// stops it (a fact that does not exist) is said in its place.
func (e *Editor) Preview(ctx context.Context, base string, part Part, text []byte) (template.HTML, string) {
	const notMade = "The preview could not be made just now: try again in a minute; if it stays so, ask whoever runs the server."
	dir, done, err := e.scratchContent(base, nil)
	if err != nil {
		e.logPreview(err)
		return "", notMade
	}
	defer done()
	html, err := e.Builder.RenderMarkdown(ctx, dir, part.File, text)
	var problem *build.ContentError
	switch {
	case errors.As(err, &problem):
		return "", "The site cannot show this text: " + strings.Join(e.Say(part, base, nil, problem.Problems), "; ")
	case err != nil:
		e.logPreview(err)
		return "", notMade
	}
	// The build's renderer shows markup typed in the text as text
	// (web/app/lib/markdown.server.ts), as the site does.
	return template.HTML(html), ""
}

func (e *Editor) logPreview(err error) {
	if e.Log != nil {
		e.Log.Error("studio: a text's preview", "err", err)
	}
}

// NormalText is a text as a form posts it, as the file keeps it: its lines
// ended by "\n", one at its end.
func NormalText(posted string) string {
	text := strings.ReplaceAll(posted, "\r\n", "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text
}

// SaveText commits text as part's file to the draft, by who, over the
// commit version the form was made from: made over a newer draft when
// that did not change the text, or when the form's choices keep this one
// (*TextConflict when it changed it otherwise), and checked by the build's
// content check (*Refused, ErrCheckDidNotRun). ErrUnknownVersion: no such
// version; ErrUnchanged: the text is the draft's (or the choice kept
// theirs); repo.ErrDraftMoved: someone saved at the same moment.
func (e *Editor) SaveText(ctx context.Context, part Part, version, text string, choices Choices, who repo.Signature) error {
	was, err := e.Content.ReadFile(version, part.File)
	if err != nil {
		return ErrUnknownVersion
	}
	head, _, err := e.Content.Draft()
	if err != nil {
		return err
	}
	if head.Hash != version {
		now, err := e.Content.ReadFile(head.Hash, part.File)
		if err != nil {
			return err
		}
		keep := choices.keep(head.Hash, TextField)
		if !bytes.Equal(now, was) && text != string(was) && text != string(now) && keep == "" {
			history, err := partHistory(e.Content, part, version, head.Hash)
			if err != nil {
				return err
			}
			return &TextConflict{Head: head, Theirs: string(now), By: changedBy(history, "")}
		}
		if !bytes.Equal(now, was) && (text == string(was) || keep == KeepTheirs) {
			return ErrUnchanged // theirs stands
		}
		version, was = head.Hash, now
	}
	if string(was) == text {
		return ErrUnchanged
	}
	files := map[string][]byte{part.File: []byte(text)}
	if err := e.check(ctx, version, files); err != nil {
		return err
	}
	_, err = e.Content.SaveDraft(version, files, nil, who, part.Title+": text")
	return err
}
