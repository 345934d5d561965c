package edit

import (
	"fmt"
	"io/fs"
	"mime/multipart"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"studio/internal/contentform"
	"studio/internal/sitecontent"
	"studio/web"
)

// The content's single pictures: the home page's hero, a picture of the
// content's own, chosen with the uploader of the products' photographs;
// and the pages' drawings, each one of the drawings the site is made with
// or a picture uploaded in its place, as the hero is (never an SVG: the
// uploader takes none). Neither is ever typed as a file's name.

const (
	// PictureKind is the Kind of a field that holds a picture of the
	// content's images (the hero): shown, and replaced by an upload.
	PictureKind = "picture"
	// DrawingKind is the Kind of a field that holds one of the site's
	// drawings, chosen from them (its Options), or a picture uploaded.
	DrawingKind = "drawing"
	// PictureFilePrefix and the field's name name a picture field's file
	// input ("_picture/home/hero/src"), posted without the script.
	PictureFilePrefix = "_picture"
	// PictureSentPrefix and the field's name name what the upload script
	// sent ahead for it: "NAME/FILENAME", as a product's UploadedField.
	PictureSentPrefix = "_uploaded"
)

// A Drawing is one of the drawings the site is made with (web/public/images):
// its address on the site and what it shows, from its own <title>.
type Drawing struct{ Src, Name string }

// Drawings are the site's drawings, by name, read once from the build.
var Drawings = sync.OnceValue(func() []Drawing { return drawingsOf(web.Client()) })

var svgTitle = regexp.MustCompile(`<title>([^<]+)</title>`)

// drawingsOf reads the drawings of a build: images/NAME.svg (the image
// pipeline's own files have a hash in their names, NAME.HASH.svg).
func drawingsOf(build fs.FS) []Drawing {
	names, _ := fs.Glob(build, "images/*.svg")
	var list []Drawing
	for _, name := range names {
		if strings.Count(path.Base(name), ".") != 1 {
			continue
		}
		b, err := fs.ReadFile(build, name)
		if err != nil {
			continue
		}
		list = append(list, Drawing{Src: "/" + name, Name: shortName(b, name)})
	}
	return list
}

// shortName is what a drawing shows, in a few words: its title up to the
// first comma, colon or "with" ("A drafting table seen from above").
func shortName(svg []byte, name string) string {
	m := svgTitle.FindSubmatch(svg)
	if m == nil {
		return strings.TrimSuffix(path.Base(name), ".svg")
	}
	title := strings.TrimSpace(string(m[1]))
	for _, cut := range []string{":", ",", " with "} {
		title, _, _ = strings.Cut(title, cut)
	}
	return title
}

// DrawingName is what the drawing at src shows, or "" for a picture that
// is none of the site's drawings.
func DrawingName(src string) string {
	for _, d := range Drawings() {
		if d.Src == src {
			return d.Name
		}
	}
	return ""
}

// pictureFields makes each text field whose pattern is a path's a picture
// (the content's images) or a drawing (the site's, listed as its
// Options, the one it has first when it is none of them).
func pictureFields(f *contentform.Field) {
	if f.Kind == "text" || f.Kind == "textarea" {
		switch sitecontent.KindOfPattern(f.Pattern) {
		case sitecontent.ImagePath:
			f.Kind = PictureKind
		case sitecontent.DrawingPath:
			f.Kind = DrawingKind
			for _, d := range Drawings() {
				f.Options = append(f.Options, d.Src)
			}
			if !slices.Contains(f.Options, f.Value) {
				f.Options = append([]string{f.Value}, f.Options...)
			}
		}
	}
	for _, c := range f.Fields {
		pictureFields(c)
	}
}

// uploadable says whether a field of a form takes a picture uploaded.
func uploadable(f *contentform.Field) bool { return f.Kind == PictureKind || f.Kind == DrawingKind }

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

// placePictures names each picture uploaded for a picture or drawing
// field of the part at pointer in doc after its place
// ("pages/home-hero-3f9a1c.jpg", "pages/home-craft-3f9a1c.jpg"), writing
// it into doc, and adds its file to files.
func (s *Staging) placePictures(part Part, schema *contentform.Schema, doc *contentform.Value, pointer string, files map[string][]byte) error {
	var err error
	var walk func(f *contentform.Field)
	walk = func(f *contentform.Field) {
		name, ok := strings.CutPrefix(f.Value, UploadSrcPrefix)
		if uploadable(f) && ok && err == nil {
			if filepath.Base(name) != name || name == "" || strings.HasPrefix(name, ".") {
				err = fmt.Errorf("the upload %q is not one of this server's", name)
				return
			}
			body, readErr := os.ReadFile(filepath.Join(s.Dir, name))
			if readErr != nil {
				err = fmt.Errorf("the picture uploaded is no longer on the server (uploads are kept a day): choose it again: %w", readErr)
				return
			}
			// Named after the group the field is in: "/home/craft/image" → home-craft.
			src := fmt.Sprintf("pages/%s-%s", slugOf(strings.ReplaceAll(path.Dir(f.Name), "/", " ")), name[:6]+path.Ext(name))
			doc.Replace(f.Name, contentform.Text(src))
			files["images/"+src] = body
		}
		for _, child := range f.Fields {
			walk(child)
		}
	}
	walk(part.Form(schema, doc, pointer))
	return err
}
