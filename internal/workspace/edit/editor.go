// Package edit is the Content section's rules, without HTTP: what a part
// of the content is (Part), applying a posted form to it (Apply), merging
// it with a newer draft and saving it (Save), the catalogue's rules for a
// product (its featured boxes, its deletion), and the photographs that
// wait for their form in a folder of their own (Staging). The workspace's
// editor parses requests and says this package's errors in words.
package edit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"studio/internal/contentform"
	"studio/internal/publish/build"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// Content is the content repository (a *repo.Repository) as the editor
// uses it.
type Content interface {
	Draft() (repo.Commit, bool, error)
	Main() (repo.Commit, error)
	ReadFile(hash, name string) ([]byte, error)
	Export(hash, dir string) error
	SaveDraft(base string, files map[string][]byte, removed []string, who repo.Signature, message string) (string, error)
	Unpublished() ([]repo.Commit, error)
	PublishDraft(who repo.Signature) (string, error)
	DiscardDraft() error
	Log(hash string, n int) ([]repo.Commit, error)
}

// Builder is the build's own tools, run on a copy of the content (a
// *build.NodeBuilder): its content check, whose "file: field: problem"
// lines are those a build stops on, and its Markdown renderer, for the
// preview beside a text.
type Builder interface {
	Check(ctx context.Context, contentDir string) ([]string, error)
	RenderMarkdown(ctx context.Context, contentDir, name string, text []byte) (string, error)
}

// Editor applies forms to the draft and saves them. Builder (nil: nothing
// can be saved) checks a change, in copies of the content made under
// Scratch (on the file system of the repository's blobs: the copies are
// hard links). Log hears what a page does not say.
type Editor struct {
	Content Content
	Builder Builder
	Scratch string
	Photos  *Staging
	Log     *slog.Logger // why a preview could not be made (the page says only that it could not); nil: not logged
}

var (
	// ErrUnknownVersion: the form names a commit the server does not have.
	ErrUnknownVersion = errors.New("edit: the form's version of the content is unknown")
	// ErrNoProduct: the product is not in the content (deleted meanwhile).
	ErrNoProduct = errors.New("edit: no such product")
	// ErrNoSuchButton: the form's action is none of its buttons'.
	ErrNoSuchButton = errors.New("edit: that button does nothing here")
	// ErrUnchanged: the form changes nothing; nothing was saved.
	ErrUnchanged = errors.New("edit: nothing changed")
	// ErrCheckDidNotRun wraps what stopped the content check.
	ErrCheckDidNotRun = errors.New("the content check could not run")
)

// Refused is a change the content check refused: its lines.
type Refused struct{ Lines []string }

func (r *Refused) Error() string { return "edit: refused: " + strings.Join(r.Lines, "; ") }

// Conflict is a save refused because someone saved a newer version of the
// same part (Head) while the form was filled in, and changed some of the
// same fields (Fields), or deleted it (Deleted, By).
type Conflict struct {
	Head    repo.Commit
	Fields  []FieldConflict
	Deleted bool
	By      Save
	// Shown is the document the form shows again, at the form's own
	// version's places: the merge, with the form's values in the fields in
	// conflict.
	Shown *contentform.Value
}

func (c *Conflict) Error() string {
	return "edit: " + c.Head.Author + " saved a newer version of the part"
}

// A Change is a part's form applied to the version it was made from, not
// saved yet.
type Change struct {
	Part     Part
	Schema   *contentform.Schema
	Base     *contentform.Value // the version the form was made from
	Doc      *contentform.Value // the form applied to it
	Pointer  string             // where the part is in Doc
	Version  string             // Base's commit
	Problems []contentform.Problem
	Notes    []string // what the form's photographs and buttons did, unsaved
	Fields   []string // set by Save: the labels of what it changes, the featured boxes' too
	// Set by Save: the commit it made, and, when it was merged over others'
	// saves, the form's own version (KeptMeanwhile says what of theirs it kept).
	Saved, Over string
	featured    []string // what the featured boxes changed
	form        url.Values
	choices     Choices // a conflict page's answers
}

// Changed is how many fields the change makes different.
func (c *Change) Changed() int { return len(c.Schema.Changed(c.Base, c.Doc, c.Pointer)) }

// Open reads the draft's version of part: its commit, its schema, its
// document and where the part is in it (ErrNoProduct when it is not).
func (e *Editor) Open(part Part) (head repo.Commit, c *Change, err error) {
	head, _, err = e.Content.Draft()
	if err != nil {
		return head, nil, err
	}
	c = &Change{Part: part, Version: head.Hash}
	if c.Schema, c.Base, err = e.readPart(head.Hash, part); err != nil {
		return head, nil, err
	}
	c.Doc = c.Base
	var ok bool
	if c.Pointer, ok = part.PointerIn(c.Base); !ok {
		return head, nil, ErrNoProduct
	}
	return head, c, nil
}

// readPart reads part's file and its schema at commit hash; a new
// product is there as a blank one, first in the list.
func (e *Editor) readPart(hash string, part Part) (*contentform.Schema, *contentform.Value, error) {
	raw, err := e.Content.ReadFile(hash, part.File)
	if err != nil {
		return nil, nil, err
	}
	doc, err := contentform.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("content/%s is not JSON: %w", part.File, err)
	}
	rawSchema, err := e.Content.ReadFile(hash, "schema/"+strings.TrimSuffix(part.File, ".json")+".schema.json")
	if err != nil {
		return nil, nil, err
	}
	schema, err := contentform.ParseSchema(rawSchema)
	if err == nil && part.Product == NewProduct {
		addBlankProduct(schema, doc)
	}
	return schema, doc, err
}

// Apply applies a posted form of part, made from the commit version: its
// fields, a product's featured boxes and its photographs (files, and
// those sent ahead: "NAME/FILENAME"), and the list button of action (an
// add, a remove, a move; "", "save" or "upload": none). The change says
// what is wrong with the form (Problems) and what was done (Notes).
func (e *Editor) Apply(part Part, version string, form url.Values, files []*multipart.FileHeader, ahead []string, action string) (*Change, error) {
	c := &Change{Part: part, Version: version, form: form, choices: ChoicesOf(form)}
	var err error
	if c.Schema, c.Base, err = e.readPart(version, part); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnknownVersion, err)
	}
	var ok bool
	if c.Pointer, ok = part.PointerIn(c.Base); !ok {
		return nil, ErrNoProduct
	}
	c.Doc, c.Problems = c.Schema.Apply(c.Base, c.Pointer, form)
	if part.Product != 0 {
		var problems []contentform.Problem
		c.featured, problems = setFeatured(c.Doc, c.Pointer, form)
		c.Problems = append(c.Problems, problems...)
		e.addPhotos(c, files, ahead)
	}
	if action != "" && action != "save" && action != "upload" {
		done, ok := c.Schema.Act(c.Doc, action)
		if !ok {
			return c, ErrNoSuchButton
		}
		c.Notes = append(c.Notes, done)
	}
	return c, nil
}

// addPhotos keeps the photographs of the form's "Add photographs" in the
// uploads folder and adds each to the product's images, its alt text to
// be written, with those the script sent ahead. What it says of them: how
// many were added, which are narrow; what is wrong with the others (not a
// photograph, empty, HEIC): those are not added.
func (e *Editor) addPhotos(c *Change, files []*multipart.FileHeader, ahead []string) {
	images, field := c.Doc.At(c.Pointer+"/images"), c.Pointer+"/images"
	if images == nil || len(files) == 0 && len(ahead) == 0 {
		return
	}
	if err := e.Photos.Ready(); err != nil {
		c.Problems = append(c.Problems, contentform.Problem{Field: "", Text: "The photographs could not be kept: " + err.Error()})
		return
	}
	var added int
	var narrows []string
	add := func(name, problem, narrow string) {
		if problem != "" {
			c.Problems = append(c.Problems, contentform.Problem{Field: field, Text: problem})
			return
		}
		item := contentform.NewObject()
		item.Set("src", contentform.Text(UploadSrcPrefix+name))
		item.Set("alt", contentform.Text(""))
		images.Items = append(images.Items, item)
		added++
		if narrow != "" {
			narrows = append(narrows, narrow)
		}
	}
	for _, token := range ahead {
		add(e.Photos.SentAhead(token))
	}
	for _, fh := range files {
		add(e.Photos.Stage(fh))
	}
	if added > 0 {
		word := "photographs"
		if added == 1 {
			word = "photograph"
		}
		c.Notes = append(c.Notes, fmt.Sprintf("%d %s added at the end: write the alt text of each (what it shows, for people who cannot see it).", added, word))
	}
	c.Notes = append(c.Notes, narrows...)
}

// AddPictures puts the pictures uploaded for the change's picture fields
// in their places, unsaved: each a file posted with the form (files,
// without the script) or one the script sent ahead. One that is not a
// picture the site can show is the field's problem, and the field keeps
// its picture.
func (e *Editor) AddPictures(c *Change, files map[string][]*multipart.FileHeader) {
	var fields []*contentform.Field
	var walk func(f *contentform.Field)
	walk = func(f *contentform.Field) {
		if uploadable(f) {
			fields = append(fields, f)
		}
		for _, child := range f.Fields {
			walk(child)
		}
	}
	walk(c.Part.Form(c.Schema, c.Doc, c.Pointer))
	for _, f := range fields {
		var stage func() (name, problem, narrow string)
		if posted := files[PictureFilePrefix+f.Name]; len(posted) > 0 {
			stage = func() (string, string, string) { return e.Photos.Stage(posted[len(posted)-1]) }
		} else if sent := c.form[PictureSentPrefix+f.Name]; len(sent) > 0 && sent[len(sent)-1] != "" {
			// The last one sent: she may have chosen another since.
			stage = func() (string, string, string) { return e.Photos.SentAhead(sent[len(sent)-1]) }
		} else {
			continue
		}
		if err := e.Photos.Ready(); err != nil {
			c.Problems = append(c.Problems, contentform.Problem{Field: f.Name, Text: "The picture could not be kept: " + err.Error()})
			continue
		}
		name, problem, _ := stage()
		if problem != "" {
			c.Problems = append(c.Problems, contentform.Problem{Field: f.Name, Text: problem})
			continue
		}
		c.Doc.Replace(f.Name, contentform.Text(UploadSrcPrefix+name))
	}
}

// Save commits the change to the draft, by who, and returns the slug of
// the part saved (a new product's is its id's). A newer draft is merged
// field by field (*Conflict when it changed a field of this part too, and
// the form's choices do not say whose to keep, or deleted it); the change, its
// photographs named, is checked by the build's content check (*Refused,
// ErrCheckDidNotRun). ErrUnchanged: nothing to save; repo.ErrDraftMoved:
// someone saved at the same moment.
func (e *Editor) Save(ctx context.Context, c *Change, who repo.Signature) (slug, message string, err error) {
	head, _, err := e.Content.Draft()
	if err != nil {
		return "", "", err
	}
	if head.Hash != c.Version {
		if err := e.mergeOver(c, head); err != nil {
			return "", "", err
		}
	}
	c.Fields = append(c.Schema.Changed(c.Base, c.Doc, c.Pointer), c.featured...)
	if len(c.Fields) == 0 {
		return "", "", ErrUnchanged
	}
	// The photographs uploaded get their names in the content; the form
	// keeps them as uploads until the save is made.
	saved := c.Doc.Clone()
	files, err := e.Photos.place(saved, c.Pointer)
	if err == nil {
		err = e.Photos.placePictures(c.Part.Form(c.Schema, saved, c.Pointer), saved, files)
	}
	if err != nil {
		return "", "", err
	}
	files[c.Part.File] = saved.Encode()
	if c.Part.File == "catalogue.json" {
		if err := e.relinkPages(c.Version, saved, files); err != nil {
			return "", "", err
		}
	}
	if err := e.check(ctx, c.Version, files); err != nil {
		return "", "", err
	}
	title, slug := c.Part.Title, c.Part.Slug
	if c.Part.Product == NewProduct {
		id := c.Doc.At(c.Pointer + "/id").Number
		title, slug = "Product "+id+" (new)", "products/"+id
	}
	message = title + ": " + summary(c.Fields)
	if c.Saved, err = e.Content.SaveDraft(c.Version, files, nil, who, message); err != nil {
		if errors.Is(err, repo.ErrDraftMoved) {
			head, _, _ := e.Content.Draft()
			c.Version = head.Hash
		}
		return "", "", err
	}
	return slug, message, nil
}

// mergeOver makes c a change of head, the newer draft, merged field by
// field, or refuses with a *Conflict when head changed a field the form
// changed too (and the form does not say whose to keep), or deleted the
// part.
func (e *Editor) mergeOver(c *Change, head repo.Commit) error {
	_, theirs, err := e.readPart(head.Hash, c.Part)
	if err != nil {
		return err
	}
	theirPointer, found := c.Part.PointerIn(theirs)
	if !found {
		history, err := partHistory(e.Content, c.Part, c.Version, head.Hash)
		if err != nil {
			return err
		}
		return &Conflict{Head: head, Deleted: true, By: deletedBy(history), Shown: c.Doc}
	}
	base, mine, their := c.Part.ownPart(c.Base, c.Pointer), c.Part.ownPart(c.Doc, c.Pointer), c.Part.ownPart(theirs, theirPointer)
	units := fieldUnits(c.Part, c.Schema, c.Base, c.Pointer, base, mine, their)
	part, conflicts := mergeUnits(units, base, mine, their, func(name string) string { return c.choices.keep(head.Hash, name) })
	if len(conflicts) > 0 {
		return e.conflict(c, head, theirs, part, their, conflicts)
	}
	doc := place(c.Part, theirs.Clone(), theirPointer, part)
	if c.Part.Product != 0 {
		c.featured, _ = setFeatured(doc, theirPointer, changedBoxes(c.Base, c.Pointer, c.form))
	}
	c.Over = c.Version
	c.Base, c.Doc, c.Version, c.Pointer = theirs, doc, head.Hash, theirPointer
	return nil
}

// conflict is the *Conflict of c over head (its document theirs): merged
// is the part merged, theirs in the fields in conflict; their is the part
// as head has it.
func (e *Editor) conflict(c *Change, head repo.Commit, theirs, merged, their *contentform.Value, conflicts []unit) error {
	history, err := partHistory(e.Content, c.Part, c.Version, head.Hash)
	if err != nil {
		return err
	}
	mine := c.Part.ownPart(c.Doc, c.Pointer)
	for _, u := range conflicts {
		merged.Replace(u.rel, mine.At(u.rel).Clone())
	}
	shownDoc := place(c.Part, c.Base.Clone(), c.Pointer, merged)
	theirsDoc := place(c.Part, c.Base.Clone(), c.Pointer, their.Clone())
	if c.Part.Product != 0 {
		// Their boxes for the home page, with the form's changes of them.
		shownDoc.Replace("/featured", theirs.At("/featured").Clone())
		setFeatured(shownDoc, c.Pointer, changedBoxes(c.Base, c.Pointer, c.form))
	}
	mineForm, theirForm := c.Part.Form(c.Schema, c.Doc, c.Pointer), c.Part.Form(c.Schema, theirsDoc, c.Pointer)
	out := &Conflict{Head: head, Shown: shownDoc}
	for _, u := range conflicts {
		out.Fields = append(out.Fields, FieldConflict{Name: u.name, Label: u.label, By: changedBy(history, u.rel),
			Mine: shown(mineForm.Find(u.name)), Theirs: shown(theirForm.Find(u.name))})
	}
	return out
}

// KeptMeanwhile is what a save merged over others' (the commit saved,
// made from the form's version since) kept of theirs: each field of part
// they changed that the save left as they had it, with who changed it.
func (e *Editor) KeptMeanwhile(part Part, since, saved string) ([]Kept, error) {
	log, err := e.Content.Log(saved, 2)
	if err != nil || len(log) < 2 || part.IsText() {
		return nil, err
	}
	history, err := partHistory(e.Content, part, since, log[1].Hash)
	if err != nil {
		return nil, err
	}
	schema, doc, err := e.readPart(since, part)
	if err != nil {
		return nil, err
	}
	pointer, found := part.PointerIn(doc)
	base, theirs, mine := partAt(e.Content, part, since), partAt(e.Content, part, log[1].Hash), partAt(e.Content, part, saved)
	if !found || base == nil || theirs == nil || mine == nil {
		return nil, nil
	}
	var kept []Kept
	for _, u := range fieldUnits(part, schema, doc, pointer, base, theirs, mine) {
		b, t, m := base.At(u.rel), theirs.At(u.rel), mine.At(u.rel)
		if !contentform.Equal(b, t) && contentform.Equal(m, t) {
			kept = append(kept, Kept{Label: u.label, By: changedBy(history, u.rel)})
		}
	}
	return kept, nil
}

// Delete takes the product of part out of the draft's catalogue, its
// photographs with it (unless another product shows them), and out of
// What's Hot, by who, over the commit version the page was made from;
// enquiries keep its name (they keep their own copy). It returns the
// product's name. ErrFreshPiece: it is the home page's Fresh from the
// studio piece; *Refused: the content would not pass its check without it.
func (e *Editor) Delete(ctx context.Context, part Part, version string, who repo.Signature) (name string, err error) {
	_, c, err := e.Open(part)
	if err != nil {
		return "", err
	}
	doc, id := c.Doc, c.Doc.At(c.Pointer+"/id").Text()
	name = doc.At(c.Pointer + "/name").Text()
	removed, err := removeProduct(doc, c.Pointer, id)
	if err != nil {
		return name, err
	}
	files := map[string][]byte{part.File: doc.Encode()}
	if err := e.check(ctx, version, files); err != nil {
		return name, err
	}
	_, err = e.Content.SaveDraft(version, files, removed, who, fmt.Sprintf("Product %s: deleted (%s)", id, name))
	return name, err
}

// check runs the build's content check on the content of commit base
// with files written over it, in a scratch copy: nil, *Refused with its
// lines, or ErrCheckDidNotRun. A path the content names that leaves its
// folder is refused first, by the server's own check, before the build's
// tools read the content.
func (e *Editor) check(ctx context.Context, base string, files map[string][]byte) error {
	lines, err := e.checkLines(ctx, base, files)
	switch {
	case err != nil:
		return fmt.Errorf("%w (%w)", ErrCheckDidNotRun, err)
	case len(lines) > 0:
		return &Refused{Lines: lines}
	}
	return nil
}

func (e *Editor) checkLines(ctx context.Context, base string, files map[string][]byte) ([]string, error) {
	dir, done, err := e.scratchContent(base, files)
	if content := (*build.ContentError)(nil); errors.As(err, &content) {
		return content.Problems, nil // a symbolic link pushed to the content
	}
	if err != nil {
		return nil, err
	}
	defer done()
	if lines := sitecontent.PathProblems(os.DirFS(dir)); len(lines) > 0 {
		return lines, nil
	}
	return e.Builder.Check(ctx, dir)
}

// scratchContent is a copy of the content of commit base, with files
// written over it, for the builder's tools; done deletes it.
func (e *Editor) scratchContent(base string, files map[string][]byte) (dir string, done func(), err error) {
	if e.Builder == nil {
		return "", nil, errors.New("this server has no builder to check the content with; see docs/publishing.md")
	}
	work, err := os.MkdirTemp(e.Scratch, "check-")
	if err != nil {
		return "", nil, err
	}
	done = func() { os.RemoveAll(work) }
	dir = filepath.Join(work, "content")
	if err := e.Content.Export(base, dir); err != nil {
		done()
		return "", nil, err
	}
	for name, body := range files {
		target := filepath.Join(dir, filepath.FromSlash(path.Clean(name)))
		os.Remove(target) // a hard link to the shared blob: never write through it
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			done()
			return "", nil, err
		}
		if err := os.WriteFile(target, body, 0o644); err != nil {
			done()
			return "", nil, err
		}
	}
	return dir, done, nil
}
